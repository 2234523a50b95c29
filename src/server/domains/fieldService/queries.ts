import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { inScope, type OfficeScope } from '../../platform/officeScope.ts';
import { upsertRow, type WriteOutcome } from '../../platform/upsert.ts';
import type { FieldServiceTables } from './tables.ts';

export type WorkOrderRow = Selectable<FieldServiceTables['work_orders']> & {
  office_code: string;
  /** Of the work order's type: the schedule's end is scheduled_start plus this. */
  duration_minutes: number;
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

/** Every column the import writes; a row already holding these values is left alone. */
export type WorkOrderColumns = Omit<
  Selectable<FieldServiceTables['work_orders']>,
  'id' | 'last_update' | 'scheduled_start'
> & { scheduled_start: Date | null };

export function upsertWorkOrder(db: Db, row: WorkOrderColumns): Promise<WriteOutcome> {
  return upsertRow(db, 'work_orders', 'uuid', row);
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
    .select(['o.code as office_code', 't.duration_minutes'])
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
  return workOrdersQuery(db, scope)
    .where('w.code', '=', code)
    .orderBy(sql`(w.status = 'VALIDATED')`)
    .orderBy('w.last_update', 'desc')
    .orderBy('w.id', 'desc')
    .limit(3)
    .execute();
}

/** A work order type by code: its duration and the skills it needs. */
export function workOrderTypeByCode(db: Db, code: string) {
  return db
    .selectFrom('work_order_types')
    .select(['code', 'name', 'duration_minutes', 'skills'])
    .where('code', '=', code)
    .executeTakeFirst();
}

/** Work order types after `after` (keyset by code), for the planner's list. */
export function workOrderTypesAfter(db: Db, after: string | undefined, limit: number) {
  let q = db.selectFrom('work_order_types').select(['code', 'name', 'duration_minutes', 'skills']);
  if (after !== undefined) q = q.where('code', '>', after);
  return q.orderBy('code').limit(limit).execute();
}
