/**
 * Rules of field tracking: a work order's activities (spec endpoints 2-3) and their totals,
 * a technician's positions (spec endpoint 1), and the import keys activityTypes, activities
 * and positions.
 */
import type { Page } from '../../../contract/common.ts';
import {
  ACTIVITIES_LIST,
  ACTIVITIES_PAGE_SIZE,
  ACTIVITY_TYPES_PAGE_SIZE,
  type Activity,
  type ActivityTotals,
  FieldTrackingCodes as C,
  type InvoicingStatus,
  listActivityTypes as listActivityTypesRow,
  listPositions as listPositionsRow,
  POSITIONS_PAGE_SIZE,
  type Position,
  type PositionsSpan,
  type ValidationStatus,
} from '../../../contract/fieldTracking.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import { isString, isTimeAndId, type PageTokens, pageRequest } from '../../platform/pagination.ts';
import { rfc3339 } from '../../platform/time.ts';
import type { WriteOutcome } from '../../platform/upsert.ts';
import {
  findWorkOrder,
  refKey,
  refOf,
  resolveWorkOrders,
  type WorkOrderRef,
  type WorkOrderRow,
} from '../fieldService/index.ts';
import { technicianInScope, unknownCodes } from '../rostering/index.ts';
import {
  type ActivityFilter,
  type ActivityRow,
  activityFirstPage,
  activityPage,
  activitySums,
  activityTypesAfter,
  type FirstPageRow,
  type PositionRow,
  positionBounds,
  positionPage,
  unknownActivityTypes,
  upsertActivities,
  upsertActivityType,
  upsertPositions,
} from './queries.ts';

