import { type RawBuilder, type Selectable, sql } from 'kysely';
import type { WorkOrderStatus } from '../../../contract/fieldService.ts';
import type { Db } from '../../db/index.ts';
import { inScope, type OfficeScope } from '../../platform/officeScope.ts';
import { upsertRow, type WriteOutcome } from '../../platform/upsert.ts';
import type { FieldServiceTables } from './tables.ts';

export type WorkOrderRow = Selectable<FieldServiceTables['work_orders']> & {
  office_code: string;
  /** Of the work order's type: the schedule's end is scheduled_start plus this. */
  duration_minutes: number;
  type_name: string;
};

export function upsertWorkOrderType(
  db: Db,
  row: { code: string; name: string; duration_minutes: number; skills: string[] },
): Promise<WriteOutcome> {
  return upsertRow(db, 'work_order_types', 'code', { ...row, skills: sql`${row.skills}::text[]` });
}

export async function typeExists(db: Db, code: string): Promise<boolean> {
  return !!(await db
    .selectFrom('work_order_types')
    .select('code')
    .where('code', '=', code)
    .executeTakeFirst());
}

export async function technicianExists(db: Db, code: string): Promise<boolean> {
  return !!(await db.selectFrom('technicians').select('code').where('code', '=', code).executeTakeFirst());
}

/**
 * Every column the import writes; a row already holding these values is left alone. The
 * crew is left out: it is written by scheduling only, and an import keeps it.
 */
export type WorkOrderColumns = Omit<
  Selectable<FieldServiceTables['work_orders']>,
  'id' | 'last_update' | 'scheduled_start' | 'crew_code' | 'tenant_id'
> & { scheduled_start: Date | null };

export function upsertWorkOrder(db: Db, row: WorkOrderColumns): Promise<WriteOutcome> {
  // A uuid is unique in the instance (migration 090), not per tenant.
  return upsertRow(db, 'work_orders', 'uuid', row, ['uuid']);
}

/** The uuids of the live (non-validated) work orders carrying `code`, anywhere. */
export async function liveUuids(db: Db, code: string): Promise<string[]> {
  const rows = await db
    .selectFrom('work_orders')
    .select('uuid')
    .where('code', '=', code)
    .where('status', '<>', 'VALIDATED')
    .limit(2)
    .execute();
  return rows.map((r) => r.uuid);
}

function workOrdersQuery(db: Db, scope: OfficeScope) {
  return db
    .selectFrom('work_orders as w')
    .innerJoin('offices as o', 'o.id', 'w.office_id')
    .innerJoin('work_order_types as t', 't.code', 'w.type_code')
    .selectAll('w')
    .select(['o.code as office_code', 't.duration_minutes', 't.name as type_name'])
    .where(inScope(scope, 'w.office_id'));
}

/** The work order of this uuid in the caller's tree (one statement). */
export function workOrderByUuid(db: Db, scope: OfficeScope, uuid: string): Promise<WorkOrderRow | undefined> {
  return workOrdersQuery(db, scope).where('w.uuid', '=', uuid).executeTakeFirst();
}

/**
 * Work orders of the caller's tree carrying `code`, live ones first, then the most recent
 * validated ones: at most three rows, enough to tell "one live", "several live" and
 * "validated only" apart (one statement).
 */
export function workOrdersByCode(db: Db, scope: OfficeScope, code: string): Promise<WorkOrderRow[]> {
  return workOrdersQuery(db, scope).where('w.code', '=', code).orderBy(NAMED_ORDER).limit(3).execute();
}

/**
 * `workOrdersByCode` and `workOrderByUuid` as a subquery, for a statement that goes on with
 * the work order it finds (a lock, a page of its activities) in the same round trip: the
 * work orders of the caller's tree the reference names (`w` joined to its office `o` and
 * type `t`), `columns` of them plus `n`, their place in findWorkOrder's order (live ones
 * first, then the most recently updated validated ones; three rows at most). `n = 1` is the
 * one named unless two or more rows are live (ambiguous, as findWorkOrder answers).
 */
