/**
 * Typed HTTP client of the service. Each call names a row of the contract's endpoint
 * table (`src/contract`), so its path parameters, query, body and answer are typed by the
 * row's zod schemas. No React: the console wraps it (src/console/app/api.ts), scripts and
 * tests use it directly.
 *
 *   const api = createClient({ baseUrl: '', getToken: () => token });
 *   const c = await api.call(getCustomer, { params: { customerCode: 'c1' } });
 *   for await (const page of api.pages(listCustomers, { query: { q: 'acme' } })) ...
 *   const r = await api.request(getCustomer, { params });      // r.headers.get('etag')
 *   await api.request(putCustomer, { params, body, headers: { 'if-match': etag } });
 */
import type { Endpoint, ResponseOf, SentOf } from '../contract/endpoint.ts';
import { ApiError, NetworkError, toApiError } from './errors.ts';

export { ApiError, type ErrorItem, isRetryable, NetworkError, statusOf } from './errors.ts';

/** The body of an endpoint's success answer (undefined for 201/204 without body). */
export type Output<E> = ResponseOf<E>;

export interface CallInput<E extends Endpoint> {
  /** Values of the `{name}` placeholders of the path (encoded here). */
  params?: SentOf<E, 'params'>;
  query?: SentOf<E, 'query'>;
  body?: SentOf<E, 'body'>;
  /** Extra request headers, e.g. `{ 'if-match': etag }` for a conditional write. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface CallResult<E extends Endpoint> {
  status: number;
  data: Output<E>;
  headers: Headers;
}

export interface ClientOptions {
  /** Origin (and prefix) of the service; '' for the same origin. */
  baseUrl: string;
  /** The bearer token to send, if any. Called for every request, so refreshed tokens apply. */
  getToken?: () => string | null | undefined | Promise<string | null | undefined>;
  /** Told about every 401 (before the ApiError is thrown), e.g. to start a sign-in. */
  onUnauthorized?: (error: ApiError) => void;
  /** Injected fetch (tests); the global one by default. */
  fetch?: typeof fetch;
  /** Pause before a POST whose answer was lost is sent again (times the attempt); 500 ms. */
  retryPauseMs?: number;
}

export type Client = ReturnType<typeof createClient>;

