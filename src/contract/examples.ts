/**
 * One example request and its answer for every operation, keyed by endpoint id, drawn from
 * the demo dataset by scripts/openapi-examples.ts (the answers are the service's own). The
 * OpenAPI document shows them (platform/openapi.ts), so that generated clients, mock servers
 * and contract testers have something real to work from; openapiExamples.test.ts checks
 * every endpoint has one and that each matches its schemas. Not part of contract/index.ts:
 * the console does not carry them.
 */
import data from './examples.json' with { type: 'json' };

export interface OperationExample {
  summary: string;
  request: {
    /** Path values, without their literal prefix (`code:`). */
    params?: Record<string, string>;
    /** Query parameters, typed as the document types them. */
    query?: Record<string, string | number | boolean>;
    body?: unknown;
  };
  response: { status: number; body?: unknown };
}

export const operationExamples: Readonly<Record<string, OperationExample>> = data as Record<
  string,
  OperationExample
>;
