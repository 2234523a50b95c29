import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from './errors.ts';

/**
 * Opaque, tamper-evident continuation tokens for keyset pagination: the position after
 * the last row of a page, bound to the endpoint that issued it, signed with an
 * instance secret. A token that does not verify is a 400, never a 500 or a wrong page.
 */
export class PageTokens {
  constructor(private readonly secret: string) {}

  encode(endpointId: string, position: unknown): string {
    const payload = Buffer.from(JSON.stringify({ e: endpointId, p: position })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The position carried by `token`, or undefined for the first page (absent or empty). */
  decode<T>(endpointId: string, token: string | undefined | null, errorCode: string): T | undefined {
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
    if (decoded.e !== endpointId) throw invalid;
    return decoded.p;
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
): { continuationToken: string | null; data: Item[] } {
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  return {
    continuationToken: more ? tokens.encode(endpointId, keyOf(pageRows[pageRows.length - 1])) : null,
    data: pageRows.map(map),
  };
}
