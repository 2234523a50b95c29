/**
 * `GET .../console/v1/search` (contract: searchRecords): the palette's one call. Every kind
 * the caller may read (kinds.ts) in one UNION ALL: each branch the caller's own records
 * whose code starts with `q` or whose name contains it, by code, `size` + 1 rows (the extra
 * one says "more"). With `kind`, that kind alone, in keyset pages (code, then the tie-breaker).
 */
import { sql } from 'kysely';
import {
  ConsoleCodes,
  type RecordKind,
  SEARCH_SIZE,
  type SearchAnswer,
  type SearchQuery,
  searchRecords as searchEndpoint,
} from '../../../contract/console.ts';
import type { Db } from '../../db/index.ts';
import type { Caller } from '../caller.ts';
import { ApiError } from '../errors.ts';
import type { PageTokens } from '../pagination.ts';
import { likePattern, likePrefix } from '../sqlText.ts';
import { KIND_SOURCES, readableKinds } from './kinds.ts';

type Position = [code: string, tie: string];
const isPosition = (p: unknown): p is Position =>
  Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'string');

interface HitRow {
  kind: RecordKind;
  code: string;
  name: string | null;
  tie: string;
}

export async function searchRecords(
  db: Db,
  caller: Caller,
  tokens: PageTokens,
  query: SearchQuery,
): Promise<SearchAnswer> {
  if (query.continuationToken && !query.kind)
    throw new ApiError(
      400,
      ConsoleCodes.kindMandatory,
      'A continuationToken pages through one kind: give `kind`',
    );
  const size = query.size ?? SEARCH_SIZE.default;
  const readable = readableKinds(caller);
  // A kind the caller may not read is searched nowhere: its answer is an empty one.
  const kinds = query.kind ? readable.filter((k) => k === query.kind) : readable;
  const filters = { q: query.q, kind: query.kind, size };
  const position = tokens.decode<unknown>(
    searchEndpoint.id,
    query.continuationToken,
    ConsoleCodes.continuationTokenInvalid,
    filters,
  );
  if (position !== undefined && !isPosition(position))
    throw new ApiError(400, ConsoleCodes.continuationTokenInvalid, 'The continuationToken is malformed');
  if (kinds.length === 0) return { data: [], kinds: [], continuationToken: null };

  const branches = kinds.map((kind) => {
    const s = KIND_SOURCES[kind];
    const prefix = likePrefix(s.lowerCode ? query.q.toLowerCase() : query.q.toUpperCase());
    const matches = s.codeOnly
      ? sql`${s.code} LIKE ${prefix}`
      : sql`(${s.code} LIKE ${prefix} OR ${s.name} ILIKE ${likePattern(query.q)})`;
    const after = position ? sql`AND (${s.code}, ${s.tie}) > (${position[0]}, ${position[1]})` : sql``;
    return sql`(SELECT ${kind}::text AS kind, ${s.code} AS code, ${s.name} AS name, ${s.tie} AS tie
      FROM ${s.from} WHERE ${s.mine(caller)} AND ${matches} ${after}
      ORDER BY 2, 4 LIMIT ${size + 1})`;
  });
  const { rows } = await sql<HitRow>`${sql.join(branches, sql` UNION ALL `)}`.execute(db);

  const byKind = new Map<RecordKind, HitRow[]>(kinds.map((k) => [k, []]));
  for (const row of rows) byKind.get(row.kind)?.push(row);
  const data: SearchAnswer['data'] = [];
  const answered: SearchAnswer['kinds'] = [];
  let last: HitRow | undefined;
  for (const [kind, hits] of byKind) {
    answered.push({ kind, more: hits.length > size });
    for (const h of hits.slice(0, size)) {
      data.push({ kind, code: h.code, name: h.name ?? '', ...(kind === 'workOrder' ? { uuid: h.tie } : {}) });
      last = h;
    }
  }
  const next = query.kind !== undefined && answered[0]?.more ? last : undefined;
  return {
    data,
    kinds: answered,
    continuationToken: next ? tokens.encode(searchEndpoint.id, [next.code, next.tie], filters) : null,
  };
}
