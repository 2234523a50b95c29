/**
 * Rostering (spec endpoint 6 and issue 12): crews over a period, the areas the slot search
 * filters on, and the shapes of a technician's calendar (working hours, absences, capacity).
 */
import { z } from 'zod';
import { Code, DateInput, QueryBoolean, QueryInteger } from './common.ts';
import { endpoint } from './endpoint.ts';
import { derivedCode } from './errors.ts';

const BASE = '/eTech/rest/ws/rostering/v1';

/** `HH:MM`, 00:00..23:59 (spec: Time). */
export const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
export const TimeOfDay = z.string().regex(TIME, 'a time HH:MM (00:00 to 23:59)');

/** One weekly working period in the technician's time zone; `end` may be 24:00 (midnight). */
export const WorkingHoursEntry = z
  .strictObject({
    weekday: z.number().int().min(1).max(7).meta({ description: 'ISO weekday: Monday = 1 ... Sunday = 7' }),
    start: TimeOfDay,
    end: z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'a time HH:MM (00:01 to 24:00)'),
  })
  .refine((w) => w.start < w.end, { message: 'start must be before end', path: ['end'] })
  .meta({ id: 'WorkingHoursEntry' });

/** Without working hours, a technician works Monday to Friday, 08:00 to 17:00 local time. */
export const DEFAULT_WORKING_HOURS = [1, 2, 3, 4, 5].map((weekday) => ({
  weekday,
  start: '08:00',
  end: '17:00',
}));

/* ---------------- crews (spec endpoint 6) ---------------- */

export const CREWS = 'rostering.crews';
export const CREWS_PAGE_SIZE_DEFAULT = 100;
export const CREWS_PAGE_SIZE_MAX = 500;

export const RosteringCodes = {
  crewsStartDateMandatory: derivedCode.mandatory(CREWS, 'crewsStartDate'),
  crewsStartDateInvalid: derivedCode.invalid(CREWS, 'crewsStartDate'),
  crewsEndDateMandatory: derivedCode.mandatory(CREWS, 'crewsEndDate'),
  crewsEndDateInvalid: derivedCode.invalid(CREWS, 'crewsEndDate'),
  crewsSizeInvalid: derivedCode.invalid(CREWS, 'crewsSize'),
  fieldUnknown: derivedCode.fieldUnknown(CREWS),
  /** crewsEndDate before crewsStartDate. */
  periodInvalid: `${CREWS}.period.invalid`,
  continuationTokenInvalid: derivedCode.continuationTokenInvalid('rostering'),
} as const;

export const CrewsQuery = z.strictObject({
  crewsStartDate: DateInput,
  crewsEndDate: DateInput,
  crewsSize: QueryInteger(1, CREWS_PAGE_SIZE_MAX)
    .optional()
    .meta({ description: `Page size, 1..${CREWS_PAGE_SIZE_MAX}, default ${CREWS_PAGE_SIZE_DEFAULT}` }),
  continuationToken: z.string().optional(),
});

/** A participation interval, clipped to the period asked for (dates, both inclusive). */
export const CrewInterval = z.object({ from: z.string(), to: z.string() }).meta({ id: 'CrewInterval' });
export const CrewResource = z
  .object({ technicianCode: z.string(), intervals: z.array(CrewInterval) })
  .meta({ id: 'CrewResource' });
export const Crew = z
  .object({
    crewCode: z.string(),
    mainResource: CrewResource,
    secondaryResources: z.array(CrewResource),
  })
  .meta({ id: 'Crew' });
export type Crew = z.infer<typeof Crew>;
export const CrewPage = z
  .object({ continuationToken: z.string().nullable(), data: z.array(Crew) })
  .meta({ id: 'CrewPage' });

export const listCrews = endpoint({
  id: 'rostering.crews.list',
  method: 'GET',
  path: `${BASE}/crews`,
  domain: 'rostering',
  range: 'high',
  summary:
    'Crews active over the period (their main resource participates in it), sorted by crew code, with the ' +
    'participation intervals of each resource clipped to the period. Disabled crews and crews whose main ' +
    'resource is inactive are not returned; a crew is returned when one of its resources is in your office tree; ' +
    'secondary resources outside it are hidden, the main resource is always shown. Dates `YYYY-MM-DD`, both ' +
    'inclusive; the continuationToken is bound to the period.',
  errorPrefix: CREWS,
  query: CrewsQuery,
  responses: { 200: CrewPage },
  errors: { 400: Object.values(RosteringCodes) },
});

/* ---------------- areas (extension for the planner) ---------------- */

export const Area = z
  .object({ areaCode: z.string(), name: z.string(), zipCodes: z.array(z.string()) })
  .meta({ id: 'Area' });
export const AREAS_PAGE_SIZE = 500;

