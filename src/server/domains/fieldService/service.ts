/**
 * Rules of the work order model. Other domains (field tracking, project management,
 * scheduling, diagnostic, webhooks) find work orders through `findWorkOrder`, so the rule
 * "a code names the live work order" lives here only. Also: the used items of a work order
 * (spec endpoint 4), the console's work order reads, and the lifecycle (validate, delete)
 * that the webhooks announce.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '../../../contract/common.ts';
import {
  FieldServiceCodes as C,
  type InvoiceMode,
  isLive,
  listWorkOrders as listWorkOrdersRow,
  listWorkOrderTypes as listWorkOrderTypesRow,
  USED_ITEMS_LIST,
  USED_ITEMS_PAGE_SIZE_DEFAULT,
  type UsedItem,
  type UsedItemsQuery,
  type UsedItemTotals,
  WORK_ORDER_TYPES_PAGE_SIZE,
  WORK_ORDERS_PAGE_SIZE,
  type WorkOrder,
  type WorkOrderListQuery,
  type WorkOrderLocation,
  type WorkOrderStatus,
} from '../../../contract/fieldService.ts';
import { isRecord } from '../../../contract/guards.ts';
import { matchesPattern } from '../../../contract/patterns.ts';
import type { Db } from '../../db/index.ts';
import { type Actor, recordEvent } from '../../events/index.ts';
import { ApiError, badRequest, notFound } from '../../platform/errors.ts';
import { type OfficeScope, officeFilterPath } from '../../platform/officeScope.ts';
import { isString, isTimeAndId, type PageTokens, pageRequest } from '../../platform/pagination.ts';
import { errorCode } from '../../platform/thrown.ts';
import { rfc3339 } from '../../platform/time.ts';
import { writeTransaction } from '../../platform/transactions.ts';
import type { WriteOutcome } from '../../platform/upsert.ts';
import { unknownCodes, unknownSkills } from '../rostering/index.ts';
import {
  catalogItems,
  deleteWorkOrderRow,
  dependentCounts,
  liveUuids,
  markValidated,
  technicianExists,
  typeExists,
  type UsedItemRow,
  upsertUsedItems,
  upsertWorkOrder,
  upsertWorkOrderType,
  usedItemPage,
  usedItemSums,
  type WorkOrderRow,
  workOrderByUuid,
  workOrderPage,
  workOrdersByCode,
  workOrderTypesAfter,
} from './queries.ts';

export type { WorkOrderRow };

/** How a request names a work order: by business code or by uuid. */
export type WorkOrderRef = { code: string } | { uuid: string };

export type WorkOrderLookup =
  | { found: WorkOrderRow }
  /** Several live work orders of the caller's tree carry the code. */
  | { ambiguous: WorkOrderRow[] }
  /** None in the caller's tree: unknown, or outside it (the same answer). */
  | { missing: true };

/**
 * The work order a request means, in the caller's tree. By uuid: that one. By code: the live
 * (non-validated) one; several live ones are ambiguous (each domain answers with its own
 * code); with no live one, the most recently updated validated one.
 */
export async function findWorkOrder(db: Db, scope: OfficeScope, ref: WorkOrderRef): Promise<WorkOrderLookup> {
  if ('uuid' in ref) {
    const row = await workOrderByUuid(db, scope, ref.uuid);
    return row ? { found: row } : { missing: true };
  }
  return lookupOf(await workOrdersByCode(db, scope, ref.code));
}

/** What the rows of `workOrdersByCode` (or of `namedWorkOrdersSql`, in its order) name. */
export function lookupOf(rows: WorkOrderRow[]): WorkOrderLookup {
  const live = rows.filter((r) => isLive(r.status));
  if (live.length > 1) return { ambiguous: live };
  if (rows.length === 0) return { missing: true };
  return { found: rows[0] };
}

/** The end of a work order's schedule: its start plus its type's duration. */
export const scheduledEnd = (row: Pick<WorkOrderRow, 'scheduled_start' | 'duration_minutes'>) =>
  row.scheduled_start ? new Date(row.scheduled_start.getTime() + row.duration_minutes * 60_000) : null;

export async function putWorkOrderType(
  trx: Db,
  t: { workOrderTypeCode: string; name: string; durationMinutes: number; skills?: string[] },
): Promise<WriteOutcome> {
  const skills = [...new Set(t.skills ?? [])].sort();
  const unknown = await unknownSkills(trx, skills);
  if (unknown.length) throw badRequest(C.workOrderTypeSkillUnknown, `Unknown skill ${unknown.join(', ')}`);
  return upsertWorkOrderType(trx, {
    code: t.workOrderTypeCode,
    name: t.name,
    duration_minutes: t.durationMinutes,
    skills,
  });
}

