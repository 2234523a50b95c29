/**
 * Rules of the feasibility check (issue 28, the dispatch board): would this work order fit
 * this technician at this start? The work order and the technician are named as the search
 * names them (unknown and outside the caller's tree read the same); the calendar comes from
 * the calendar index; the rules for the one start are placement.ts'.
 */

import type { z } from 'zod';
import { foldCode } from '../../../contract/common.ts';
import { type SlotCheck, SlotCheckCodes, type SlotCheckRequest } from '../../../contract/slots.ts';
import type { Db } from '../../db/index.ts';
import { ApiError, type ErrorItem } from '../../platform/errors.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import { DAY } from '../rostering/index.ts';
import { CalendarIndex } from './calendarIndex.ts';
import type { Booking } from './days.ts';
import { type Placement, placementOf } from './placement.ts';
import { type CheckReferences, checkReferences } from './queries.ts';
import { business, defaultServices, locate, type SlotServices, UUID } from './service.ts';
import { utcText } from './utcText.ts';

type CheckBody = z.output<typeof SlotCheckRequest>;

const span = (i: { start: number; end: number }) => ({ start: utcText(i.start), end: utcText(i.end) });
const stopOf = (b: Booking | undefined) =>
  b ? { type: 'workOrder' as const, workOrderCode: b.code } : { type: 'home' as const, workOrderCode: null };

/** The work order and the technician named, each checked: every unknown one adds its code. */
async function named(db: Db, scope: OfficeScope, body: CheckBody) {
  const errors: ErrorItem[] = [];
  const { code, id } = body.workOrder;
  if (code && id) errors.push(business('2010'));
  else if (!code && !id)
    errors.push({
      code: SlotCheckCodes.workOrderMandatory,
      message: 'Name the work order by its code or its id.',
    });
  const uuid = id?.toLowerCase();
  const ref = code && !id ? { code: foldCode(code) } : uuid && !code && UUID.test(uuid) ? { uuid } : null;
  const found: CheckReferences = await checkReferences(db, scope, ref, body.technicianCode);
  const lookup = found.workOrder;
  if ((code || id) && !(code && id)) {
    if (!lookup)
      errors.push({
        code: SlotCheckCodes.workOrderNotFound,
        message: 'This work order does not exist in your office tree.',
      });
    else if (lookup.live > 1)
      errors.push({
        code: SlotCheckCodes.workOrderAmbiguous,
        message: 'Several live work orders carry this code: name the work order by its id.',
      });
  }
  if (!found.technician)
    errors.push({
      code: SlotCheckCodes.technicianNotFound,
      message: `Technician ${body.technicianCode} does not exist in your office tree.`,
    });
  if (errors.length || !lookup || !found.technician) throw new ApiError(400, errors);
  return { workOrder: lookup.row, technician: found.technician };
}

export async function check(
  db: Db,
  scope: OfficeScope,
  body: CheckBody,
  services: SlotServices = defaultServices,
): Promise<SlotCheck> {
  const { workOrder, technician } = await named(db, scope, body);
  const target = await locate(db, services.geocoder, {}, workOrder);
  if (!target) throw new ApiError(400, [business('3011')]);
  const start = body.start.getTime();
  const end = start + workOrder.duration_minutes * 60_000;
  const answer = { start: utcText(start), end: utcText(end), travel: null };
  if (!technician.active) return { fits: false, reason: 'inactive', ...answer };
  const missing = workOrder.type_skills.filter((s) => !technician.skills.includes(s));
  if (missing.length) return { fits: false, reason: 'skill.missing', detail: { skills: missing }, ...answer };

  // The day and its neighbours, as a search of that day reads them.
  const visible = { start: start - 2 * DAY, end: end + 2 * DAY };
  const index = services.index ?? new CalendarIndex();
  const calendars = await index.daysOf(db, scope, [technician], visible, services.now());
  const days = calendars.get(technician.code);
  if (!days)
    throw new ApiError(400, SlotCheckCodes.technicianNotFound, 'This technician left your office tree.');
  const own = days.bookings.some((b) => b.uuid === workOrder.uuid) ? days.without(workOrder.uuid) : days;
  const placement = placementOf(own, {
    start,
    durationMinutes: workOrder.duration_minutes,
    target: target.point,
    road: services.road,
    visible,
  });
  const { travel, ...verdict } = answerOf(placement, own.technician, workOrder.duration_minutes);
  return { ...verdict, ...answer, travel: travel ?? null };
}

/** The placement as the answer tells it: fits, or the reason and what to draw. */
function answerOf(
  p: Placement,
  t: { maxWorkOrdersPerDay: number | null; maxMinutesPerDay: number | null },
  durationMinutes: number,
): Pick<SlotCheck, 'fits' | 'reason' | 'detail'> & { travel?: SlotCheck['travel'] } {
  if (p.fits)
    return {
      fits: true,
      travel: {
        before: { ...p.before, from: stopOf(p.free.prev) },
        after: { ...p.after, to: stopOf(p.free.next) },
      },
    };
  switch (p.reason) {
    case 'absent':
      return { fits: false, reason: 'absent', detail: { absences: p.absences.map(span) } };
    case 'capacity.full':
      return {
        fits: false,
        reason: 'capacity.full',
        detail: {
          day: new Date(p.day.day).toISOString().slice(0, 10),
          maxWorkOrdersPerDay: t.maxWorkOrdersPerDay,
          maxMinutesPerDay: t.maxMinutesPerDay,
        },
      };
    case 'no.window':
      return {
        fits: false,
        reason: 'no.window',
        detail: { workOrders: p.overlapping.map((b) => b.code), free: p.free ? span(p.free) : null },
      };
    case 'too.far':
      return {
        fits: false,
        reason: 'too.far',
        detail: {
          route: p.route,
          free: span(p.free),
          ...(p.travel
            ? { neededMinutes: p.travel.before.minutes + durationMinutes + p.travel.after.minutes }
            : {}),
        },
        travel: p.travel
          ? {
              before: { ...p.travel.before, from: stopOf(p.free.prev) },
              after: { ...p.travel.after, to: stopOf(p.free.next) },
            }
          : null,
      };
  }
}
