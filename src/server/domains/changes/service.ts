/**
 * The rules of reading the change log: what a caller sees of it (its office tree, with a
 * tombstone for a record that left the tree), the feed's cursor, a record's history.
 */
import {
  type ChangeEntry,
  ChangesCodes,
  FEED_KINDS,
  FEED_PAGE_SIZE,
  type FeedPage,
  HISTORY_PAGE_SIZE,
  type HistoryPage,
} from '../../../contract/changes.ts';
import { isOneOf } from '../../../contract/guards.ts';
import type { Db } from '../../db/index.ts';
import { ApiError } from '../../platform/errors.ts';
import { type OfficeScope, tenantOf } from '../../platform/officeScope.ts';
import type { PageTokens } from '../../platform/pagination.ts';
import * as q from './queries.ts';

const FEED = 'changes.feed';

/** Whether `entryPath` (an office's materialised path) is in the tree of `path`. */
const inTree = (entryPath: string | null, path: string) => entryPath?.startsWith(path) === true;

/**
 * An entry as the caller of tree `path` sees it: as it is, or, for a record that moved out
 * of the tree, a tombstone (deleted, no fields): for that caller the record is gone.
 */
export function toEntry(row: q.EntryRow, path: string): ChangeEntry {
  const left = row.office_path !== null && !inTree(row.office_path, path) && inTree(row.previous_path, path);
  return {
    id: row.id,
    kind: row.kind,
    code: row.code,
    uuid: row.uuid,
    officeCode: row.office_code,
    action: left ? 'deleted' : row.action,
    actor: { type: row.actor.type as ChangeEntry['actor']['type'], identifier: row.actor.identifier },
    at: new Date(row.at).toISOString(),
    fields: left ? [] : row.fields,
  };
}

/** Whether the caller of tree `path` sees the entry (the SQL's rule, for the stream's memory). */
export function visible(row: q.EntryRow, path: string, kinds: readonly string[]): boolean {
  if (!kinds.includes(row.kind)) return false;
  return row.office_path === null || inTree(row.office_path, path) || inTree(row.previous_path, path);
}

/** `kinds=a,b` as a list of the feed's kinds; absent: all of them. */
export function parseKinds(text: string | undefined): readonly string[] {
  if (text === undefined) return FEED_KINDS;
  const kinds = text.split(',').map((k) => k.trim());
  const unknown = kinds.filter((k) => !isOneOf(FEED_KINDS, k));
  if (kinds.length === 0 || unknown.length > 0)
    throw new ApiError(400, ChangesCodes.kindsInvalid, `kinds: one or more of ${FEED_KINDS.join(', ')}`);
  return kinds;
}

/** 410 when entries after `after` were pruned: the client reads the lists again. */
export function refuseExpired(after: string, prunedThrough: string) {
  if (BigInt(after) < BigInt(prunedThrough))
    throw new ApiError(
      410,
      ChangesCodes.cursorExpired,
      'The changes after this position are past the retention: read the lists again, then the feed from since=now',
    );
}

/** The feed: entries after the cursor in the caller's tree, and the cursor to read on from. */
export async function readFeed(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  query: { since?: string; kinds?: string; limit?: number },
): Promise<FeedPage> {
  const tenant = tenantOf(scope) ?? '';
  const kinds = parseKinds(query.kinds);
  const limit = query.limit ?? FEED_PAGE_SIZE.default;
  // The end first: every entry up to it has committed (ids are taken in commit order).
  const { last, prunedThrough } = await q.counters(db, tenant);
  const cursor = (id: string) => tokens.encode(FEED, id);
  if (query.since === 'now') return { data: [], cursor: cursor(last) };
  const after = query.since === undefined ? '0' : decodeCursor(tokens, query.since);
  if (query.since !== undefined) refuseExpired(after, prunedThrough);
  const rows = await q.entriesAfter(db, { tenant, path: scope.path, after, through: last, kinds, limit });
  // A full page reads on from its last entry; a shorter one has seen everything to the end.
  const next = rows.length === limit ? rows[rows.length - 1].id : BigInt(last) > BigInt(after) ? last : after;
  return { data: rows.map((r) => toEntry(r, scope.path)), cursor: cursor(next) };
}

function decodeCursor(tokens: PageTokens, since: string): string {
  const id = tokens.decode<unknown>(FEED, since, ChangesCodes.cursorInvalid);
  if (typeof id !== 'string' || !/^\d{1,19}$/.test(id))
    throw new ApiError(400, ChangesCodes.cursorInvalid, 'The cursor is malformed');
  return id;
}

/**
 * A record's history, newest first. The caller's domain has found the record in the
 * caller's scope first (its 404 otherwise): every entry of a visible record is shown.
 */
export async function readHistory(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  record: {
    kind: string;
    code: string;
    /** A work order's uuid: its code may be carried by another (a deleted one). */
    uuid?: string;
    endpointId: string;
    continuationTokenInvalid: string;
  },
  query: { limit?: number; actor?: string; continuationToken?: string },
): Promise<HistoryPage> {
  const limit = query.limit ?? HISTORY_PAGE_SIZE.default;
  const filters = { code: record.code, uuid: record.uuid ?? null, actor: query.actor ?? null };
  const before = tokens.decode<string>(
    record.endpointId,
    query.continuationToken,
    record.continuationTokenInvalid,
    filters,
  );
  if (before !== undefined && (typeof before !== 'string' || !/^\d{1,19}$/.test(before)))
    throw new ApiError(400, record.continuationTokenInvalid, 'The continuationToken is malformed');
  const rows = await q.recordEntries(db, {
    tenant: tenantOf(scope) ?? '',
    kind: record.kind,
    code: record.code,
    uuid: record.uuid,
    before,
    actor: query.actor,
    limit: limit + 1,
  });
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return {
    data: page.map((r) => toEntry(r, '/')),
    continuationToken: more ? tokens.encode(record.endpointId, page[page.length - 1].id, filters) : null,
  };
}

/** The answer of a history row: the record, found in the caller's scope by its domain first. */
export async function historyAnswer(
  ctx: { db: Db; caller: { scope: OfficeScope }; tokens: PageTokens; endpoint: { id: string } },
  record: { kind: string; code: string; uuid?: string },
  query: { limit?: number; actor?: string; continuationToken?: string },
  continuationTokenInvalid: string,
): Promise<{ status: 200; body: HistoryPage }> {
  const body = await readHistory(
    ctx.db,
    ctx.caller.scope,
    ctx.tokens,
    { ...record, endpointId: ctx.endpoint.id, continuationTokenInvalid },
    query,
  );
  return { status: 200, body };
}
