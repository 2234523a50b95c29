/**
 * Rules of scheduling: place a work order on a technician or a crew (each refusal with its
 * own code), and read its scheduling data. The work order is found by `findWorkOrder`.
 */
import { isCompletedOrHigher } from '../../../contract/fieldService.ts';
import { SchedulingCodes, UNSCHEDULED_STATUS, type WorkOrderSchedule } from '../../../contract/scheduling.ts';
import type { Db } from '../../db/index.ts';
import { actorOf, recordEvent } from '../../events/index.ts';
import type { Caller } from '../../platform/caller.ts';
import { ApiError, badRequest, notFound } from '../../platform/errors.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import { rfc3339 } from '../../platform/time.ts';
import { writeTransaction } from '../../platform/transactions.ts';
import {
  clearSchedule,
  findWorkOrder,
  scheduledEnd,
  type WorkOrderRef,
  type WorkOrderRow,
  workOrderTypeByCode,
  writeSchedule,
} from '../fieldService/index.ts';
import type { Absence } from '../rostering/index.ts';
import {
  crewWithMembers,
  localDay,
  MINUTE,
  technicianByCode,
  technicianInScope,
} from '../rostering/index.ts';

/** The work order a scheduling path names, in the caller's tree (404 / 400 ambiguous). */
export async function workOrderOf(db: Db, scope: OfficeScope, ref: WorkOrderRef): Promise<WorkOrderRow> {
  const found = await findWorkOrder(db, scope, ref);
  if ('missing' in found)
    throw notFound(SchedulingCodes.workOrderNotFound, 'The work order does not exist in your office tree');
  if ('ambiguous' in found)
    throw badRequest(
      SchedulingCodes.workOrderAmbiguous,
      'Several live work orders carry this code: name the work order by its uuid',
    );
  return found.found;
}

const absentDuring = (absences: readonly Absence[], start: number, end: number) =>
  absences.some((a) => Date.parse(a.start) < end && Date.parse(a.end) > start);

/**
 * Who does the work: the technician, or the crew's main resource. Checks the technician is
 * known, in the caller's tree, active, skilled and not absent; a crew, that it is listed
 * (not disabled, main resource active), visible, and that its main resource takes part that
 * day; the skills of a crew are those of its members taking part that day.
 */
async function resource(
  trx: Db,
  scope: OfficeScope,
  body: { technicianCode?: string | null; crewCode?: string | null },
  needed: string[],
  start: number,
  end: number,
): Promise<{ technicianCode: string; crewCode: string | null }> {
  if (body.technicianCode && body.crewCode)
    throw badRequest(SchedulingCodes.resourceConflict, 'Give technicianCode or crewCode, not both');
  if (body.technicianCode) {
    const t = await technicianByCode(trx, body.technicianCode);
    // Outside the caller's tree (or tenant) is the answer to a code that does not exist:
    // no existence oracle (issue 24).
    if (!t || !(await technicianInScope(trx, scope, t.code)))
      throw badRequest(SchedulingCodes.technicianUnknown, `Technician ${body.technicianCode} does not exist`);
    if (!t.active) throw badRequest(SchedulingCodes.technicianInactive, `Technician ${t.code} is inactive`);
    const missing = needed.filter((s) => !t.skills.includes(s));
    if (missing.length)
      throw badRequest(
        SchedulingCodes.technicianSkills,
        `Technician ${t.code} lacks the skill ${missing.join(', ')}`,
      );
    if (absentDuring(t.absences, start, end))
      throw badRequest(SchedulingCodes.technicianAbsent, `Technician ${t.code} is absent at that time`);
    return { technicianCode: t.code, crewCode: null };
  }
  if (!body.crewCode) throw badRequest(SchedulingCodes.resourceMandatory, 'Give technicianCode or crewCode');
  const crew = await crewWithMembers(trx, body.crewCode);
  const main = crew?.members.find((m) => m.is_main);
  // A crew without a member in the caller's tree answers as a code that does not exist.
  const visible = crew
    ? await Promise.all(crew.members.map((m) => technicianInScope(trx, scope, m.code)))
    : [];
  if (!crew || !main || crew.disabled_at || !main.active || !visible.some(Boolean))
    throw badRequest(SchedulingCodes.crewUnknown, `Crew ${body.crewCode} does not exist or is disabled`);
  // The day of the work in the main resource's time zone, as YYYY-MM-DD.
  const day = new Date(localDay(main.time_zone, start)).toISOString().slice(0, 10);
  const present = crew.members.filter((m) => m.from_date <= day && (!m.to_date || m.to_date >= day));
  if (!present.some((m) => m.is_main))
    throw badRequest(
      SchedulingCodes.crewNotActive,
      `The main resource of crew ${crew.code} is not in it on ${day}`,
    );
  const skills = new Set(present.filter((m) => m.active).flatMap((m) => m.skills));
  const missing = needed.filter((s) => !skills.has(s));
  if (missing.length)
    throw badRequest(
      SchedulingCodes.technicianSkills,
      `Crew ${crew.code} lacks the skill ${missing.join(', ')}`,
    );
  if (absentDuring(main.absences, start, end))
    throw badRequest(
      SchedulingCodes.technicianAbsent,
      `${main.code}, main resource of ${crew.code}, is absent then`,
    );
  return { technicianCode: main.code, crewCode: crew.code };
}