/** `/a/code:{x}` + {x: 'A/B'} -> `/a/code:A%2FB`. */
export function fillPath(path: string, params: Record<string, unknown> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined || v === null || v === '') throw new TypeError(`Missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}

/** Query string of defined, non-empty values; arrays repeat the key. */
export function queryString(query: Record<string, unknown> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    for (const item of Array.isArray(v) ? v : [v]) q.append(k, String(item));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** What a keyset page carries (spec: Pagination). */
export interface KeysetPage {
  data?: readonly unknown[];
  continuationToken?: string | null;
}

/**
 * THE page walk: every page `read` gives, from the first (token undefined), following
 * `continuationToken` until it is empty or null, or a page is empty. `client.pages()` and
 * the console's whole-list reads go through it.
 */
export async function* walkPages<P extends KeysetPage>(
  read: (token: string | undefined) => Promise<P>,
): AsyncGenerator<P> {
  let token: string | undefined;
  for (;;) {
    const page = await read(token);
    yield page;
    if (!page?.continuationToken || !page.data?.length) return;
    token = page.continuationToken;
  }
}

/** The header of draft-ietf-httpapi-idempotency-key-header, as the client sends it. */
export const IDEMPOTENCY_KEY = 'idempotency-key';
/**
 * The service's 409 for a key whose first request is still running (it answers Retry-After);
 * contract/errors.ts `idempotencyKeyInProgress`, not imported: the client loads with the shell, zod not.
 */
const IDEMPOTENCY_IN_PROGRESS = 'request.idempotencykey.inprogress';
/** A POST is sent at most this many times when its answer is lost. */
const POST_ATTEMPTS = 3;

/**
 * No answer the caller can act on: the action may or may not have run, or its first send
 * is still running (409 with the key's in-progress code); same key again.
 */
function answerLost(e: unknown): boolean {
  if (e instanceof NetworkError) return true;
  if (!(e instanceof ApiError)) return false;
  return [502, 503, 504].includes(e.status) || (e.status === 409 && e.has(IDEMPOTENCY_IN_PROGRESS));
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

export function createClient(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/$/, '');
  const doFetch = options.fetch ?? ((...a: Parameters<typeof fetch>) => globalThis.fetch(...a));
  const retryPause = options.retryPauseMs ?? 500;

  /**
   * One call. A POST carries an `Idempotency-Key` (a fresh one per call unless the caller
   * gives it): when no answer came back (network, 502/503/504) it is sent again with the
   * same key, so the service does the action once however many times it arrives (a
   * retried link never links twice; issue 29).
   */
  async function send(
    method: string,
    path: string,
    init: { query?: unknown; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<{ status: number; data: unknown; headers: Headers }> {
    if (method !== 'POST') return exchange(method, path, init);
    const given = Object.keys(init.headers ?? {}).some((h) => h.toLowerCase() === IDEMPOTENCY_KEY);
    const headers = given ? init.headers : { ...init.headers, [IDEMPOTENCY_KEY]: crypto.randomUUID() };
    for (let attempt = 1; ; attempt++) {
      try {
        return await exchange(method, path, { ...init, headers });
      } catch (e) {
        if (attempt >= POST_ATTEMPTS || !answerLost(e) || init.signal?.aborted) throw e;
        const asked = e instanceof ApiError && e.retryAfter !== null ? e.retryAfter * 1000 : 0;
        await wait(Math.max(asked, retryPause * attempt), init.signal);
      }
    }
  }

  /** One HTTP exchange; path is already filled. Throws ApiError or NetworkError. */
  async function exchange(
    method: string,
    path: string,
    init: { query?: unknown; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<{ status: number; data: unknown; headers: Headers }> {
    const url = `${base}${path}${queryString(init.query as Record<string, unknown>)}`;
    const label = `${method} ${path}`;
    const headers: Record<string, string> = { ...init.headers, accept: 'application/json' };
    const token = await options.getToken?.();
    if (token) headers.authorization = `Bearer ${token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await doFetch(url, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: init.signal,
      });
    } catch (e) {
      // An abort is the caller's decision, not a failure of the network.
      if ((e as Error)?.name === 'AbortError') throw e;
      throw new NetworkError(label, e);
    }
    if (!res.ok) {
      const error = await toApiError(res, label);
      if (res.status === 401) options.onUnauthorized?.(error);
      throw error;
    }
    const text = res.status === 204 ? '' : await res.text();
    return { status: res.status, data: text ? JSON.parse(text) : undefined, headers: res.headers };
  }

  /** The whole answer (status tells 201 created from 204 updated). */
  async function request<E extends Endpoint>(endpoint: E, input: CallInput<E> = {}): Promise<CallResult<E>> {
    const path = fillPath(endpoint.path, input.params as Record<string, unknown>);
    const r = await send(endpoint.method, path, input);
    return r as CallResult<E>;
  }

  /** The answer's body only. */
  async function call<E extends Endpoint>(endpoint: E, input: CallInput<E> = {}): Promise<Output<E>> {
    return (await request(endpoint, input)).data;
  }

  /**
   * Every page of a paginated list, following `continuationToken` until it is empty or
   * null, or a page is empty (spec: Pagination).
   */
  function pages<E extends Endpoint>(endpoint: E, input: CallInput<E> = {}): AsyncGenerator<Output<E>> {
    return walkPages((token) => {
      const query = { ...(input.query as object), ...(token ? { continuationToken: token } : {}) };
      return call(endpoint, { ...input, query } as CallInput<E>) as Promise<Output<E> & KeysetPage>;
    });
  }

  /** For the few extensions outside the endpoint table (e.g. `/me`): untyped. */
  async function raw<T>(
    method: string,
    path: string,
    init: { query?: unknown; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ) {
    return (await send(method, path, init)).data as T;
  }

  return { request, call, pages, raw, baseUrl: base };
}