export const listAreas = endpoint({
  id: 'rostering.areas.list',
  method: 'GET',
  path: `${BASE}/areas`,
  domain: 'rostering',
  range: 'standard',
  summary: `Areas (named sets of zip codes, loaded by import), sorted by code, ${AREAS_PAGE_SIZE} a page.`,
  errorPrefix: 'rostering.areas',
  query: z.strictObject({ continuationToken: z.string().optional() }),
  responses: {
    200: z.object({ continuationToken: z.string().nullable(), data: z.array(Area) }).meta({ id: 'AreaPage' }),
  },
  errors: { 400: [RosteringCodes.continuationTokenInvalid, derivedCode.fieldUnknown('rostering.areas')] },
  extension: true,
});

/* ---------------- technicians (extensions for the console) ---------------- */

export const TECHNICIANS = 'rostering.technicians';
export const TECHNICIAN = 'rostering.technician';
export const TECHNICIANS_PAGE_SIZE = 200;

export const TechnicianCodes = {
  /** Unknown, or outside the caller's office tree (the same answer). */
  notFound: 'rostering.technician.notfound',
  /** officeCode names no office of the caller's tree. */
  officeUnknown: 'rostering.technicians.office.unknown',
  qInvalid: derivedCode.invalid(TECHNICIANS, 'q'),
  officeCodeInvalid: derivedCode.invalid(TECHNICIANS, 'officeCode'),
  activeInvalid: derivedCode.invalid(TECHNICIANS, 'active'),
  skillCodeInvalid: derivedCode.invalid(TECHNICIANS, 'skillCode'),
  listFieldUnknown: derivedCode.fieldUnknown(TECHNICIANS),
  technicianCodeInvalid: derivedCode.invalid(TECHNICIAN, 'technicianCode'),
  codeMandatory: `${TECHNICIAN}.code.mandatory`,
} as const;

export const TechnicianListQuery = z
  .strictObject({
    q: z
      .string()
      .max(200)
      .optional()
      .meta({ description: 'Text contained in the code or the name (any case)' }),
    officeCode: Code().optional().meta({ description: 'That office and the offices below it' }),
    active: QueryBoolean()
      .optional()
      .meta({ description: '`true`: active technicians only; `false`: inactive ones only' }),
    skillCode: Code().optional().meta({ description: 'Technicians holding this skill' }),
    continuationToken: z.string().optional(),
  })
  .meta({ id: 'TechnicianListQuery' });
export type TechnicianListQuery = z.output<typeof TechnicianListQuery>;

/** A technician (field resource) as the import wrote it, with the calendar in effect. */
export const Technician = z
  .object({
    technicianCode: z.string(),
    name: z.string(),
    officeCode: z.string(),
    active: z.boolean(),
    skills: z.array(z.string()),
    home: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
    timeZone: z.string().meta({ description: 'IANA time zone of the working hours' }),
    workingHours: z.array(z.object({ weekday: z.number().int(), start: z.string(), end: z.string() })).meta({
      description: 'In effect: the default week (Monday to Friday 08:00-17:00) when none was given',
    }),
    absences: z.array(z.object({ start: z.string(), end: z.string() })).meta({ description: 'UTC instants' }),
    capacity: z.object({
      maxWorkOrdersPerDay: z.number().int().nullable(),
      maxMinutesPerDay: z.number().int().nullable(),
    }),
    areas: z.array(z.string()),
    lastUpdate: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'Technician' });
export type Technician = z.infer<typeof Technician>;

export const listTechnicians = endpoint({
  id: 'rostering.technicians.list',
  method: 'GET',
  path: `${BASE}/technicians`,
  domain: 'rostering',
  range: 'standard',
  summary:
    `Technicians of your office tree, sorted by code, ${TECHNICIANS_PAGE_SIZE} a page: search by text, office ` +
    '(and below), active state and skill. The continuationToken is bound to the filters.',
  errorPrefix: TECHNICIANS,
  query: TechnicianListQuery,
  responses: {
    200: z
      .object({ continuationToken: z.string().nullable(), data: z.array(Technician) })
      .meta({ id: 'TechnicianPage' }),
  },
  errors: {
    400: [
      RosteringCodes.continuationTokenInvalid,
      TechnicianCodes.officeUnknown,
      TechnicianCodes.qInvalid,
      TechnicianCodes.officeCodeInvalid,
      TechnicianCodes.activeInvalid,
      TechnicianCodes.skillCodeInvalid,
      TechnicianCodes.listFieldUnknown,
    ],
  },
  extension: true,
});

export const getTechnician = endpoint({
  id: 'rostering.technicians.get',
  method: 'GET',
  path: `${BASE}/technicians/code:{technicianCode}`,
  domain: 'rostering',
  range: 'high',
  summary: 'A technician of your office tree with its skills, home and calendar; 404 outside it.',
  errorPrefix: TECHNICIAN,
  params: z.object({ technicianCode: Code() }),
  responses: { 200: Technician },
  errors: {
    400: [TechnicianCodes.technicianCodeInvalid, TechnicianCodes.codeMandatory],
    404: [TechnicianCodes.notFound],
  },
  extension: true,
});

/** The rostering endpoints by name, in the order of the OpenAPI document (contract/domains.ts). */
export const rosteringEndpoints = {
  listCrews,
  listAreas,
  listTechnicians,
  getTechnician,
};
