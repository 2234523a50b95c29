/**
 * The order of a container's entries (a project's jobs, a service order's work orders): an
 * order key (`rank`) per entry. An entry placed between two others takes the middle of their
 * keys; when they touch, the container is renumbered (keys 65,536 apart) in one statement.
 * Positions are counted in key order, so removing an entry never leaves a gap. Callers hold
 * the container's row lock, so two placements never compute the same key. In a project, an
 * entry placed after every other takes a key from a sequence instead (`lastKeySql`), so a
 * move last needs neither the other keys nor the lock.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

export const RANK_STEP = 65_536;
/** More entries than any container holds (a project's import takes 20,000 jobs at most). */
const MAX_ENTRIES = 10_000_000;
/** Keys stay exact as JavaScript numbers; past this the container is renumbered. */
export const RANK_LIMIT = 2 ** 52;

/**
 * A fresh key for a project's job placed after every other (051_project_last_keys.sql):
 * above every key renumbered or imported (below 2^40), and above every key drawn before.
 */
export const lastKeySql = sql<string>`(${2 ** 40}::bigint + nextval('project_job_last_keys') * 4096)`;

/** The two tables that hold ordered entries, by container. */
export interface OrderedTable {
  table: 'project_jobs' | 'service_order_work_orders';
  container: 'project_id' | 'service_order_id';
  /** A column naming one entry (for the renumbering). */
  key: 'id' | 'work_order_id';
  /** The key of an entry placed after every other, when not the highest key plus a step. */
  lastKey?: typeof lastKeySql;
}
export const PROJECT_ORDER: OrderedTable = {
  table: 'project_jobs',
  container: 'project_id',
  key: 'id',
  lastKey: lastKeySql,
};
export const SERVICE_ORDER_ORDER: OrderedTable = {
  table: 'service_order_work_orders',
  container: 'service_order_id',
  key: 'work_order_id',
};

/**
 * Where the entry goes, among the container's entries other than the work order placed:
 * `index` is the zero-based place it takes (past the end: last); `before`/`after` give the
 * order key of the entry it goes next to.
 */
export type Placement =
  | { mode: 'first' }
  | { mode: 'last' }
  | { mode: 'index'; position: number }
  | { mode: 'before'; rank: string }
  | { mode: 'after'; rank: string };

/** A key strictly between `prev` and `next` (either may be open), or undefined when they touch. */
export function keyBetween(prev: number | undefined, next: number | undefined): number | undefined {
  let key: number;
  if (prev === undefined && next === undefined) key = 0;
  else if (prev === undefined) key = (next as number) - RANK_STEP;
  else if (next === undefined) key = prev + RANK_STEP;
  else if (next - prev >= 2) key = prev + Math.floor((next - prev) / 2);
  else return undefined;
  return Math.abs(key) < RANK_LIMIT ? key : undefined;
}

async function neighbours(
  db: Db,
  t: OrderedTable,
  containerId: string,
  workOrderId: string,
  placement: Placement,
): Promise<[number | undefined, number | undefined]> {
  const others = sql`${sql.ref(t.container)} = ${containerId} AND work_order_id IS DISTINCT FROM ${workOrderId}::bigint`;
  const table = sql.table(t.table);
  const one = async (query: ReturnType<typeof sql<{ rank: string | null }>>) => {
    const { rows } = await query.execute(db);
    return rows[0]?.rank == null ? undefined : Number(rows[0].rank);
  };
  switch (placement.mode) {
    case 'first':
      return [undefined, await one(sql`SELECT min(rank)::text AS rank FROM ${table} WHERE ${others}`)];
    case 'last':
      return [await one(sql`SELECT max(rank)::text AS rank FROM ${table} WHERE ${others}`), undefined];
    case 'index': {
      if (placement.position === 0) return neighbours(db, t, containerId, workOrderId, { mode: 'first' });
      // Past any container's size (and beyond what OFFSET takes): last.
      if (placement.position > MAX_ENTRIES)
        return neighbours(db, t, containerId, workOrderId, { mode: 'last' });
      // Positions are what the caller means: a place among the entries, hence OFFSET here.
      const { rows } = await sql<{ rank: string }>`
        SELECT rank FROM ${table} WHERE ${others}
        ORDER BY rank OFFSET ${placement.position - 1} LIMIT 2`.execute(db);
      if (rows.length === 0) return neighbours(db, t, containerId, workOrderId, { mode: 'last' });
      return [Number(rows[0].rank), rows[1] ? Number(rows[1].rank) : undefined];
    }
    case 'before':
      return [
        await one(
          sql`SELECT max(rank)::text AS rank FROM ${table} WHERE ${others} AND rank < ${placement.rank}::bigint`,
        ),
        Number(placement.rank),
      ];
    case 'after':
      return [
        Number(placement.rank),
        await one(
          sql`SELECT min(rank)::text AS rank FROM ${table} WHERE ${others} AND rank > ${placement.rank}::bigint`,
        ),
      ];
  }
}

