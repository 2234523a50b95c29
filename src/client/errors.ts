/** What a call to the service can fail with: an answer with the error body, or no answer. */
import { isRecord } from '../contract/guards.ts';

export interface ErrorItem {
  code: string;
  message: string;
}

/** The service answered 4xx/5xx. Carries the spec's error body (`errors[]`, `errorReference`). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly errors: ErrorItem[],
    readonly errorReference: string | null,
    /** `METHOD path` of the call, for logs and error surfaces. */
    readonly request: string,
    /** Seconds the service asks to wait (`Retry-After` of a 429 or 503), when it says. */
    readonly retryAfter: number | null = null,
  ) {
    super(errors.map((e) => e.message || e.code).join('; ') || `HTTP ${status}`);
  }
  /** The codes of `errors[]`, e.g. to map them onto form fields. */
  get codes(): string[] {
    return this.errors.map((e) => e.code);
  }
  has(code: string): boolean {
    return this.errors.some((e) => e.code === code);
  }
}

/** No answer at all: offline, DNS, connection refused, CORS. Worth a retry. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    readonly request: string,
    override readonly cause: unknown,
  ) {
    super(`Network error on ${request}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** Turns any answer into an ApiError, whether or not it carries the error body. */
export async function toApiError(res: Response, request: string): Promise<ApiError> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const b = isRecord(body) ? body : {};
  const errors: ErrorItem[] = [];
  for (const e of Array.isArray(b.errors) ? b.errors : [])
    if (isRecord(e) && typeof e.code === 'string')
      errors.push({ code: e.code, message: String(e.message ?? '') });
  if (errors.length === 0)
    errors.push({ code: `http.${res.status}`, message: res.statusText || `HTTP ${res.status}` });
  const ref = typeof b.errorReference === 'string' ? b.errorReference : null;
  const wait = Number(res.headers.get('retry-after') ?? Number.NaN);
  return new ApiError(res.status, errors, ref, request, Number.isFinite(wait) && wait >= 0 ? wait : null);
}

/** True for what a retry may fix: no answer, or a 5xx. */
export function isRetryable(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof ApiError && error.status >= 500);
}

/**
 * The HTTP status carried by what was thrown: an ApiError's, or any error's numeric `status`
 * (or `statusCode`); undefined for no answer (NetworkError, abort) or anything else.
 */
export function statusOf(e: unknown): number | undefined {
  if (!isRecord(e)) return undefined;
  const s = e.status ?? e.statusCode;
  return typeof s === 'number' ? s : undefined;
}