export interface WorkOrderInput {
  uuid?: string;
  workOrderCode: string;
  workOrderTypeCode: string;
  status: WorkOrderStatus;
  officeId: string;
  customerCode?: string | null;
  siteCode?: string | null;
  assetCode?: string | null;
  location?: WorkOrderLocation | null;
  description?: string | null;
  technicianCode?: string | null;
  scheduledStart?: Date | null;
}

/**
 * Creates or replaces a work order (import). Without a uuid, the element names the live
 * work order of its code, and a new one (new uuid) is created when there is none.
 */
export async function putWorkOrder(trx: Db, w: WorkOrderInput): Promise<WriteOutcome> {
  if (!(await typeExists(trx, w.workOrderTypeCode)))
    throw badRequest(C.workOrderTypeUnknown, `Work order type ${w.workOrderTypeCode} is unknown`);
  if (w.technicianCode && !(await technicianExists(trx, w.technicianCode)))
    throw badRequest(C.technicianUnknown, `Technician ${w.technicianCode} is unknown`);
  let uuid = w.uuid;
  if (!uuid) {
    const live = await liveUuids(trx, w.workOrderCode);
    if (live.length > 1)
      throw badRequest(
        C.workOrderAmbiguous,
        `Several live work orders carry ${w.workOrderCode}: give the uuid`,
      );
    uuid = live[0] ?? randomUUID();
  }
  const l = w.location;
  return upsertWorkOrder(trx, {
    uuid,
    code: w.workOrderCode,
    type_code: w.workOrderTypeCode,
    status: w.status,
    office_id: w.officeId,
    customer_code: w.customerCode ?? null,
    site_code: w.siteCode ?? null,
    asset_code: w.assetCode ?? null,
    address: l?.address ?? null,
    zip_code: l?.zipCode ?? null,
    city: l?.city ?? null,
    country: l?.country ?? null,
    latitude: l?.latitude ?? null,
    longitude: l?.longitude ?? null,
    description: w.description ?? null,
    technician_code: w.technicianCode ?? null,
    scheduled_start: w.scheduledStart ?? null,
  });
}

/* ---------------- the work order a request names ---------------- */

