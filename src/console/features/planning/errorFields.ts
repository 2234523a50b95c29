/**
 * The service's refusals -> the planner's inputs. A slot search business code (1001..3032)
 * names its request field in the contract (`SLOT_ERRORS[code].field`); that field is one
 * input of the form, depending on how the period is given (ranges or an appointment date)
 * and where the work is (a work order, or a type and a place). The other `slots.*` codes
 * have their input too; what none takes (a body the service could not read) is a page
 * alert. The schedule's `scheduling.*` refusals go to the line of the confirmation they are
 * about (the work order, the technician or crew, the start).
 */

import { SchedulingCodes } from '../../../contract/scheduling.ts';
import { SLOT_ERRORS, type SlotErrorCode, SlotsCodes } from '../../../contract/slots.ts';
import type { PlannerField } from './request.ts';
import type { PeriodMode, PlannerTarget } from './search.ts';

export interface ErrorItem {
  code: string;
  message: string;
}

export const isSlotErrorCode = (code: string): code is SlotErrorCode => Object.hasOwn(SLOT_ERRORS, code);

/** The input of the planner a slot search error belongs to, or null (page alert). */
export function slotErrorField(
  code: string,
  ctx: { period: PeriodMode; target: PlannerTarget },
): PlannerField | null {
  if (isSlotErrorCode(code)) {
    const field = SLOT_ERRORS[code].field;
    switch (field) {
      case 'workOrderType':
        // With a work order, the type is the work order's: the work order input carries it.
        return ctx.target === 'workOrder' ? 'wo' : 'type';
      case 'timeRanges':
        // 1002 and 2003..2005 are about the period, whichever way it is given.
        return ctx.period === 'date' ? 'date' : 'ranges';
      case 'availabilities':
        return 'date';
      case 'zipCode':
        return 'zoneZip';
      case 'location':
        if (ctx.target === 'workOrder') return 'wo';
        return code === '3021' || code === '3022' ? 'coordinates' : 'place';
      case 'offices':
      case 'areas':
      case 'skills':
      case 'areaScope':
        return field;
      case 'maximumSlotNumber':
        return 'max';
      case 'workOrder':
        return 'wo';
      case 'customerPortalUser':
        return 'portalUser';
      case 'startingHours':
        return 'hours';
    }
  }
  switch (code) {
    case SlotsCodes.workOrderNotFound:
    case SlotsCodes.workOrderAmbiguous:
      return 'wo';
    case SlotsCodes.skillUnknown:
      return 'skills';
    case SlotsCodes.customerPortalUserUnknown:
      return 'portalUser';
    default:
      return null;
  }
}

/** The service's errors grouped by input, and those no input takes. */
export function errorsByField(
  errors: readonly ErrorItem[],
  ctx: { period: PeriodMode; target: PlannerTarget },
): { fields: Partial<Record<PlannerField, ErrorItem[]>>; page: ErrorItem[] } {
  const fields: Partial<Record<PlannerField, ErrorItem[]>> = {};
  const page: ErrorItem[] = [];
  for (const e of errors) {
    const f = slotErrorField(e.code, ctx);
    if (!f) page.push(e);
    else if (fields[f]) fields[f].push(e);
    else fields[f] = [e];
  }
  return { fields, page };
}

/**
 * The sentence of an error in the UI language: a business code's sentence is translated
 * (`planning:slotErrors.<code>`), and what the service added after it (the codes it is
 * about, e.g. "(NOPE)") is kept; another code's message is the service's (or a translation
 * of the code when there is one).
 */
export function errorSentence(
  t: (key: string, opts?: { defaultValue?: string }) => string,
  e: ErrorItem,
): string {
  if (isSlotErrorCode(e.code)) {
    const sentence = SLOT_ERRORS[e.code].message;
    const detail = e.message.startsWith(sentence) ? e.message.slice(sentence.length).trim() : '';
    const translated = t(`planning:slotErrors.${e.code}`, { defaultValue: sentence });
    return detail ? `${translated} ${detail}` : translated;
  }
  return t(`planning:serviceErrors.${e.code.replace(/\./g, '_')}`, { defaultValue: e.message });
}

/** A line of the schedule confirmation. */
export type ScheduleLine = 'workOrder' | 'resource' | 'start';

/** The line of the schedule confirmation a `scheduling.*` refusal is about, or null (alert). */
export function scheduleErrorLine(code: string): ScheduleLine | null {
  switch (code) {
    case SchedulingCodes.workOrderNotFound:
    case SchedulingCodes.workOrderAmbiguous:
    case SchedulingCodes.workOrderStatus:
    case SchedulingCodes.codeMandatory:
      return 'workOrder';
    case SchedulingCodes.resourceMandatory:
    case SchedulingCodes.resourceConflict:
    case SchedulingCodes.technicianUnknown:
    case SchedulingCodes.technicianInactive:
    case SchedulingCodes.technicianSkills:
    case SchedulingCodes.technicianAbsent:
    case SchedulingCodes.technicianCodeInvalid:
    case SchedulingCodes.crewUnknown:
    case SchedulingCodes.crewNotActive:
    case SchedulingCodes.crewCodeInvalid:
      return 'resource';
    case SchedulingCodes.startMandatory:
    case SchedulingCodes.startInvalid:
      return 'start';
    default:
      return null;
  }
}
