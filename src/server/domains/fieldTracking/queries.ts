import { type RawBuilder, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import { upsertRow, type WriteOutcome } from '../../platform/upsert.ts';
import { keyText, NAMED_ORDER, namedWorkOrderWhere } from '../fieldService/index.ts';
import type { FieldTrackingTables } from './tables.ts';

export function upsertActivityType(db: Db, row: { code: string; name: string }): Promise<WriteOutcome> {
  return upsertRow(db, 'activity_types', 'code', row);
}

/** Codes among `codes` that name no activity type. */
export async function unknownActivityTypes(db: Db, codes: string[]): Promise<string[]> {
  if (codes.length === 0) return [];
  const { rows } = await sql<{ code: string }>`
    SELECT c AS code FROM unnest(${codes}::text[]) AS c
    WHERE NOT EXISTS (SELECT 1 FROM activity_types t WHERE t.code = c)`.execute(db);
  return rows.map((r) => r.code);
}

export function activityTypesAfter(db: Db, after: string | undefined, limit: number) {
  let q = db.selectFrom('activity_types').select(['code', 'name']);
  if (after !== undefined) q = q.where('code', '>', after);
  return q.orderBy('code').limit(limit).execute();
}

/* ---------------- activities ---------------- */

export interface ActivityFilter {
  /** true: validated only; false: not validated only. */
  validated?: boolean;
  /** true: billable only; false: not billable only. */
  billable?: boolean;
}

const activityWhere = (
  workOrderId: string | RawBuilder<unknown>,
  f: ActivityFilter,
) => sql`a.work_order_id = ${workOrderId}
  ${f.validated === undefined ? sql`` : f.validated ? sql`AND a.validated_at IS NOT NULL` : sql`AND a.validated_at IS NULL`}
  ${f.billable === undefined ? sql`` : f.billable ? sql`AND a.billable` : sql`AND NOT a.billable`}`;

export type ActivityRow = Selectable<FieldTrackingTables['activities']> & { key: string };

/**
 * A page of a work order's activities in (start_time, activity_id) order, fetched with
 * limit + 1. The index (work_order_id, start_time, activity_id) is read from the position on.
 */
export async function activityPage(
  db: Db,
  workOrderId: string,
  f: ActivityFilter & { after?: [string, string]; limit: number },
): Promise<ActivityRow[]> {
  const { rows } = await sql<ActivityRow>`
    SELECT a.*, ${keyText('a.start_time')} AS key
    FROM activities a
    WHERE ${activityWhere(workOrderId, f)}
      ${f.after ? sql`AND (a.start_time, a.activity_id) > (${f.after[0]}::timestamptz, ${f.after[1]})` : sql``}
    ORDER BY a.start_time, a.activity_id
    LIMIT ${f.limit + 1}`.execute(db);
  return rows;
}

/** A first page row: the work order named (one row with null activity columns when it has none). */
export type FirstPageRow = { [K in keyof ActivityRow]: ActivityRow[K] | null } & {
  wo_id: string;
  wo_uuid: string;
  /** Live work orders among those carrying the code (two or more: ambiguous, no activity read). */
  live: number;
};

/**
 * The work order a path names and the first page of its activities, in one statement
 * (instead of the work order's lookup, then the page). The work order is the one
 * `findWorkOrder` (fieldService) names: among the (at most 3) work orders carrying the
 * code in the caller's tree, live ones first, then the latest update, then the highest id
 * (`NAMED_ORDER`); several live: ambiguous (`live` > 1, no activity read).
 * No row: no such work order in the caller's tree.
 *
 * Written lean rather than on `namedWorkOrdersSql`: no join to offices and types (their
 * foreign keys make them filter nothing), no CTE and no row numbers; the live count is a
 * window over every work order carrying the code (two live or more among them is two live
 * or more among the first 3, live ones coming first). On PGlite each plan node and each
 * sequential scan (a file size lookup) costs, and this read is the whole cost of the page
 * (a third less CPU than the CTE form).
 */
export async function activityFirstPage(
  db: Db,
  scope: OfficeScope,
  ref: { code: string } | { uuid: string },
  f: ActivityFilter & { limit: number },
): Promise<FirstPageRow[]> {
  const { rows } = await sql<FirstPageRow>`
    SELECT w.id AS wo_id, w.uuid AS wo_uuid, w.live, a.*
    FROM (
      SELECT w.id, w.uuid, (count(*) FILTER (WHERE w.status <> 'VALIDATED') OVER ())::int AS live
      FROM work_orders w
      WHERE ${namedWorkOrderWhere(scope, ref)}
      ORDER BY ${NAMED_ORDER} LIMIT 1
    ) w LEFT JOIN LATERAL (
      SELECT a.*, ${keyText('a.start_time')} AS key
      FROM activities a
      WHERE ${activityWhere(sql`w.id`, f)}
      ORDER BY a.start_time, a.activity_id
      LIMIT ${f.limit + 1}
    ) a ON w.live < 2`.execute(db);
  return rows;
}

export interface ActivitySumRow {
  count: string;
  seconds: string | null;
  billable_count: string;
  billable_seconds: string | null;
  validated_count: string;
  first_start: Date | null;
  last_end: Date | null;
}

/** Counts and summed durations of the activities matching the filters (one aggregate). */
export async function activitySums(db: Db, workOrderId: string, f: ActivityFilter): Promise<ActivitySumRow> {
  const seconds = sql`extract(epoch FROM a.end_time - a.start_time)`;
  const { rows } = await sql<ActivitySumRow>`
    SELECT count(*) AS count,
           sum(${seconds}) AS seconds,
           count(*) FILTER (WHERE a.billable) AS billable_count,
           sum(${seconds}) FILTER (WHERE a.billable) AS billable_seconds,
           count(*) FILTER (WHERE a.validated_at IS NOT NULL) AS validated_count,
           min(a.start_time) AS first_start,
           max(a.end_time) AS last_end
    FROM activities a
    WHERE ${activityWhere(workOrderId, f)}`.execute(db);
  return rows[0];
}

export interface ActivityWrite {
  activity_id: string;
  work_order_id: string;
  type_code: string;
  agent_code: string;
  start_time: string;
  end_time: string;
  billable: boolean;
  validated_at: string | null;
}

const ACTIVITY_COLUMNS = [
  'work_order_id',
  'type_code',
  'agent_code',
  'start_time',
  'end_time',
  'billable',
  'validated_at',
] as const;

/** Counts what an `INSERT ... ON CONFLICT ... RETURNING (xmax = 0) AS created` wrote. */
function count(rows: { created: boolean }[], into: { created: number; updated: number }) {
  for (const r of rows) into[r.created ? 'created' : 'updated']++;
}

/**
 * Upserts activities by activityId, 1000 rows a statement (arrays unnested in the database);
 * a row already holding these values is left alone, last_update included.
 */
export async function upsertActivities(db: Db, rows: ActivityWrite[]) {
  const counts = { created: 0, updated: 0 };
  const current = sql.join(ACTIVITY_COLUMNS.map((c) => sql.ref(`a.${c}`)));
  const excluded = sql.join(ACTIVITY_COLUMNS.map((c) => sql.ref(`excluded.${c}`)));
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    const col = <K extends keyof ActivityWrite>(k: K) => chunk.map((r) => r[k]);
    const { rows: out } = await sql<{ created: boolean }>`
      INSERT INTO activities AS a (activity_id, ${sql.join(ACTIVITY_COLUMNS.map((c) => sql.ref(c)))})
      SELECT * FROM unnest(${col('activity_id')}::text[], ${col('work_order_id')}::bigint[],
                           ${col('type_code')}::text[], ${col('agent_code')}::text[],
                           ${col('start_time')}::timestamptz[], ${col('end_time')}::timestamptz[],
                           ${col('billable')}::boolean[], ${col('validated_at')}::timestamptz[])
      ON CONFLICT (tenant_id, activity_id) DO UPDATE
        SET ${sql.join(ACTIVITY_COLUMNS.map((c) => sql`${sql.ref(c)} = ${sql.ref(`excluded.${c}`)}`))},
            last_update = now()
        WHERE (${current}) IS DISTINCT FROM (${excluded})
      RETURNING (xmax = 0) AS created`.execute(db);
    count(out, counts);
  }
  return counts;
}