/** The work order a fieldService path names, in the caller's tree (404 / 400 ambiguous). */
export async function workOrderOf(db: Db, scope: OfficeScope, ref: WorkOrderRef): Promise<WorkOrderRow> {
  const found = await findWorkOrder(db, scope, ref);
  if ('missing' in found)
    throw notFound(C.workOrderNotFound, 'The work order does not exist in your office tree');
  if ('ambiguous' in found)
    throw badRequest(
      C.workOrderAmbiguous,
      'Several live work orders carry this code: name the work order by its uuid',
    );
  return found.found;
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** The work order as the read and list extensions answer it. */
export function toWorkOrder(r: WorkOrderRow): WorkOrder {
  const end = scheduledEnd(r);
  return {
    uuid: r.uuid,
    workOrderCode: r.code,
    workOrderTypeCode: r.type_code,
    workOrderTypeName: r.type_name,
    status: r.status,
    officeCode: r.office_code,
    customerCode: r.customer_code,
    siteCode: r.site_code,
    assetCode: r.asset_code,
    location: {
      address: r.address,
      zipCode: r.zip_code,
      city: r.city,
      country: r.country,
      latitude: num(r.latitude),
      longitude: num(r.longitude),
    },
    description: r.description,
    schedule: {
      technicianCode: r.technician_code,
      crewCode: r.crew_code,
      scheduledStart: r.scheduled_start ? rfc3339(r.scheduled_start) : null,
      scheduledEnd: end ? rfc3339(end) : null,
      durationMinutes: r.duration_minutes,
    },
    lastUpdate: rfc3339(r.last_update),
  };
}

/** Extension: one work order by code (the live one) or uuid. */
export async function getWorkOrder(db: Db, scope: OfficeScope, ref: WorkOrderRef): Promise<WorkOrder> {
  return toWorkOrder(await workOrderOf(db, scope, ref));
}

const isCodeAndId = (p: unknown): p is [string, string] =>
  Array.isArray(p) &&
  p.length === 2 &&
  typeof p[0] === 'string' &&
  typeof p[1] === 'string' &&
  /^\d+$/.test(p[1]);

/** Extension: work orders of the caller's tree, by code, with the console's filters. */
export async function listWorkOrders(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  query: WorkOrderListQuery,
): Promise<Page<WorkOrder>> {
  const { continuationToken, ...filters } = query;
  const prefix = filters.q?.trim().toUpperCase() || undefined;
  const officePath = await officeFilterPath(db, scope, filters.officeCode, C.officeUnknown);
  const request = pageRequest(
    tokens,
    {
      id: listWorkOrdersRow.id,
      filters: { ...filters, q: prefix ?? null },
      invalidCode: C.continuationTokenInvalid,
      isKey: isCodeAndId,
    },
    continuationToken,
  );
  const rows = await workOrderPage(db, scope, {
    prefix,
    statuses: filters.status,
    typeCode: filters.workOrderTypeCode,
    officePath,
    technicianCode: filters.technicianCode,
    after: request.after,
    limit: WORK_ORDERS_PAGE_SIZE,
  });
  return request.page(rows, WORK_ORDERS_PAGE_SIZE, toWorkOrder, (r) => [r.code, String(r.id)]);
}

/* ---------------- lifecycle: validate and delete (webhooks events) ---------------- */

/** What a lifecycle change did, for the command line. */
export interface LifecycleOutcome {
  workOrderCode: string;
  uuid: string;
  officeCode: string;
  at: string;
  activities?: number;
  usedItems?: number;
}

/**
 * Validates a work order: status VALIDATED, and the event workorder.validation recorded in the
 * same transaction. A cancelled work order, or one validated already, is refused.
 */
export function validateWorkOrder(
  db: Db,
  scope: OfficeScope,
  ref: WorkOrderRef,
  actor: Actor,
): Promise<LifecycleOutcome> {
  return writeTransaction(db, async (trx) => {
    let wo = await workOrderOf(trx, scope, ref);
    const refuse = (status: WorkOrderStatus) => {
      if (status === 'CANCELLED')
        throw badRequest(C.validationCancelled, `Work order ${wo.code} is CANCELLED: it cannot be validated`);
      if (status === 'VALIDATED')
        throw badRequest(C.validationAlreadyValidated, `Work order ${wo.code} is VALIDATED already`);
    };
    refuse(wo.status);
    const written = await markValidated(trx, wo.id);
    if (!written) {
      // Validated, cancelled or deleted by someone else since it was read.
      wo = await workOrderOf(trx, scope, { uuid: wo.uuid });
      refuse(wo.status);
      throw new ApiError(500, 'internal.server.error', 'the work order could not be validated');
    }
    const at = rfc3339(written.last_update);
    await recordEvent(trx, {
      type: 'workorder.validation',
      officeId: String(wo.office_id),
      data: { validatedAt: at, workOrderCode: wo.code, uuid: wo.uuid, officeCode: wo.office_code, actor },
    });
    return { workOrderCode: wo.code, uuid: wo.uuid, officeCode: wo.office_code, at };
  });
}

/** PostgreSQL's foreign_key_violation: a row of another table still refers to the work order. */
const isForeignKeyViolation = (e: unknown) => errorCode(e) === '23503';

/**
 * Deletes a work order and, through ON DELETE CASCADE, what belongs to it: its activities and
 * used items, its diagnostic flags and notes, its project and service order links. The event
 * workorder.deletion is recorded in the same transaction. A table of another domain that
 * refers to work orders without cascading makes the deletion refused, nothing deleted.
 */
export function deleteWorkOrder(
  db: Db,
  scope: OfficeScope,
  ref: WorkOrderRef,
  actor: Actor,
): Promise<LifecycleOutcome> {
  return writeTransaction(db, async (trx) => {
    const wo = await workOrderOf(trx, scope, ref);
    const counts = await dependentCounts(trx, wo.id);
    let deleted: boolean;
    try {
      deleted = await deleteWorkOrderRow(trx, wo.id);
    } catch (e) {
      if (isForeignKeyViolation(e))
        throw badRequest(
          C.deletionReferenced,
          `Work order ${wo.code} is still referred to (${isRecord(e) && typeof e.table === 'string' ? e.table : 'another record'}): nothing was deleted`,
        );
      throw e;
    }
    if (!deleted) throw notFound(C.workOrderNotFound, 'The work order does not exist in your office tree');
    const at = rfc3339(new Date());
    await recordEvent(trx, {
      type: 'workorder.deletion',
      officeId: String(wo.office_id),
      data: { deletedAt: at, workOrderCode: wo.code, uuid: wo.uuid, officeCode: wo.office_code, actor },
    });
    return { workOrderCode: wo.code, uuid: wo.uuid, officeCode: wo.office_code, at, ...counts };
  });
}

/* ---------------- used items (spec endpoint 4) ---------------- */

const money = (v: string | number | null) => (v === null ? null : Math.round(Number(v) * 100) / 100);

function toUsedItem(r: UsedItemRow): UsedItem {
  const quantity = Number(r.quantity);
  const unitPrice = money(r.unit_price);
  return {
    usedItemId: r.used_item_id,
    kind: r.kind,
    itemCode: r.item_code,
    label: r.label,
    quantity,
    unit: r.unit,
    unitPrice,
    amount: unitPrice === null ? null : Math.round(quantity * unitPrice * 100) / 100,
    invoiceMode: r.invoice_mode,
    serialNumber: r.serial_number,
    technicianCode: r.technician_code,
    lastUpdate: rfc3339(r.last_update),
  };
}

const modeOf = (m: InvoiceMode | 'all') => (m === 'all' ? undefined : m);

/**
 * Spec endpoint 4: a page of the work order's used items. The token is bound to the work
 * order (by uuid: the code and uuid companions walk one list) and to invoiceMode; pageSize may
 * change between pages.
 */
export async function listUsedItems(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  ref: WorkOrderRef,
  query: UsedItemsQuery,
): Promise<Page<UsedItem>> {
  const wo = await workOrderOf(db, scope, ref);
  const request = pageRequest(
    tokens,
    {
      id: USED_ITEMS_LIST,
      filters: { workOrder: wo.uuid, invoiceMode: query.invoiceMode },
      invalidCode: C.continuationTokenInvalid,
      isKey: isTimeAndId,
    },
    query.continuationToken,
  );
  const size = query.pageSize ?? USED_ITEMS_PAGE_SIZE_DEFAULT;
  const rows = await usedItemPage(db, wo.id, {
    invoiceMode: modeOf(query.invoiceMode),
    after: request.after,
    limit: size,
  });
  return request.page(rows, size, toUsedItem, (r) => [r.key, r.used_item_id]);
}

/** Extension: count, quantity and amount of the used items, for all and by invoice mode. */
export async function usedItemTotals(
  db: Db,
  scope: OfficeScope,
  ref: WorkOrderRef,
  invoiceMode: InvoiceMode | 'all',
): Promise<UsedItemTotals> {
  const wo = await workOrderOf(db, scope, ref);
  const rows = await usedItemSums(db, wo.id, modeOf(invoiceMode));
  const zero = () => ({ count: 0, quantity: 0, amount: 0, unpricedCount: 0 });
  const totals = { workOrderCode: wo.code, uuid: wo.uuid, all: zero(), external: zero(), internal: zero() };
  for (const r of rows) {
    const sum = {
      count: Number(r.count),
      quantity: Number(r.quantity ?? 0),
      amount: money(r.amount) ?? 0,
      unpricedCount: Number(r.unpriced),
    };
    totals[r.invoice_mode] = sum;
    totals.all.count += sum.count;
    totals.all.quantity += sum.quantity;
    totals.all.amount = Math.round((totals.all.amount + sum.amount) * 100) / 100;
    totals.all.unpricedCount += sum.unpricedCount;
  }
  totals.all.quantity = Math.round(totals.all.quantity * 1000) / 1000;
  return totals;
}

/** An element of the import key `usedItems`, validated by its schema (importers.ts). */
export interface UsedItemInput {
  usedItemId: string;
  workOrderUuid?: string;
  workOrderCode?: string;
  itemCode?: string | null;
  label?: string | null;
  kind: 'part' | 'labour' | 'onTheFly';
  quantity: number;
  unit?: string | null;
  unitPrice?: number | null;
  invoiceMode: InvoiceMode;
  serialNumber?: string | null;
  technicianCode?: string | null;
  lastUpdate?: Date | null;
}

/**
 * The ids of the work orders a file's rows name (by uuid, or by code: the live one), each
 * name resolved once; an unknown or ambiguous name refuses the file, naming the row.
 */
export async function resolveWorkOrders<R extends { workOrderUuid?: string; workOrderCode?: string }>(
  db: Db,
  scope: OfficeScope,
  rows: R[],
  label: (row: R) => string,
  codes: { notFound: string; ambiguous: string },
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const row of rows) {
    const ref: WorkOrderRef = row.workOrderUuid
      ? { uuid: row.workOrderUuid }
      : { code: row.workOrderCode ?? '' };
    const key = refKey(ref);
    if (ids.has(key)) continue;
    const found = await findWorkOrder(db, scope, ref);
    const name = 'uuid' in ref ? ref.uuid : ref.code;
    if ('missing' in found)
      throw badRequest(codes.notFound, `${label(row)}: work order ${name} does not exist`);
    if ('ambiguous' in found)
      throw badRequest(
        codes.ambiguous,
        `${label(row)}: several live work orders carry ${name}: give workOrderUuid`,
      );
    ids.set(key, found.found.id);
  }
  return ids;
}

