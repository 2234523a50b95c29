/**
 * API tests speak the contract: `t.api(getCustomer, { params: { customerCode: 'C-1' } })`
 * fills the endpoint's path and query, so a test names the row it
 * exercises instead of rebuilding its URL, and a renamed parameter fails tsc. The shared
 * assertions on the error body (`expectErrors`) and the page walk (`walkPages`) live here.
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Endpoint, SentOf } from '../../contract/endpoint.ts';
import type { TestClient } from './harness.ts';

/** Names of a row's params or query fields, from its schemas. */
type FieldsOf<E, K extends 'params' | 'query'> = [SentOf<E, K>] extends [never] ? never : keyof SentOf<E, K>;

export interface ApiOptions<E extends Endpoint> {
  /**
   * The path's values, by the names of the row's placeholders, put in the path as given: a
   * test sends blank, percent-encoded or hostile values on purpose (`'%20'`, `'a%2Fb'`), so
   * nothing is encoded for it.
   */
  params?: { [K in FieldsOf<E, 'params'> & string]?: string | number };
  /** The query, by the row's field names; values are sent as given (a test sends bad ones too). */
  query?: { [K in FieldsOf<E, 'query'> & string]?: string | number | boolean | null | undefined };
  /** The JSON body as sent; a test sends bad ones too, so it is not narrowed to the row's. */
  body?: unknown;
  /** Raw body text instead of `body` (malformed JSON, encodings). */
  raw?: string;
  as?: TestClient;
  headers?: Record<string, string>;
}

/** `/a/code:{x}` + {x: 'A-1'} -> `/a/code:A-1`, values as given; a missing one leaves the segment empty. */
export function pathOf(endpoint: Pick<Endpoint, 'path'>, params: Record<string, unknown> = {}): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => String(params[name] ?? ''));
}

/** Query string of the defined values, in the order given. */
export function queryOf(query: Record<string, unknown> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.append(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The URL of a row with its params and query. */
export function urlOf<E extends Endpoint>(endpoint: E, opts: Pick<ApiOptions<E>, 'params' | 'query'> = {}) {
  return `${pathOf(endpoint, opts.params)}${queryOf(opts.query)}`;
}

type Call = (
  method: string,
  url: string,
  opts?: { as?: TestClient; body?: unknown; raw?: string; headers?: Record<string, string> },
) => Promise<LightMyRequestResponse>;

/** `t.api`: one request to a row of the contract, with a test client's token. */
export function apiOf(call: Call) {
  return <E extends Endpoint>(endpoint: E, opts: ApiOptions<E> = {}) =>
    call(endpoint.method, urlOf(endpoint, opts), {
      as: opts.as,
      body: opts.body,
      raw: opts.raw,
      headers: opts.headers,
    });
}

/** `t.pages`: every page of a list row (`walkPages` over `t.api`). */
export function pagesOf(api: ReturnType<typeof apiOf>) {
  return <T = Record<string, unknown>, E extends Endpoint = Endpoint>(
    endpoint: E,
    opts: ApiOptions<E> = {},
  ) =>
    walkPages<T>((continuationToken) =>
      api(endpoint, { ...opts, query: { ...opts.query, continuationToken } as ApiOptions<E>['query'] }),
    );
}

/** The codes of an error body, in order. */
export const codesOf = (res: { json(): unknown }): string[] =>
  ((res.json() as { errors?: { code: string }[] }).errors ?? []).map((e) => e.code);

/**
 * The answer is the spec's error body with this status: exactly these codes, in this order
 * (one code: the only one), and an errorReference.
 */
export function expectErrors(res: LightMyRequestResponse, status: number, codes: string | readonly string[]) {
  expect(res.statusCode, res.body).toBe(status);
  expect(codesOf(res)).toEqual(typeof codes === 'string' ? [codes] : [...codes]);
  expect(res.json().errorReference).toEqual(expect.any(String));
}

/** A keyset page (spec: Pagination). */
export interface Page<T = Record<string, unknown>> {
  continuationToken: string | null;
  data: T[];
}

/**
 * Every page of a list, from the first, following `continuationToken` until it is null; each
 * page must answer 200. `read` gets the token to send (undefined for the first page).
 */
export async function walkPages<T = Record<string, unknown>>(
  read: (continuationToken: string | undefined) => Promise<LightMyRequestResponse>,
  limit = 10_000,
): Promise<Page<T>[]> {
  const pages: Page<T>[] = [];
  let token: string | undefined;
  do {
    const res = await read(token);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as Page<T>;
    pages.push(page);
    token = page.continuationToken ?? undefined;
    if (pages.length > limit) throw new Error(`more than ${limit} pages: does the token move on?`);
  } while (token);
  return pages;
}