/* ---------------- positions ---------------- */

export type PositionRow = Selectable<FieldTrackingTables['technician_positions']> & { key: string };

/**
 * A page of a technician's positions in timestamp order within [start, end), fetched with
 * limit + 1: the primary key (technician_code, recorded_at) is read from the position on.
 */
export async function positionPage(
  db: Db,
  technicianCode: string,
  f: { start?: Date; end?: Date; after?: string; limit: number },
): Promise<PositionRow[]> {
  const { rows } = await sql<PositionRow>`
    SELECT p.*, ${keyText('p.recorded_at')} AS key
    FROM technician_positions p
    WHERE p.technician_code = ${technicianCode}
      ${f.start ? sql`AND p.recorded_at >= ${f.start.toISOString()}::timestamptz` : sql``}
      ${f.end ? sql`AND p.recorded_at < ${f.end.toISOString()}::timestamptz` : sql``}
      ${f.after ? sql`AND p.recorded_at > ${f.after}::timestamptz` : sql``}
    ORDER BY p.recorded_at
    LIMIT ${f.limit + 1}`.execute(db);
  return rows;
}

/** The first and last instants of a technician's positions (null, null: none), off the primary key. */
export async function positionBounds(
  db: Db,
  technicianCode: string,
): Promise<{ first: Date | string | null; last: Date | string | null }> {
  const { rows } = await sql<{ first: Date | string | null; last: Date | string | null }>`
    SELECT min(p.recorded_at) AS first, max(p.recorded_at) AS last
    FROM technician_positions p
    WHERE p.technician_code = ${technicianCode}`.execute(db);
  return rows[0] ?? { first: null, last: null };
}

