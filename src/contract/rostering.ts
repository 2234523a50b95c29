/**
 * Rostering (spec endpoint 6 and issue 12): crews over a period, the areas the slot search
 * filters on, and the shapes of a technician's calendar (working hours, absences, capacity).
 */
import { z } from 'zod';
import { DateInput } from './common.ts';
import { type Endpoint, endpoint } from './endpoint.ts';
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
  crewsSize: z
    .string()
    .regex(/^\d+$/, 'an integer from 1 to 500')
    .transform(Number)
    .pipe(z.number().int().min(1).max(CREWS_PAGE_SIZE_MAX))
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

export const rosteringEndpoints: Endpoint[] = [listCrews, listAreas];