export const refKey = (ref: WorkOrderRef) => ('uuid' in ref ? `uuid ${ref.uuid}` : `code ${ref.code}`);
export const refOf = (r: { workOrderUuid?: string; workOrderCode?: string }): WorkOrderRef =>
  r.workOrderUuid ? { uuid: r.workOrderUuid } : { code: r.workOrderCode ?? '' };

/**
 * Import key `usedItems`: every name checked first (work orders, catalog items, technicians,
 * serial number patterns), then the rows upserted by usedItemId in batches.
 */
export async function putUsedItems(
  trx: Db,
  scope: OfficeScope,
  rows: UsedItemInput[],
): Promise<{ created: number; updated: number }> {
  const label = (r: UsedItemInput) => `used item ${r.usedItemId}`;
  const workOrders = await resolveWorkOrders(trx, scope, rows, label, {
    notFound: C.workOrderNotFound,
    ambiguous: C.workOrderAmbiguous,
  });
  const items = await catalogItems(trx, [...new Set(rows.flatMap((r) => (r.itemCode ? [r.itemCode] : [])))]);
  for (const r of rows) {
    if (!r.itemCode) continue;
    if (!items.has(r.itemCode))
      throw badRequest(C.usedItemItemUnknown, `${label(r)}: item ${r.itemCode} is not in the catalog`);
    const pattern = items.get(r.itemCode);
    if (pattern && r.serialNumber && !matchesPattern(pattern, r.serialNumber))
      throw badRequest(
        C.usedItemSerialNumberInvalid,
        `${label(r)}: serial number ${r.serialNumber} does not match the pattern of item ${r.itemCode} (${pattern})`,
      );
  }
  const technicians = [...new Set(rows.flatMap((r) => (r.technicianCode ? [r.technicianCode] : [])))];
  const unknown = await unknownCodes(trx, 'technicians', technicians);
  if (unknown.length) {
    const first = rows.find((r) => r.technicianCode === unknown[0]) as UsedItemInput;
    throw badRequest(C.technicianUnknown, `${label(first)}: technician ${unknown.join(', ')} is unknown`);
  }
  return upsertUsedItems(
    trx,
    rows.map((r) => ({
      used_item_id: r.usedItemId,
      work_order_id: workOrders.get(refKey(refOf(r))) as string,
      kind: r.kind,
      item_code: r.itemCode ?? null,
      label: r.label ?? null,
      quantity: r.quantity,
      unit: r.unit ?? null,
      unit_price: r.unitPrice ?? null,
      invoice_mode: r.invoiceMode,
      serial_number: r.serialNumber ?? null,
      technician_code: r.technicianCode ?? null,
      last_update: r.lastUpdate ? r.lastUpdate.toISOString() : null,
    })),
  );
}

/** Extension: the work order types with what they need (duration, skills), by code. */
export async function listWorkOrderTypes(db: Db, tokens: PageTokens, continuationToken?: string) {
  const request = pageRequest(
    tokens,
    { id: listWorkOrderTypesRow.id, invalidCode: C.continuationTokenInvalid, isKey: isString },
    continuationToken,
  );
  const rows = await workOrderTypesAfter(db, request.after, WORK_ORDER_TYPES_PAGE_SIZE + 1);
  return request.page(
    rows,
    WORK_ORDER_TYPES_PAGE_SIZE,
    (t) => ({
      workOrderTypeCode: t.code,
      name: t.name,
      durationMinutes: t.duration_minutes,
      skills: [...t.skills].sort(),
    }),
    (t) => t.code,
  );
}