export interface PositionWrite {
  technician_code: string;
  recorded_at: string;
  latitude: number;
  longitude: number;
  accuracy: number | null;
  speed: number | null;
  heading: number | null;
}

const POSITION_COLUMNS = ['latitude', 'longitude', 'accuracy', 'speed', 'heading'] as const;

/** Upserts positions by (technician, timestamp), 1000 rows a statement. */
export async function upsertPositions(db: Db, rows: PositionWrite[]) {
  const counts = { created: 0, updated: 0 };
  const current = sql.join(POSITION_COLUMNS.map((c) => sql.ref(`p.${c}`)));
  const excluded = sql.join(POSITION_COLUMNS.map((c) => sql.ref(`excluded.${c}`)));
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    const col = <K extends keyof PositionWrite>(k: K) => chunk.map((r) => r[k]);
    const { rows: out } = await sql<{ created: boolean }>`
      INSERT INTO technician_positions AS p (technician_code, recorded_at, ${sql.join(POSITION_COLUMNS.map((c) => sql.ref(c)))})
      SELECT * FROM unnest(${col('technician_code')}::text[], ${col('recorded_at')}::timestamptz[],
                           ${col('latitude')}::float8[], ${col('longitude')}::float8[],
                           ${col('accuracy')}::float4[], ${col('speed')}::float4[], ${col('heading')}::float4[])
      ON CONFLICT (tenant_id, technician_code, recorded_at) DO UPDATE
        SET ${sql.join(POSITION_COLUMNS.map((c) => sql`${sql.ref(c)} = ${sql.ref(`excluded.${c}`)}`))}
        WHERE (${current}) IS DISTINCT FROM (${excluded})
      RETURNING (xmax = 0) AS created`.execute(db);
    count(out, counts);
  }
  return counts;
}
