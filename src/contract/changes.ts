/**
 * Changes (issue 29): the one change log of the service, read three ways. Every committed
 * change of a record appends one entry in the same transaction (tenant, office, kind, code,
 * action, actor, the fields before and after); the entry's `id` increases per tenant in
 * commit order, so it is at once a record's history line, a feed position and an SSE event
 * id, and the webhook callbacks of that change carry it as `changeId` (docs/api/changes.md).
 *
 * - History (`GET <record>/history`): declared here by `historyEndpoint`, filed in the
 *   record's own domain (its scope, its office and tenant scope, its 404).
 * - Feed (`GET .../changes/v1/changes`): the entries after a cursor, for sync.
 * - Stream (`GET .../changes/v1/stream`): server-sent events of the new entries.
 * All three are extensions (`x-extension`), not part of the spec.
 */
import { z } from 'zod';
import { QueryInteger } from './common.ts';
import type { Domain } from './domains.ts';
import { endpoint } from './endpoint.ts';
import { derivedCode } from './errors.ts';

export const CHANGES = 'changes';
const BASE = '/eTech/rest/ws/changes/v1';
/** The feed and the stream. */
export const CHANGES_FEED_PATH = `${BASE}/changes`;
export const CHANGES_STREAM_PATH = `${BASE}/stream`;