export function namedWorkOrdersSql(
  scope: OfficeScope,
  ref: { code: string } | { uuid: string },
  columns: RawBuilder<unknown>,
) {
  return sql`SELECT ${columns}, row_number() OVER (ORDER BY ${NAMED_ORDER}) AS n
    FROM work_orders w JOIN offices o ON o.id = w.office_id JOIN work_order_types t ON t.code = w.type_code
    WHERE ${namedWorkOrderWhere(scope, ref)}
    ORDER BY n LIMIT 3`;
}

/** The work orders `w` of the caller's tree a reference names (by code or by uuid). */
export const namedWorkOrderWhere = (scope: OfficeScope, ref: { code: string } | { uuid: string }) =>
  sql`${'code' in ref ? sql`w.code = ${ref.code}` : sql`w.uuid = ${ref.uuid}::uuid`} AND ${inScope(scope, 'w.office_id')}`;

/**
 * findWorkOrder's order of the work orders `w` a reference names: live ones first, then
 * the latest update, then the highest id.
 */
export const NAMED_ORDER = sql`(w.status = 'VALIDATED'), w.last_update DESC, w.id DESC`;

/** A work order type by code: its duration and the skills it needs. */
export function workOrderTypeByCode(db: Db, code: string) {
  return db
    .selectFrom('work_order_types')
    .select(['code', 'name', 'duration_minutes', 'skills'])
    .where('code', '=', code)
    .executeTakeFirst();
}

/* ---------------- work order list (extension) ---------------- */

export interface WorkOrderFilter {
  /** Start of the code (uppercase). */
  prefix?: string;
  statuses?: string[];
  typeCode?: string;
  /** Path of an office of the caller's tree: that office and below. */
  officePath?: string;
  technicianCode?: string;
  /** Keyset position: the code and id of the last row of the previous page. */
  after?: [string, string];
  limit: number;
}

/**
 * A page of work orders of the caller's tree in (code, id) order, fetched with limit + 1. A
 * code prefix is a range of the code index (`code >= prefix AND code < prefix + U+10FFFF`),
 * so a page seeks instead of scanning.
 */
export function workOrderPage(db: Db, scope: OfficeScope, f: WorkOrderFilter): Promise<WorkOrderRow[]> {
  let q = workOrdersQuery(db, scope);
  if (f.prefix) q = q.where('w.code', '>=', f.prefix).where('w.code', '<', `${f.prefix}\u{10FFFF}`);
  if (f.statuses?.length) q = q.where('w.status', 'in', f.statuses as WorkOrderRow['status'][]);
  if (f.typeCode) q = q.where('w.type_code', '=', f.typeCode);
  if (f.officePath) q = q.where(inScope({ ...scope, path: f.officePath }, 'w.office_id'));
  if (f.technicianCode) q = q.where('w.technician_code', '=', f.technicianCode);
  if (f.after) q = q.where(sql<boolean>`(w.code, w.id) > (${f.after[0]}, ${f.after[1]}::bigint)`);
  return q
    .orderBy('w.code')
    .orderBy('w.id')
    .limit(f.limit + 1)
    .execute();
}

/* ---------------- lifecycle ---------------- */

/**
 * Sets VALIDATED unless the work order is validated or cancelled meanwhile (one statement:
 * two concurrent validations validate once). Undefined when nothing was written.
 */
export function markValidated(db: Db, id: string) {
  return db
    .updateTable('work_orders')
    .set({ status: 'VALIDATED', last_update: sql`now()` })
    .where('id', '=', id)
    .where('status', 'not in', ['VALIDATED', 'CANCELLED'])
    .returning(['status', 'last_update'])
    .executeTakeFirst();
}

