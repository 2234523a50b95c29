/**
 * Scheduling (spec: "Scheduling and diagnostic" paths; issue 12): schedule a work order on a
 * technician or a crew, and read its scheduling data. A work order is named by code (the
 * live one) or by uuid.
 */
import { z } from 'zod';
import { Code, DateTimeInput } from './common.ts';
import { endpoint } from './endpoint.ts';
import { derivedCode } from './errors.ts';

const BASE = '/eTech/rest/ws/scheduling/v1/workOrders';
export const SCHEDULING = 'scheduling';

/** Every refusal of the schedule PUT has its own code. */
export const SchedulingCodes = {
  workOrderNotFound: 'scheduling.workorder.notfound',
  workOrderAmbiguous: 'scheduling.workorder.code.ambiguous',
  /** The work order is completed, validated or cancelled. */
  workOrderStatus: 'scheduling.workorder.status.conflict',
  /** Neither technicianCode nor crewCode. */
  resourceMandatory: 'scheduling.resource.mandatory',
  /** Both technicianCode and crewCode. */
  resourceConflict: 'scheduling.resource.conflict',
  /** Unknown, or outside the caller's office tree (the same answer: no existence oracle). */
  technicianUnknown: 'scheduling.technician.unknown',
  technicianInactive: 'scheduling.technician.inactive',
  technicianSkills: 'scheduling.technician.skills.missing',
  technicianAbsent: 'scheduling.technician.absent',
  /**
   * Unknown, disabled, whose main resource is inactive, or without a member in the caller's
   * office tree: the crews list would not show it.
   */
  crewUnknown: 'scheduling.crew.unknown',
  /** The crew's main resource does not participate on that date. */
  crewNotActive: 'scheduling.crew.notactive',
  startMandatory: derivedCode.mandatory(SCHEDULING, 'start'),
  startInvalid: derivedCode.invalid(SCHEDULING, 'start'),
  technicianCodeInvalid: derivedCode.invalid(SCHEDULING, 'technicianCode'),
  crewCodeInvalid: derivedCode.invalid(SCHEDULING, 'crewCode'),
  invalidJson: derivedCode.invalidJson(SCHEDULING),
  fieldUnknown: derivedCode.fieldUnknown(SCHEDULING),
  codeMandatory: `${SCHEDULING}.code.mandatory`,
  /** Unschedule (extension): the work order is not SCHEDULED (not yet, or already started). */
  workOrderNotScheduled: 'scheduling.workorder.notscheduled',
} as const;

/** Where an unscheduled work order goes back to: the board's queue of work to schedule. */
export const UNSCHEDULED_STATUS = 'QUALIFIED';

export const ScheduleBody = z
  .strictObject({
    technicianCode: Code(200).nullish(),
    crewCode: Code(200).nullish(),
    start: DateTimeInput,
  })
  .meta({
    id: 'ScheduleBody',
    description:
      "One of technicianCode or crewCode, and the start (UTC `YYYY-MM-DDTHH:MM`). On a crew, the crew's " +
      'main resource does the work: the skills are those of the crew members participating that day.',
  });
export type ScheduleBody = z.input<typeof ScheduleBody>;

export const WorkOrderSchedule = z
  .object({
    workOrderCode: z.string(),
    uuid: z.string(),
    status: z.string(),
    technicianCode: z.string().nullable(),
    crewCode: z.string().nullable(),
    scheduledStart: z.string().nullable().meta({ format: 'date-time' }),
    scheduledEnd: z.string().nullable().meta({ format: 'date-time' }),
  })
  .meta({ id: 'WorkOrderSchedule' });
export type WorkOrderSchedule = z.infer<typeof WorkOrderSchedule>;