/**
 * The same free key as `keyBetween` over the same neighbours as `neighbours`, computed in
 * the database: a one-row query of `key`, NULL when the neighbours touch (the caller then
 * falls back to `rankFor`, which renumbers). A write statement takes it as a subquery, so
 * a placement reads its neighbours and writes in one round trip while the container's lock
 * is held, instead of two.
 */
export function freeKeySql(t: OrderedTable, containerId: string, workOrderId: string, placement: Placement) {
  const others = sql`${sql.ref(t.container)} = ${containerId}::bigint AND work_order_id IS DISTINCT FROM ${workOrderId}::bigint`;
  const table = sql.table(t.table);
  const max = sql`(SELECT max(rank) FROM ${table} WHERE ${others})`;
  const min = sql`(SELECT min(rank) FROM ${table} WHERE ${others})`;
  let p = placement;
  if (p.mode === 'index' && p.position === 0) p = { mode: 'first' };
  if (p.mode === 'index' && p.position > MAX_ENTRIES) p = { mode: 'last' };
  let neighbours: ReturnType<typeof sql>;
  switch (p.mode) {
    case 'first':
      neighbours = sql`SELECT NULL::bigint AS prev, ${min} AS next`;
      break;
    case 'last':
      neighbours = sql`SELECT ${max} AS prev, NULL::bigint AS next`;
      break;
    case 'index': {
      // The entry at position - 1 and the one after it; none there: last.
      const at = (offset: number) =>
        sql`(SELECT rank FROM ${table} WHERE ${others} ORDER BY rank OFFSET ${offset} LIMIT 1)`;
      neighbours = sql`SELECT coalesce(a.prev, ${max}) AS prev, CASE WHEN a.prev IS NULL THEN NULL ELSE a.next END AS next
        FROM (SELECT ${at(p.position - 1)} AS prev, ${at(p.position)} AS next) a`;
      break;
    }
    case 'before':
      neighbours = sql`SELECT (SELECT max(rank) FROM ${table} WHERE ${others} AND rank < ${p.rank}::bigint) AS prev,
        ${p.rank}::bigint AS next`;
      break;
    case 'after':
      neighbours = sql`SELECT ${p.rank}::bigint AS prev,
        (SELECT min(rank) FROM ${table} WHERE ${others} AND rank > ${p.rank}::bigint) AS next`;
      break;
  }
  return sql<{ key: string | null }>`SELECT CASE WHEN abs(k.key) < ${RANK_LIMIT}::bigint THEN k.key END AS key
    FROM (SELECT CASE
      WHEN n.prev IS NULL AND n.next IS NULL THEN 0::bigint
      WHEN n.prev IS NULL THEN n.next - ${RANK_STEP}
      WHEN n.next IS NULL THEN ${t.lastKey ?? sql`n.prev + ${RANK_STEP}`}
      WHEN n.next - n.prev >= 2 THEN n.prev + (n.next - n.prev) / 2
    END AS key FROM (${neighbours}) n) k`;
}

/** Renumbers a container's keys 65,536 apart, in their order; returns the old-to-new key map. */
async function renumber(db: Db, t: OrderedTable, containerId: string): Promise<Map<string, string>> {
  const { rows } = await sql<{ old: string; new: string }>`
    WITH numbered AS (
      SELECT ${sql.ref(t.key)} AS k, rank AS old, row_number() OVER (ORDER BY rank) * ${RANK_STEP} AS new
      FROM ${sql.table(t.table)} WHERE ${sql.ref(t.container)} = ${containerId}
    )
    UPDATE ${sql.table(t.table)} AS e SET rank = n.new FROM numbered n
    WHERE e.${sql.ref(t.key)} = n.k AND e.${sql.ref(t.container)} = ${containerId}
    RETURNING n.old::text AS old, n.new::text AS new`.execute(db);
  return new Map(rows.map((r) => [r.old, r.new]));
}

/**
 * The order key for the work order `workOrderId` placed in the container: a free key at the
 * requested place, ignoring the work order's own current entry (a move).
 */
export async function rankFor(
  db: Db,
  t: OrderedTable,
  containerId: string,
  workOrderId: string,
  placement: Placement,
): Promise<string> {
  const [prev, next] = await neighbours(db, t, containerId, workOrderId, placement);
  const key = keyBetween(prev, next);
  if (key !== undefined) return String(key);
  const moved = await renumber(db, t, containerId);
  const again: Placement =
    placement.mode === 'before' || placement.mode === 'after'
      ? { ...placement, rank: moved.get(placement.rank) ?? placement.rank }
      : placement;
  const [p2, n2] = await neighbours(db, t, containerId, workOrderId, again);
  const key2 = keyBetween(p2, n2);
  if (key2 === undefined) throw new Error(`no free order key in ${t.table} ${containerId} after renumbering`);
  return String(key2);
}
