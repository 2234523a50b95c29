import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from './errors.ts';

/**
 * Opaque, tamper-evident continuation tokens for keyset pagination: the position after
 * the last row of a page, bound to the list that issued it (and to its filters, when
 * given), signed with an instance secret. A token that does not verify, or that comes
 * back with other filters, is a 400, never a 500 or a wrong page.
 */
export class PageTokens {
  constructor(private readonly secret: string) {}

  encode(endpointId: string, position: unknown, filters?: unknown): string {
    const payload = Buffer.from(
      JSON.stringify({ e: this.binding(endpointId, filters), p: position }),
    ).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The position carried by `token`, or undefined for the first page (absent or empty). */
  decode<T>(
    endpointId: string,
    token: string | undefined | null,
    errorCode: string,
    filters?: unknown,
  ): T | undefined {
    if (token === undefined || token === null || token === '') return undefined;
    const invalid = new ApiError(
      400,
      errorCode,
      'The continuationToken is malformed or was not issued for this list',
    );
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) throw invalid;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid;
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { e: string; p: T };
    if (decoded.e !== this.binding(endpointId, filters)) throw invalid;
    return decoded.p;
  }

  /** The list's id, plus a digest of its filters when the list has any. */
  private binding(endpointId: string, filters: unknown): string {
    if (filters === undefined) return endpointId;
    const digest = createHmac('sha256', this.secret).update(JSON.stringify(filters)).digest('base64url');
    return `${endpointId}:${digest.slice(0, 12)}`;
  }

  private sign(payload: string) {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 22);
  }
}

/**
 * Builds a page from rows fetched with `limit + 1`: the extra row only says whether a
 * next page exists, and the token carries the key of the last row returned.
 */
export function toPage<Row, Item>(
  rows: Row[],
  limit: number,
  map: (row: Row) => Item,
  keyOf: (row: Row) => unknown,
  tokens: PageTokens,
  endpointId: string,
  filters?: unknown,
): { continuationToken: string | null; data: Item[] } {
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  return {
    continuationToken: more ? tokens.encode(endpointId, keyOf(pageRows[pageRows.length - 1]), filters) : null,
    data: pageRows.map(map),
  };
}

/**
 * One page request of a keyset list: where it starts (the position its token carries,
 * checked to be of the list's key type) and how to build the page it answers.
 */
export function pageRequest<K>(
  tokens: PageTokens,
  list: { id: string; filters?: unknown; invalidCode: string; isKey: (p: unknown) => p is K },
  token: string | undefined,
) {
  const position = tokens.decode<unknown>(list.id, token, list.invalidCode, list.filters);
  if (position !== undefined && !list.isKey(position))
    throw new ApiError(400, list.invalidCode, 'The continuationToken is malformed');
  return {
    after: position as K | undefined,
    /** The page of `rows` (fetched with limit + 1) and the token of the next one. */
    page<Row, Item>(rows: Row[], limit: number, map: (row: Row) => Item, keyOf: (row: Row) => K) {
      return toPage(rows, limit, map, keyOf, tokens, list.id, list.filters);
    },
  };
}

export const isString = (p: unknown): p is string => typeof p === 'string';

/** A `[time, id]` key: lists in time order, ties broken by id (activities, used items). */
export const isTimeAndId = (p: unknown): p is [string, string] =>
  Array.isArray(p) &&
  p.length === 2 &&
  typeof p[0] === 'string' &&
  typeof p[1] === 'string' &&
  !Number.isNaN(Date.parse(p[0]));