/** The kinds of record the log names (an entry's `kind`); `kinds=` of the feed takes these. */
export const CHANGE_KINDS = [
  'customer',
  'site',
  'asset',
  'item',
  'skill',
  'workOrder',
  'project',
  'serviceOrder',
  'subscription',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
/**
 * The kinds the feed and the stream carry: a webhook subscription is read by its owner
 * alone (its history only), not by every caller of its office tree.
 */
export const FEED_KINDS = CHANGE_KINDS.filter((k) => k !== 'subscription');

/** The actions of the log; domain actions beside created/updated/deleted. */
export const CHANGE_ACTIONS = [
  'created',
  'updated',
  'deleted',
  'linked',
  'unlinked',
  'scheduled',
  'unscheduled',
  'validated',
] as const;

/** Texts longer than this are cut in an entry's fields and end with TRUNCATED_MARKER. */
export const CHANGE_TEXT_MAX = 1000;
export const TRUNCATED_MARKER = '…[truncated]';
/** Default retention of the log, in days (`FIELDWORK_CHANGES_RETENTION_DAYS`). */
export const CHANGES_RETENTION_DAYS = 90;

export const HISTORY_PAGE_SIZE = { default: 50, max: 100 } as const;
export const FEED_PAGE_SIZE = { default: 1000, max: 1000 } as const;
/** Seconds between two heartbeat comments of the stream. */
export const STREAM_HEARTBEAT_SECONDS = 15;
/** A stream ends after this long (the client reconnects with Last-Event-ID and its current token). */
export const STREAM_MAX_MINUTES = 15;

/** Codes of the changes endpoints (history codes use the record's own prefix). */
export const ChangesCodes = {
  fieldUnknown: derivedCode.fieldUnknown(CHANGES),
  /** `since` is not a cursor the service gave. */
  cursorInvalid: `${CHANGES}.cursor.invalid`,
  /** 410: the cursor points before the retention (entries were pruned): re-sync from the lists. */
  cursorExpired: `${CHANGES}.cursor.expired`,
  kindsInvalid: derivedCode.invalid(CHANGES, 'kinds'),
  limitInvalid: derivedCode.invalid(CHANGES, 'limit'),
  /** `Last-Event-ID` of the stream is not an entry id. */
  lastEventIdInvalid: `${CHANGES}.lasteventid.invalid`,
} as const;

export const ChangeActor = z
  .object({
    type: z.enum(['webService', 'webUser', 'process']),
    identifier: z.string().meta({
      description: 'webService: the application name; webUser: the login; process: the import or command',
    }),
  })
  .meta({ id: 'ChangeActor' });
export type ChangeActor = z.infer<typeof ChangeActor>;

export const ChangeField = z
  .object({
    name: z.string().meta({
      description:
        'The field as the record names it (custom fields: `customFields.<code>`; parts of a work order: e.g. `usedItems.<itemCode>`)',
    }),
    before: z.unknown().meta({ description: 'null when created' }),
    after: z.unknown().meta({ description: 'null when deleted' }),
  })
  .meta({ id: 'ChangeField' });
export type ChangeField = z.infer<typeof ChangeField>;

export const ChangeEntry = z
  .object({
    id: z
      .string()
      .meta({ description: 'Increasing per tenant in commit order (a bigint as a decimal string)' }),
    kind: z.string().meta({ description: `One of ${CHANGE_KINDS.join(', ')}` }),
    code: z.string(),
    uuid: z.string().nullable(),
    officeCode: z.string().nullable().meta({ description: 'null for catalog records (items, skills)' }),
    action: z.string().meta({ description: `One of ${CHANGE_ACTIONS.join(', ')}` }),
    actor: ChangeActor,
    at: z.string().meta({ format: 'date-time' }),
    fields: z.array(ChangeField).meta({
      description: `Changed fields only; secrets never; texts past ${CHANGE_TEXT_MAX} characters end with "${TRUNCATED_MARKER}"`,
    }),
  })
  .meta({ id: 'ChangeEntry' });
export type ChangeEntry = z.infer<typeof ChangeEntry>;

/* ---------------- history ---------------- */

export const HistoryQuery = z
  .strictObject({
    limit: QueryInteger(1, HISTORY_PAGE_SIZE.max)
      .optional()
      .meta({ description: `1..${HISTORY_PAGE_SIZE.max}, default ${HISTORY_PAGE_SIZE.default}` }),
    actor: z
      .string()
      .max(200)
      .optional()
      .meta({ description: "Only the entries of this actor's identifier" }),
    continuationToken: z.string().optional(),
  })
  .meta({ id: 'HistoryQuery' });
export type HistoryQuery = z.input<typeof HistoryQuery>;

export const HistoryPage = z
  .object({ data: z.array(ChangeEntry), continuationToken: z.string().nullable() })
  .meta({ id: 'HistoryPage' });
export type HistoryPage = z.infer<typeof HistoryPage>;

/**
 * The history row of a record kind, filed in the record's domain: `path` is the record's
 * own path with `/history` added, `params` its params, `notFound` the codes its GET answers
 * 404 with (another office's or tenant's record is answered exactly like an unknown one).
 */
export function historyEndpoint<const D extends Domain, const P extends z.ZodType>(row: {
  id: string;
  domain: D;
  recordPath: string;
  errorPrefix: string;
  params: P;
  notFound: readonly string[];
  continuationTokenInvalid: string;
  label: string;
}) {
  return endpoint({
    id: row.id,
    method: 'GET',
    path: `${row.recordPath}/history`,
    domain: row.domain,
    range: 'high',
    summary: `History of ${row.label}: its change log entries, newest first, keyset-paged; actor= keeps one actor's. Scoped like the record (404 otherwise).`,
    errorPrefix: row.errorPrefix,
    params: row.params,
    query: HistoryQuery,
    responses: { 200: HistoryPage },
    errors: {
      400: [
        `${row.errorPrefix}.code.mandatory`,
        derivedCode.invalid(row.errorPrefix, 'limit'),
        derivedCode.fieldUnknown(row.errorPrefix),
        row.continuationTokenInvalid,
      ],
      404: row.notFound,
    },
    extension: true,
  });
}

/* ---------------- feed ---------------- */

export const FeedQuery = z
  .strictObject({
    since: z.string().max(200).optional().meta({
      description:
        'The cursor of the previous page (or of an empty read); absent: from the oldest entry kept',
    }),
    kinds: z
      .string()
      .max(500)
      .optional()
      .meta({ description: `Comma-separated kinds (${FEED_KINDS.join(', ')}); absent: all` }),
    limit: QueryInteger(1, FEED_PAGE_SIZE.max)
      .optional()
      .meta({ description: `1..${FEED_PAGE_SIZE.max}, default ${FEED_PAGE_SIZE.default}` }),
  })
  .meta({ id: 'ChangesFeedQuery' });
export type FeedQuery = z.input<typeof FeedQuery>;

export const FeedPage = z
  .object({
    data: z.array(ChangeEntry),
    cursor: z.string().meta({
      description: 'Opaque: pass it as since= to read on (also when data is empty: nothing new yet)',
    }),
  })
  .meta({ id: 'ChangesFeedPage' });
export type FeedPage = z.infer<typeof FeedPage>;

/**
 * Server-sent events (text/event-stream): each new entry of your office tree as
 * `id: <entry id>`, `event: change`, `data: <ChangeEntry JSON>`; a comment every 15 s.
 * `Last-Event-ID` (header, or `lastEventId=`) resumes after that entry. `access_token=`
 * stands for the Authorization header (EventSource cannot send headers).
 */
export const StreamQuery = z
  .strictObject({
    access_token: z.string().optional().meta({ description: 'The bearer token, for EventSource' }),
    lastEventId: z.string().max(30).optional().meta({ description: 'Stands for the Last-Event-ID header' }),
    kinds: z.string().max(500).optional().meta({ description: 'Comma-separated kinds; absent: all' }),
  })
  .meta({ id: 'ChangesStreamQuery' });

export const getChanges = endpoint({
  id: 'changes.feed',
  method: 'GET',
  path: CHANGES_FEED_PATH,
  domain: 'changes',
  range: 'standard',
  summary:
    'The change feed for sync: entries after the cursor, oldest first, of the records of your office tree. A record deleted, or moved out of your tree, comes as a tombstone (action deleted, no fields). Sync: take a cursor (since=now), read the lists, then read the feed from that cursor, page after page. 410 changes.cursor.expired: the cursor is older than the retention; read the lists again.',
  errorPrefix: CHANGES,
  query: FeedQuery,
  responses: { 200: FeedPage },
  errors: {
    400: [
      ChangesCodes.cursorInvalid,
      ChangesCodes.kindsInvalid,
      ChangesCodes.limitInvalid,
      ChangesCodes.fieldUnknown,
    ],
    410: [ChangesCodes.cursorExpired],
  },
  extension: true,
});

export const getChangeStream = endpoint({
  id: 'changes.stream',
  method: 'GET',
  path: CHANGES_STREAM_PATH,
  domain: 'changes',
  queryToken: true,
  range: 'low',
  summary:
    'Server-sent events (text/event-stream) of the new entries of your office tree: `id: <entry id>`, `event: change`, `data: <ChangeEntry>`; a `:` comment every 15 s. Last-Event-ID resumes after that entry (410 changes.cursor.expired past the retention). The service ends a stream after 15 minutes: reconnect with Last-Event-ID (EventSource does) and a valid token.',
  errorPrefix: CHANGES,
  query: StreamQuery,
  responses: { 200: z.string().meta({ description: 'text/event-stream' }) },
  errors: {
    400: [ChangesCodes.lastEventIdInvalid, ChangesCodes.kindsInvalid, ChangesCodes.fieldUnknown],
    410: [ChangesCodes.cursorExpired],
  },
  extension: true,
});

export const changesEndpoints = { getChanges, getChangeStream };