/** PUT .../schedule: checks, writes the schedule and status SCHEDULED, emits status.scheduled; one transaction. */
export function schedule(
  db: Db,
  caller: Caller,
  ref: WorkOrderRef,
  body: { technicianCode?: string | null; crewCode?: string | null; start: Date },
): Promise<void> {
  return writeTransaction(db, async (trx) => {
    const wo = await workOrderOf(trx, caller.scope, ref);
    if (isCompletedOrHigher(wo.status))
      throw badRequest(
        SchedulingCodes.workOrderStatus,
        `The work order is ${wo.status}: it cannot be scheduled`,
      );
    const type = await workOrderTypeByCode(trx, wo.type_code);
    if (!type) throw new ApiError(500, 'internal.server.error', 'work order type missing');
    const start = body.start.getTime();
    const who = await resource(
      trx,
      caller.scope,
      body,
      type.skills,
      start,
      start + type.duration_minutes * MINUTE,
    );
    await writeSchedule(trx, wo.id, { ...who, start: body.start });
    const written = await workOrderOf(trx, caller.scope, { uuid: wo.uuid });
    await onWorkOrderScheduled(trx, written, caller);
  });
}

/**
 * DELETE .../schedule (extension, the dispatch board): a SCHEDULED work order goes back to
 * the work to schedule. One not yet scheduled has nothing to take off; one started or done
 * keeps the schedule it was worked on.
 */
export function unschedule(db: Db, scope: OfficeScope, ref: WorkOrderRef): Promise<void> {
  return writeTransaction(db, async (trx) => {
    const wo = await workOrderOf(trx, scope, ref);
    if (wo.status !== 'SCHEDULED')
      throw badRequest(
        SchedulingCodes.workOrderNotScheduled,
        `The work order is ${wo.status}: only a SCHEDULED one can be unscheduled`,
      );
    await clearSchedule(trx, wo.id, UNSCHEDULED_STATUS);
  });
}

/**
 * Called inside the scheduling transaction, after the write: emits `status.scheduled`
 * through the webhooks' transactional outbox (`src/server/events`). The one place
 * scheduling announces a change.
 */
export async function onWorkOrderScheduled(
  trx: Db,
  workOrder: WorkOrderRow,
  actor: Pick<Caller, 'kind' | 'name'>,
): Promise<void> {
  const start = workOrder.scheduled_start;
  const end = scheduledEnd(workOrder);
  if (!start || !end || !workOrder.technician_code) return;
  await recordEvent(trx, {
    type: 'status.scheduled',
    officeId: String(workOrder.office_id),
    data: {
      updatedAt: rfc3339(workOrder.last_update),
      workOrderCode: workOrder.code,
      uuid: workOrder.uuid,
      officeCode: workOrder.office_code,
      status: 'SCHEDULED',
      technicianCode: workOrder.technician_code,
      crewCode: workOrder.crew_code,
      scheduledStart: rfc3339(start),
      scheduledEnd: rfc3339(end),
      actor: actorOf(actor),
    },
  });
}

/** GET: the scheduling data of the work order. */
export async function getSchedule(db: Db, scope: OfficeScope, ref: WorkOrderRef): Promise<WorkOrderSchedule> {
  const wo = await workOrderOf(db, scope, ref);
  const end = scheduledEnd(wo);
  return {
    workOrderCode: wo.code,
    uuid: wo.uuid,
    status: wo.status,
    technicianCode: wo.technician_code,
    crewCode: wo.crew_code,
    scheduledStart: wo.scheduled_start ? rfc3339(wo.scheduled_start) : null,
    scheduledEnd: end ? rfc3339(end) : null,
  };
}