/** What a deletion takes with it (told to the operator). */
export async function dependentCounts(db: Db, id: string) {
  const { rows } = await sql<{ activities: string; used_items: string }>`
    SELECT (SELECT count(*) FROM activities WHERE work_order_id = ${id}) AS activities,
           (SELECT count(*) FROM used_items WHERE work_order_id = ${id}) AS used_items`.execute(db);
  return { activities: Number(rows[0].activities), usedItems: Number(rows[0].used_items) };
}

/** Deletes the work order; the rows of other tables that reference it cascade. */
export async function deleteWorkOrderRow(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom('work_orders').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/* ---------------- used items ---------------- */

/** A timestamp as a keyset position: RFC 3339 with microseconds, exact (a JS Date keeps milliseconds). */
export const keyText = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export type UsedItemRow = Selectable<FieldServiceTables['used_items']> & { key: string };

/**
 * A page of a work order's used items, lastUpdate descending then usedItemId descending,
 * fetched with limit + 1: the index (work_order_id, last_update DESC, used_item_id DESC) is
 * read from the position on.
 */
export function usedItemPage(
  db: Db,
  workOrderId: string,
  f: { invoiceMode?: 'external' | 'internal'; after?: [string, string]; limit: number },
): Promise<UsedItemRow[]> {
  let q = db
    .selectFrom('used_items as u')
    .selectAll('u')
    .select(keyText('u.last_update').as('key'))
    .where('u.work_order_id', '=', workOrderId);
  if (f.invoiceMode) q = q.where('u.invoice_mode', '=', f.invoiceMode);
  if (f.after)
    q = q.where(sql<boolean>`(u.last_update, u.used_item_id) < (${f.after[0]}::timestamptz, ${f.after[1]})`);
  return q
    .orderBy('u.last_update', 'desc')
    .orderBy('u.used_item_id', 'desc')
    .limit(f.limit + 1)
    .execute();
}

export interface UsedItemSumRow {
  invoice_mode: 'external' | 'internal';
  count: string;
  quantity: string | null;
  amount: string | null;
  unpriced: string;
}

/** Count, quantity, amount and unpriced lines by invoice mode (one aggregate). */
export async function usedItemSums(
  db: Db,
  workOrderId: string,
  invoiceMode?: 'external' | 'internal',
): Promise<UsedItemSumRow[]> {
  const { rows } = await sql<UsedItemSumRow>`
    SELECT invoice_mode, count(*) AS count, sum(quantity) AS quantity,
           sum(round(quantity * unit_price, 2)) AS amount,
           count(*) FILTER (WHERE unit_price IS NULL) AS unpriced
    FROM used_items
    WHERE work_order_id = ${workOrderId}
      ${invoiceMode ? sql`AND invoice_mode = ${invoiceMode}` : sql``}
    GROUP BY invoice_mode`.execute(db);
  return rows;
}

export interface UsedItemWrite {
  used_item_id: string;
  work_order_id: string;
  kind: string;
  item_code: string | null;
  label: string | null;
  quantity: number;
  unit: string | null;
  unit_price: number | null;
  invoice_mode: string;
  serial_number: string | null;
  technician_code: string | null;
  /** ISO instant given by the file, or null: now() when the row is created or changes. */
  last_update: string | null;
}

const USED_ITEM_COLUMNS = [
  'work_order_id',
  'kind',
  'item_code',
  'label',
  'quantity',
  'unit',
  'unit_price',
  'invoice_mode',
  'serial_number',
  'technician_code',
] as const;

/**
 * Upserts used items by usedItemId, many rows a statement (arrays unnested in the database).
 * A row whose columns already hold these values is left alone; `last_update` is the file's
 * when given (and then compared too), else now() on a change.
 */
export async function upsertUsedItems(
  db: Db,
  rows: UsedItemWrite[],
): Promise<{ created: number; updated: number }> {
  const counts = { created: 0, updated: 0 };
  for (const given of [true, false]) {
    const part = rows.filter((r) => (r.last_update !== null) === given);
    for (let i = 0; i < part.length; i += 1000) {
      const chunk = part.slice(i, i + 1000);
      const col = <K extends keyof UsedItemWrite>(k: K) => chunk.map((r) => r[k]);
      const cols = sql.join(USED_ITEM_COLUMNS.map((c) => sql.ref(c)));
      const current = sql.join(USED_ITEM_COLUMNS.map((c) => sql.ref(`u.${c}`)));
      const excluded = sql.join(USED_ITEM_COLUMNS.map((c) => sql.ref(`excluded.${c}`)));
      const { rows: out } = await sql<{ created: boolean }>`
        INSERT INTO used_items AS u (used_item_id, ${cols}, last_update)
        SELECT id, wo, kind, item, label, qty, unit, price, mode, serial, tech, ${given ? sql`lu` : sql`now()`}
        FROM unnest(${col('used_item_id')}::text[], ${col('work_order_id')}::bigint[], ${col('kind')}::text[],
                    ${col('item_code')}::text[], ${col('label')}::text[], ${col('quantity')}::numeric[],
                    ${col('unit')}::text[], ${col('unit_price')}::numeric[], ${col('invoice_mode')}::text[],
                    ${col('serial_number')}::text[], ${col('technician_code')}::text[],
                    ${col('last_update')}::timestamptz[])
          AS t(id, wo, kind, item, label, qty, unit, price, mode, serial, tech, lu)
        ON CONFLICT (tenant_id, used_item_id) DO UPDATE
          SET ${sql.join(USED_ITEM_COLUMNS.map((c) => sql`${sql.ref(c)} = ${sql.ref(`excluded.${c}`)}`))},
              last_update = ${given ? sql`excluded.last_update` : sql`now()`}
          WHERE (${current}${given ? sql`, u.last_update` : sql``})
            IS DISTINCT FROM (${excluded}${given ? sql`, excluded.last_update` : sql``})
        RETURNING (xmax = 0) AS created`.execute(db);
      for (const r of out) counts[r.created ? 'created' : 'updated']++;
    }
  }
  return counts;
}

/** The catalog items among `codes`: their serial number pattern (unknown codes are absent). */
export async function catalogItems(db: Db, codes: string[]) {
  if (codes.length === 0) return new Map<string, string | null>();
  const rows = await db
    .selectFrom('items')
    .select(['code', 'serial_number_pattern'])
    .where('code', 'in', codes)
    .execute();
  return new Map(rows.map((r) => [r.code, r.serial_number_pattern]));
}

/* ---------------- work order types (extension for the planner) ---------------- */

/** Work order types after `after` (keyset by code), for the planner's list. */
export function workOrderTypesAfter(db: Db, after: string | undefined, limit: number) {
  let q = db.selectFrom('work_order_types').select(['code', 'name', 'duration_minutes', 'skills']);
  if (after !== undefined) q = q.where('code', '>', after);
  return q.orderBy('code').limit(limit).execute();
}

/** Scheduling's unschedule: no technician, crew or start, and the status given. */
export async function clearSchedule(db: Db, id: string, status: WorkOrderStatus): Promise<void> {
  await db
    .updateTable('work_orders')
    .set({ technician_code: null, crew_code: null, scheduled_start: null, status, last_update: new Date() })
    .where('id', '=', id)
    .execute();
}

/** Scheduling's write: the work order's schedule (a technician, or a crew's main resource) and the SCHEDULED status. */
export async function writeSchedule(
  db: Db,
  id: string,
  s: { technicianCode: string; crewCode: string | null; start: Date },
): Promise<void> {
  await db
    .updateTable('work_orders')
    .set({
      technician_code: s.technicianCode,
      crew_code: s.crewCode,
      scheduled_start: s.start,
      status: 'SCHEDULED',
      last_update: new Date(),
    })
    .where('id', '=', id)
    .execute();
}
