/**
 * Rules of the work order model. Other domains (field tracking, project management,
 * scheduling, diagnostic, webhooks) find work orders through `findWorkOrder`, so the rule
 * "a code names the live work order" lives here only.
 */
import { randomUUID } from 'node:crypto';
import {
  isLive,
  listWorkOrderTypes as listWorkOrderTypesRow,
  WORK_ORDER_TYPES_PAGE_SIZE,
  type WorkOrderLocation,
  type WorkOrderStatus,
  WorkOrderTypeCodes,
} from '../../../contract/fieldService.ts';
import type { Db } from '../../db/index.ts';
import { badRequest } from '../../platform/errors.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import { isString, type PageTokens, pageRequest } from '../../platform/pagination.ts';
import type { WriteOutcome } from '../../platform/upsert.ts';
import { unknownSkills } from '../rostering/queries.ts';
import {
  liveUuids,
  technicianExists,
  typeExists,
  upsertWorkOrder,
  upsertWorkOrderType,
  type WorkOrderRow,
  workOrderByUuid,
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
  const rows = await workOrdersByCode(db, scope, ref.code);
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
  if (unknown.length)
    throw badRequest('fieldservice.workordertype.skill.unknown', `Unknown skill ${unknown.join(', ')}`);
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
    throw badRequest(
      'fieldservice.workordertype.unknown',
      `Work order type ${w.workOrderTypeCode} is unknown`,
    );
  if (w.technicianCode && !(await technicianExists(trx, w.technicianCode)))
    throw badRequest('fieldservice.technician.unknown', `Technician ${w.technicianCode} is unknown`);
  let uuid = w.uuid;
  if (!uuid) {
    const live = await liveUuids(trx, w.workOrderCode);
    if (live.length > 1)
      throw badRequest(
        'fieldservice.workorder.code.ambiguous',
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

/** Extension: the work order types with what they need (duration, skills), by code. */
export async function listWorkOrderTypes(db: Db, tokens: PageTokens, continuationToken?: string) {
  const request = pageRequest(
    tokens,
    {
      id: listWorkOrderTypesRow.id,
      invalidCode: WorkOrderTypeCodes.continuationTokenInvalid,
      isKey: isString,
    },
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
