import type { z } from 'zod';

export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';
export type RateRange = 'high' | 'standard' | 'low';
export type Domain =
  | 'referentials'
  | 'businessOrganization'
  | 'staff'
  | 'rostering'
  | 'slots'
  | 'fieldTracking'
  | 'fieldService'
  | 'projectManagement'
  | 'scheduling'
  | 'diagnostic'
  | 'webhooks';

/**
 * One row of the endpoint table. The server registers its routes from these rows, the
 * client types its calls with them and the OpenAPI document is generated from them.
 *
 * `path` uses `{name}` placeholders; a placeholder written `code:{customerCode}` means the
 * segment is the literal `code:` followed by the value (spec style).
 */
export interface Endpoint<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  id: string;
  method: Method;
  path: string;
  domain: Domain;
  range: RateRange;
  summary: string;
  /** Prefix of the codes this endpoint answers with, e.g. `referentials.customer`. */
  errorPrefix: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Success status and body schema (undefined for an empty body, e.g. 204). */
  responses: { [status: number]: R | undefined };
  /** Codes this endpoint may answer with, by status (documented in OpenAPI). */
  errors?: { [status: number]: readonly string[] };
  /** Not part of the spec: an addition for the console (OpenAPI `x-extension: true`). */
  extension?: boolean;
  /** Kept for compatibility: answers with a Deprecation header and a Link to `successor`. */
  deprecated?: { successor: string };
}

export function endpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  e: Endpoint<P, Q, B, R>,
): Endpoint<P, Q, B, R> {
  return e;
}

/** Scope needed to call an endpoint (gaps.md, Rights). */
export function requiredScope(e: Pick<Endpoint, 'method' | 'domain'>): string {
  return `${e.domain}:${e.method === 'GET' ? 'read' : 'write'}`;
}

export const ALL_SCOPES: readonly string[] = (
  [
    'referentials',
    'businessOrganization',
    'staff',
    'rostering',
    'slots',
    'fieldTracking',
    'fieldService',
    'projectManagement',
    'scheduling',
    'diagnostic',
    'webhooks',
  ] as const
).flatMap((d) => [`${d}:read`, `${d}:write`]);