const putErrors = {
  400: [
    SchedulingCodes.workOrderAmbiguous,
    SchedulingCodes.workOrderStatus,
    SchedulingCodes.resourceMandatory,
    SchedulingCodes.resourceConflict,
    SchedulingCodes.technicianUnknown,
    SchedulingCodes.technicianInactive,
    SchedulingCodes.technicianSkills,
    SchedulingCodes.technicianAbsent,
    SchedulingCodes.crewUnknown,
    SchedulingCodes.crewNotActive,
    SchedulingCodes.startMandatory,
    SchedulingCodes.startInvalid,
    SchedulingCodes.technicianCodeInvalid,
    SchedulingCodes.crewCodeInvalid,
    SchedulingCodes.invalidJson,
    SchedulingCodes.fieldUnknown,
    SchedulingCodes.codeMandatory,
  ],
  404: [SchedulingCodes.workOrderNotFound],
};
const putSummary =
  'Schedules the work order on a technician or a crew at `start` and sets its status SCHEDULED (204). ' +
  'Refused for a work order completed or higher, a technician unknown, outside your office tree, inactive, ' +
  'without the skills of the type, or absent at that time, and a crew unknown or not active that day.';

export const scheduleByCode = endpoint({
  id: 'scheduling.workOrders.schedule.code',
  method: 'PUT',
  path: `${BASE}/code:{workOrderCode}/schedule`,
  domain: 'scheduling',
  range: 'standard',
  summary: putSummary,
  errorPrefix: SCHEDULING,
  params: z.object({ workOrderCode: Code(200) }),
  body: ScheduleBody,
  responses: { 204: undefined },
  errors: putErrors,
});

export const scheduleByUuid = endpoint({
  id: 'scheduling.workOrders.schedule.uuid',
  method: 'PUT',
  path: `${BASE}/uuid:{workOrderUuid}/schedule`,
  domain: 'scheduling',
  range: 'standard',
  summary: putSummary,
  errorPrefix: SCHEDULING,
  params: z.object({ workOrderUuid: z.uuid().transform((u) => u.toLowerCase()) }),
  body: ScheduleBody,
  responses: { 204: undefined },
  errors: { ...putErrors, 400: [...putErrors[400], derivedCode.invalid(SCHEDULING, 'workOrderUuid')] },
});

const getSummary = 'The scheduling data of the work order (nulls while it is not scheduled).';

export const getScheduleByCode = endpoint({
  id: 'scheduling.workOrders.get.code',
  method: 'GET',
  path: `${BASE}/code:{workOrderCode}`,
  domain: 'scheduling',
  range: 'high',
  summary: getSummary,
  errorPrefix: SCHEDULING,
  params: z.object({ workOrderCode: Code(200) }),
  responses: { 200: WorkOrderSchedule },
  errors: {
    400: [SchedulingCodes.workOrderAmbiguous, SchedulingCodes.codeMandatory],
    404: [SchedulingCodes.workOrderNotFound],
  },
});

export const getScheduleByUuid = endpoint({
  id: 'scheduling.workOrders.get.uuid',
  method: 'GET',
  path: `${BASE}/uuid:{workOrderUuid}`,
  domain: 'scheduling',
  range: 'high',
  summary: getSummary,
  errorPrefix: SCHEDULING,
  params: z.object({ workOrderUuid: z.uuid().transform((u) => u.toLowerCase()) }),
  responses: { 200: WorkOrderSchedule },
  errors: {
    400: [derivedCode.invalid(SCHEDULING, 'workOrderUuid'), SchedulingCodes.codeMandatory],
    404: [SchedulingCodes.workOrderNotFound],
  },
});

export const unscheduleByCode = endpoint({
  id: 'scheduling.workOrders.unschedule.code',
  method: 'DELETE',
  path: `${BASE}/code:{workOrderCode}/schedule`,
  domain: 'scheduling',
  range: 'standard',
  summary:
    `Takes a SCHEDULED work order off its technician or crew (204): no technician, crew or start, status ` +
    `${UNSCHEDULED_STATUS}, back among the work to schedule (the dispatch board's queue). Refused for a work ` +
    'order not SCHEDULED (not yet scheduled, or started or done).',
  errorPrefix: SCHEDULING,
  params: z.object({ workOrderCode: Code(200) }),
  responses: { 204: undefined },
  errors: {
    400: [
      SchedulingCodes.workOrderAmbiguous,
      SchedulingCodes.workOrderNotScheduled,
      SchedulingCodes.codeMandatory,
    ],
    404: [SchedulingCodes.workOrderNotFound],
  },
  extension: true,
});

/** The scheduling endpoints by name, in the order of the OpenAPI document (contract/domains.ts). */
export const schedulingEndpoints = {
  scheduleByCode,
  scheduleByUuid,
  getScheduleByCode,
  getScheduleByUuid,
  unscheduleByCode,
};
