import { z } from 'zod';

/** Error body of every 4xx and 5xx answer (spec: Errors). */
export const ErrorBody = z
  .object({
    errors: z.array(z.object({ code: z.string(), message: z.string() })).min(1),
    errorReference: z.string(),
  })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Codes shared by every endpoint (spec: Common codes). */
export const CommonCodes = {
  noCredentials: 'unauthorized.nocredentials',
  badCredentials: 'unauthorized.badcredentials',
  forbidden: 'access.forbiden',
  tooManyRequests: 'ratelimiter.toomanyrequest',
  internal: 'internal.server.error',
  routeNotFound: 'route.not.found',
  methodNotAllowed: 'route.method.notallowed',
  /** CONNECT, TRACE, WebDAV's methods, a name HTTP does not define: 501 on every path. */
  methodNotImplemented: 'request.method.notimplemented',
  /** A Content-Encoding other than identity, gzip, deflate or br: 415. */
  encodingUnsupported: 'request.encoding.unsupported',
  /** A body that does not decode by its Content-Encoding: 400. */
  encodingInvalid: 'request.encoding.invalid',
  unsupportedMediaType: 'request.mediatype.unsupported',
  payloadTooLarge: 'request.payload.toolarge',
  continuationTokenInvalid: 'continuationToken.invalid',
  /** Answered by the HTTP parser, before any route (platform/errors.ts clientErrorHandler). */
  headersTooLarge: 'request.headers.toolarge',
  malformedRequest: 'request.malformed',
  requestTimeout: 'request.timeout',
  /** Idempotency-Key (platform/idempotency.ts): empty, longer than 255 characters, not a string: 400. */
  idempotencyKeyInvalid: 'request.idempotencykey.invalid',
  /** The key was used by the caller for another request (method, path or body) within 24 h: 422. */
  idempotencyKeyMismatch: 'request.idempotencykey.mismatch',
  /** The first request sent with the key has not answered yet: 409. */
  idempotencyKeyInProgress: 'request.idempotencykey.inprogress',
  /** The keys' store (Redis) does not answer: 503, retry with the same key. */
  idempotencyKeyUnavailable: 'request.idempotencykey.unavailable',
} as const;

/**
 * Codes of the operations endpoints (`/readyz`, `/metrics`; docs/operations.md, Deployment), outside
 * the spec's API.
 */
export const OperationsCodes = {
  /** SIGTERM/SIGINT received: readiness fails and new requests are refused while in-flight ones finish. */
  shuttingDown: 'service.shuttingdown',
  databaseUnavailable: 'service.database.unavailable',
  migrationsPending: 'service.migrations.pending',
  metricsUnauthorized: 'metrics.unauthorized',
  metricsForbidden: 'metrics.forbidden',
} as const;

/**
 * Codes derived from a domain prefix such as `referentials.customer`. The spec's own
 * codes follow this pattern: `<prefix>.invalid.json`, `<prefix>.field.unknown`,
 * `<prefix>.<field>.mandatory` (field lowercased: `addressdetails`), and we extend it
 * with `<prefix>.<field>.invalid` for constraint violations the spec does not name.
 */
export const derivedCode = {
  invalidJson: (prefix: string) => `${prefix}.invalid.json`,
  fieldUnknown: (prefix: string) => `${prefix}.field.unknown`,
  mandatory: (prefix: string, field: string) => `${prefix}.${field.toLowerCase()}.mandatory`,
  invalid: (prefix: string, field: string) => `${prefix}.${field.toLowerCase()}.invalid`,
  customFieldMandatory: (prefix: string) => `${prefix}.custom.field.mandatory`,
  customFieldUnknown: (prefix: string) => `${prefix}.custom.field.unknown`,
  customFieldInvalid: (prefix: string) => `${prefix}.custom.field.invalid`,
  continuationTokenInvalid: (domain: string) => `${domain}.continuationToken.invalid`,
  /** 412: the If-Match of a PUT is not the record's current ETag (or the record is unknown). */
  preconditionFailed: (prefix: string) => `${prefix}.precondition.failed`,
};