/** ISO 8601 duration of a number of seconds, in hours, minutes and seconds: PT1H30M, PT0S. */
export function isoDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (s === 0) return 'PT0S';
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${sec ? `${sec}S` : ''}`;
}

/** The work order an activities path names, in the caller's tree (404 / 400 ambiguous). */
async function workOrderOf(db: Db, scope: OfficeScope, ref: WorkOrderRef): Promise<WorkOrderRow> {
  const found = await findWorkOrder(db, scope, ref);
  if ('missing' in found) throw workOrderNotFound();
  if ('ambiguous' in found) throw workOrderAmbiguous();
  return found.found;
}
const workOrderNotFound = () =>
  notFound(C.workOrderNotFound, 'The work order does not exist in your office tree');
const workOrderAmbiguous = () =>
  badRequest(
    C.workOrderAmbiguous,
    'Several live work orders carry this code: name the work order by its uuid',
  );

const filterOf = (q: {
  validationStatus: ValidationStatus;
  invoicingStatus: InvoicingStatus;
}): ActivityFilter => ({
  validated: q.validationStatus === 'all' ? undefined : q.validationStatus === 'validated',
  billable: q.invoicingStatus === 'all' ? undefined : q.invoicingStatus === 'billable',
});

function toActivity(r: ActivityRow): Activity {
  return {
    activityId: r.activity_id,
    activityTypeCode: r.type_code,
    agentCode: r.agent_code,
    startTime: rfc3339(r.start_time),
    endTime: rfc3339(r.end_time),
    duration: isoDuration((new Date(r.end_time).getTime() - new Date(r.start_time).getTime()) / 1000),
    billable: r.billable,
    validatedAt: r.validated_at ? rfc3339(r.validated_at) : null,
    lastUpdate: rfc3339(r.last_update),
  };
}

/** The page request of a work order's activities: a token is bound to the work order and filters. */
const activitiesRequest = (
  tokens: PageTokens,
  workOrderUuid: string,
  query: { validationStatus: ValidationStatus; invoicingStatus: InvoicingStatus; continuationToken?: string },
) =>
  pageRequest(
    tokens,
    {
      id: ACTIVITIES_LIST,
      filters: {
        workOrder: workOrderUuid,
        validationStatus: query.validationStatus,
        invoicingStatus: query.invoicingStatus,
      },
      invalidCode: C.continuationTokenInvalid,
      isKey: isTimeAndId,
    },
    query.continuationToken,
  );

/**
 * Spec endpoints 2 and 3: a page of the work order's activities by startTime then
 * activityId. The token is bound to the work order (its uuid: the code and uuid companions
 * walk one list) and to both filters.
 */
export async function listActivities(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  ref: WorkOrderRef,
  query: { validationStatus: ValidationStatus; invoicingStatus: InvoicingStatus; continuationToken?: string },
): Promise<Page<Activity>> {
  if (!query.continuationToken) {
    // The first page: the work order and its activities in one round trip.
    const rows = await activityFirstPage(db, scope, ref, { ...filterOf(query), limit: ACTIVITIES_PAGE_SIZE });
    if (rows.length === 0) throw workOrderNotFound();
    if (rows[0].live > 1) throw workOrderAmbiguous();
    const request = activitiesRequest(tokens, rows[0].wo_uuid, query);
    const activities = rows.filter((r): r is FirstPageRow & ActivityRow => r.activity_id !== null);
    return request.page(activities, ACTIVITIES_PAGE_SIZE, toActivity, (r) => [r.key, r.activity_id]);
  }
  // A later page: the token is checked against the work order it names.
  const wo = await workOrderOf(db, scope, ref);
  const request = activitiesRequest(tokens, wo.uuid, query);
  const rows = await activityPage(db, wo.id, {
    ...filterOf(query),
    after: request.after,
    limit: ACTIVITIES_PAGE_SIZE,
  });
  return request.page(rows, ACTIVITIES_PAGE_SIZE, toActivity, (r) => [r.key, r.activity_id]);
}

/** Extension: counts and durations of the activities matching the filters. */
export async function activityTotals(
  db: Db,
  scope: OfficeScope,
  ref: WorkOrderRef,
  query: { validationStatus: ValidationStatus; invoicingStatus: InvoicingStatus },
): Promise<ActivityTotals> {
  const wo = await workOrderOf(db, scope, ref);
  const r = await activitySums(db, wo.id, filterOf(query));
  const count = Number(r.count);
  const seconds = Math.round(Number(r.seconds ?? 0));
  const billableCount = Number(r.billable_count);
  const billableSeconds = Math.round(Number(r.billable_seconds ?? 0));
  const validatedCount = Number(r.validated_count);
  const sum = (n: number, s: number) => ({ count: n, duration: isoDuration(s), durationSeconds: s });
  return {
    workOrderCode: wo.code,
    uuid: wo.uuid,
    ...sum(count, seconds),
    billable: sum(billableCount, billableSeconds),
    notBillable: sum(count - billableCount, seconds - billableSeconds),
    validatedCount,
    notValidatedCount: count - validatedCount,
    firstStartTime: r.first_start ? rfc3339(r.first_start) : null,
    lastEndTime: r.last_end ? rfc3339(r.last_end) : null,
  };
}

/** Extension: the activity types, by code. */
export async function listActivityTypes(db: Db, tokens: PageTokens, continuationToken?: string) {
  const request = pageRequest(
    tokens,
    { id: listActivityTypesRow.id, invalidCode: C.continuationTokenInvalid, isKey: isString },
    continuationToken,
  );
  const rows = await activityTypesAfter(db, request.after, ACTIVITY_TYPES_PAGE_SIZE + 1);
  return request.page(
    rows,
    ACTIVITY_TYPES_PAGE_SIZE,
    (t) => ({ activityTypeCode: t.code, name: t.name }),
    (t) => t.code,
  );
}

/* ---------------- positions ---------------- */

const toPosition = (r: PositionRow): Position => ({
  timestamp: rfc3339(r.recorded_at),
  latitude: Number(r.latitude),
  longitude: Number(r.longitude),
  accuracy: r.accuracy === null ? null : Number(r.accuracy),
  speed: r.speed === null ? null : Number(r.speed),
  heading: r.heading === null ? null : Number(r.heading),
});

const isTime = (p: unknown): p is string => typeof p === 'string' && !Number.isNaN(Date.parse(p));

/**
 * Spec endpoint 1: a page of the technician's positions by timestamp, at or after
 * positionsStartDate (and before positionsEndDate, an extension). The token is bound to the
 * technician and both dates.
 */
export async function listPositions(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  technicianCode: string,
  query: { positionsStartDate?: Date; positionsEndDate?: Date; continuationToken?: string },
): Promise<Page<Position>> {
  const { positionsStartDate: start, positionsEndDate: end } = query;
  if (start && end && end <= start)
    throw badRequest(C.positionsPeriodInvalid, 'positionsEndDate must come after positionsStartDate');
  const technician = await technicianInScope(db, scope, technicianCode);
  if (!technician)
    throw notFound(C.technicianNotFound, `Technician ${technicianCode} does not exist in your office tree`);
  const request = pageRequest(
    tokens,
    {
      id: listPositionsRow.id,
      filters: {
        technician: technician.code,
        start: start?.toISOString() ?? null,
        end: end?.toISOString() ?? null,
      },
      invalidCode: C.continuationTokenInvalid,
      isKey: isTime,
    },
    query.continuationToken,
  );
  const rows = await positionPage(db, technician.code, {
    start,
    end,
    after: request.after,
    limit: POSITIONS_PAGE_SIZE,
  });
  return request.page(rows, POSITIONS_PAGE_SIZE, toPosition, (r) => r.key);
}

/** Extension: the first and last positions' timestamps of a technician of the caller's tree. */
export async function positionsSpan(
  db: Db,
  scope: OfficeScope,
  technicianCode: string,
): Promise<PositionsSpan> {
  const technician = await technicianInScope(db, scope, technicianCode);
  if (!technician)
    throw notFound(C.technicianNotFound, `Technician ${technicianCode} does not exist in your office tree`);
  const { first, last } = await positionBounds(db, technician.code);
  return {
    firstTimestamp: first === null ? null : rfc3339(new Date(first)),
    lastTimestamp: last === null ? null : rfc3339(new Date(last)),
  };
}

/* ---------------- import ---------------- */

export const putActivityType = (
  trx: Db,
  t: { activityTypeCode: string; name: string },
): Promise<WriteOutcome> => upsertActivityType(trx, { code: t.activityTypeCode, name: t.name });

export interface ActivityInput {
  activityId: string;
  workOrderUuid?: string;
  workOrderCode?: string;
  activityTypeCode: string;
  agentCode: string;
  startTime: Date;
  endTime: Date;
  billable: boolean;
  validatedAt?: Date | null;
}

/** The first row naming one of `unknown` (to name it in the refusal). */
const firstNaming = <R>(rows: R[], unknown: string[], code: (r: R) => string | null | undefined) =>
  rows.find((r) => unknown.includes(code(r) ?? '')) as R;

/**
 * Import key `activities`: every name checked first (work orders, activity types,
 * technicians), then the rows upserted by activityId in batches.
 */
export async function putActivities(trx: Db, scope: OfficeScope, rows: ActivityInput[]) {
  const label = (r: ActivityInput) => `activity ${r.activityId}`;
  const workOrders = await resolveWorkOrders(trx, scope, rows, label, {
    notFound: C.workOrderNotFound,
    ambiguous: C.workOrderAmbiguous,
  });
  const types = await unknownActivityTypes(trx, [...new Set(rows.map((r) => r.activityTypeCode))]);
  if (types.length)
    throw badRequest(
      C.activityTypeUnknown,
      `${label(firstNaming(rows, types, (r) => r.activityTypeCode))}: activity type ${types.join(', ')} is unknown`,
    );
  const agents = await unknownCodes(trx, 'technicians', [...new Set(rows.map((r) => r.agentCode))]);
  if (agents.length)
    throw badRequest(
      C.agentUnknown,
      `${label(firstNaming(rows, agents, (r) => r.agentCode))}: technician ${agents.join(', ')} is unknown`,
    );
  return upsertActivities(
    trx,
    rows.map((r) => ({
      activity_id: r.activityId,
      work_order_id: workOrders.get(refKey(refOf(r))) as string,
      type_code: r.activityTypeCode,
      agent_code: r.agentCode,
      start_time: r.startTime.toISOString(),
      end_time: r.endTime.toISOString(),
      billable: r.billable,
      validated_at: r.validatedAt ? r.validatedAt.toISOString() : null,
    })),
  );
}

export interface PositionInput {
  technicianCode: string;
  timestamp: Date;
  latitude: number;
  longitude: number;
  accuracy?: number | null;
  speed?: number | null;
  heading?: number | null;
}

/** Import key `positions`: the technicians checked first, then upserts by (technician, timestamp). */
export async function putPositions(trx: Db, rows: PositionInput[]) {
  const unknown = await unknownCodes(trx, 'technicians', [...new Set(rows.map((r) => r.technicianCode))]);
  if (unknown.length) {
    const first = firstNaming(rows, unknown, (r) => r.technicianCode);
    throw badRequest(
      C.positionTechnicianUnknown,
      `position ${first.technicianCode} ${rfc3339(first.timestamp)}: technician ${unknown.join(', ')} is unknown`,
    );
  }
  return upsertPositions(
    trx,
    rows.map((r) => ({
      technician_code: r.technicianCode,
      recorded_at: r.timestamp.toISOString(),
      latitude: r.latitude,
      longitude: r.longitude,
      accuracy: r.accuracy ?? null,
      speed: r.speed ?? null,
      heading: r.heading ?? null,
    })),
  );
}
