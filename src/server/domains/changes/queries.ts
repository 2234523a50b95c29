/**
 * SQL of the change log. Entries are read by tenant and id (the primary key), up to the
 * log's horizon: every id up to it is visible (migration 103), so "the entries after N up
 * to the horizon" never misses one committed later with a smaller id. The office tree is
 * the caller's, in SQL.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

/** An entry with what scoping and answering it need: its office's code and path. */
export interface EntryRow {
  id: string;
  kind: string;
  code: string;
  uuid: string | null;
  action: string;
  actor: { type: string; identifier: string };
  at: Date | string;
  fields: { name: string; before: unknown; after: unknown }[];
  office_code: string | null;
  /** null for the catalog (the whole tenant reads it). */
  office_path: string | null;
  /** The path of the office the record left (a move), else null. */
  previous_path: string | null;
}

const ENTRY_COLUMNS = sql`c.id::text AS id, c.kind, c.code, c.uuid::text AS uuid, c.action, c.actor, c.at,
  c.fields, o.code AS office_code, o.path AS office_path, p.path AS previous_path`;

/**
 * The log's horizon (every entry id up to it is visible or never will be) and the tenant's
 * last id pruned ('0' when none was). Not in a transaction: the horizon's lock is the
 * statement's, and writers wait while it is held.
 */
export async function counters(db: Db, tenant: string): Promise<{ last: string; prunedThrough: string }> {
  const { rows } = await sql<{ last: string; pruned_through: string }>`
    SELECT change_horizon()::text AS last,
      coalesce((SELECT pruned_through FROM change_counters WHERE tenant_id = ${tenant}::bigint), 0)::text
        AS pruned_through`.execute(db);
  return { last: rows[0]?.last ?? '0', prunedThrough: rows[0]?.pruned_through ?? '0' };
}

/**
 * Up to `limit` entries of the tenant with `after < id <= through`, oldest first, of the
 * records in the tree of `path` (or that left it: the caller's tombstones), of `kinds`.
 */
export async function entriesAfter(
  db: Db,
  q: {
    tenant: string;
    path: string;
    after: string;
    through: string;
    kinds: readonly string[];
    limit: number;
  },
): Promise<EntryRow[]> {
  const under = `${q.path}%`;
  const { rows } = await sql<EntryRow>`
    SELECT ${ENTRY_COLUMNS}
    FROM changes c
    LEFT JOIN offices o ON o.id = c.office_id
    LEFT JOIN offices p ON p.id = c.previous_office_id
    WHERE c.tenant_id = ${q.tenant}::bigint AND c.id > ${q.after}::bigint AND c.id <= ${q.through}::bigint
      AND c.kind IN (${sql.join(q.kinds)})
      AND (c.office_id IS NULL OR o.path LIKE ${under} OR p.path LIKE ${under})
    ORDER BY c.id
    LIMIT ${q.limit}`.execute(db);
  return rows;
}

/** A record's entries, newest first, before the id `before` (keyset), of one actor if given. */
export async function recordEntries(
  db: Db,
  q: {
    tenant: string;
    kind: string;
    code: string;
    uuid: string | undefined;
    before: string | undefined;
    actor: string | undefined;
    limit: number;
  },
): Promise<EntryRow[]> {
  const { rows } = await sql<EntryRow>`
    SELECT ${ENTRY_COLUMNS}
    FROM changes c
    LEFT JOIN offices o ON o.id = c.office_id
    LEFT JOIN offices p ON p.id = c.previous_office_id
    WHERE c.tenant_id = ${q.tenant}::bigint AND c.kind = ${q.kind} AND hashtextextended(c.code, 0) = hashtextextended(${q.code}, 0)
      AND c.code = ${q.code}
      ${q.uuid === undefined ? sql`` : sql`AND c.uuid = ${q.uuid}::uuid`}
      ${q.before === undefined ? sql`` : sql`AND c.id < ${q.before}::bigint`}
      ${q.actor === undefined ? sql`` : sql`AND c.actor ->> 'identifier' = ${q.actor}`}
    ORDER BY c.id DESC
    LIMIT ${q.limit}`.execute(db);
  return rows;
}

/**
 * Deletes up to `batch` entries older than `cutoff` (every tenant: the owner's handle),
 * and moves each tenant's `pruned_through` past them. Returns how many went. Each tenant's
 * oldest entries by id, through the primary key (the log has no index on its time,
 * migration 105), up to the first one still kept: nothing remains below `pruned_through`,
 * where a cursor is refused. Ids follow commit order and times the transactions' starts,
 * so an entry that expired after a later one waits for the next run.
 */
export async function pruneBatch(db: Db, cutoff: Date, batch: number): Promise<number> {
  const { rows } = await sql<{ pruned: number }>`
    WITH RECURSIVE tenants(id) AS (
      SELECT min(tenant_id) FROM changes
      UNION ALL
      SELECT (SELECT min(tenant_id) FROM changes WHERE tenant_id > t.id) FROM tenants t WHERE t.id IS NOT NULL
    ), doomed AS (
      SELECT c.tenant_id, c.id FROM tenants t
      CROSS JOIN LATERAL (
        SELECT tenant_id, id, bool_and(at < ${cutoff}) OVER (ORDER BY id) AS expired
        FROM (SELECT tenant_id, id, at FROM changes WHERE tenant_id = t.id ORDER BY id LIMIT ${batch}) oldest
      ) c
      WHERE c.expired
      LIMIT ${batch}
    ), gone AS (
      DELETE FROM changes c USING doomed d WHERE c.tenant_id = d.tenant_id AND c.id = d.id
      RETURNING c.tenant_id, c.id
    ), marked AS (
      INSERT INTO change_counters AS k (tenant_id, pruned_through)
      SELECT tenant_id, max(id) FROM gone GROUP BY tenant_id
      ON CONFLICT (tenant_id) DO UPDATE SET pruned_through = greatest(k.pruned_through, excluded.pruned_through)
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM gone)::int AS pruned`.execute(db);
  return rows[0]?.pruned ?? 0;
}

/** Tells the processes listening on `channel` that this one (`sender`) committed changes (signal.ts). */
export async function notifyCommitted(db: Db, channel: string, sender: string): Promise<void> {
  await sql`SELECT pg_notify(${channel}, ${sender})`.execute(db);
}
