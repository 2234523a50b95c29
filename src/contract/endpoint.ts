import type { z } from 'zod';
import type { Domain } from './domains.ts';

export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';
/**
 * The spec's ranges (high, standard, low), and `interactive`: the console's search, sized for
 * a person typing, so that a palette never spends the budget of the lists.
 */
export type RateRange = 'high' | 'standard' | 'low' | 'interactive';

/**
 * One row of the endpoint table. The server registers its routes from these rows, the
 * client types its calls with them and the OpenAPI document is generated from them.
 *
 * `path` uses `{name}` placeholders; a placeholder written `code:{customerCode}` means the
 * segment is the literal `code:` followed by the value (spec style).
 */
export interface Endpoint {
  id: string;
  method: Method;
  path: string;
  domain: Domain;
  range: RateRange;
  summary: string;
  /** Prefix of the codes this endpoint answers with, e.g. `referentials.customer`. */
  errorPrefix: string;
  /**
   * `invalidJson`: a body of the wrong shape (wrong type, bad format) answers
   * `<prefix>.invalid.json` instead of `<prefix>.<field>.invalid|mandatory` (unknown fields
   * still answer `<prefix>.field.unknown`): for bodies whose rules answer business codes.
   */
  shapeErrors?: 'invalidJson';
  /**
   * Code of a path whose code is missing (`code:` followed by nothing), when it is not
   * `<errorPrefix>.code.mandatory` (e.g. `projectmanagement.project.code.mandatory` while the
   * body's codes use the prefix `projectmanagement`).
   */
  codeMandatory?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Success statuses and their body schema (undefined for an empty body, e.g. 204). */
  responses: { readonly [status: number]: z.ZodType | undefined };
  /** Codes this endpoint may answer with, by status (documented in OpenAPI). */
  errors?: { readonly [status: number]: readonly string[] };
  /**
   * Versioned record (lost updates): a GET answers `ETag` (strong, from lastUpdate); a PUT
   * honours `If-Match` (412 `<errorPrefix>.precondition.failed`, nothing written) and
   * answers the new `ETag`. Documented in OpenAPI from this flag.
   */
  versioned?: true;
  /**
   * The bearer token may come as `access_token=` in the query (RFC 6750 2.3) when no
   * Authorization header is sent: server-sent events, which EventSource opens without headers.
   */
  queryToken?: true;
  /** Not part of the spec: an addition for the console (OpenAPI `x-extension: true`). */
  extension?: boolean;
  /** Kept for compatibility: answers with a Deprecation header and a Link to `successor`. */
  deprecated?: { successor: string };
}

/** Declares a row; the row keeps its exact type, so handlers and clients are typed by it. */
export function endpoint<const E extends Endpoint>(e: E): E {
  return e;
}

type SchemaOf<E, K extends 'params' | 'query' | 'body'> = E extends { [P in K]: infer S extends z.ZodType }
  ? S
  : undefined;
/** Validated (output) type of a row's params, query or body; undefined when the row has none. */
export type InputOf<E, K extends 'params' | 'query' | 'body'> =
  SchemaOf<E, K> extends z.ZodType ? z.output<SchemaOf<E, K>> : undefined;
/** What a caller sends (input type) for a row's params, query or body. */
export type SentOf<E, K extends 'params' | 'query' | 'body'> =
  SchemaOf<E, K> extends z.ZodType ? z.input<SchemaOf<E, K>> : never;

type Responses<E> = E extends { responses: infer R } ? R : never;
/** Success statuses of a row. */
export type StatusOf<E> = keyof Responses<E> & number;
/** Body of a success answer with status S (undefined for an empty body). */
export type ResponseOf<E, S extends StatusOf<E> = StatusOf<E>> = S extends unknown
  ? Responses<E>[S] extends z.ZodType
    ? z.output<Responses<E>[S]>
    : undefined
  : never;

/** A domain's endpoints keyed by name (`<domain>Endpoints` of its contract file). */
export type DomainEndpoints<D extends Domain = Domain> = {
  readonly [name: string]: Endpoint & { domain: D };
};

/** Scope needed to call an endpoint (gaps.md, Rights); undefined: any valid token. */
export function requiredScope(e: { method: string; domain: Domain }): string | undefined {
  if (e.domain === 'console') return undefined;
  return `${e.domain}:${e.method === 'GET' ? 'read' : 'write'}`;
}
