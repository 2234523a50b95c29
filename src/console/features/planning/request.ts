/**
 * The planner's form, its URL and the slot search request, and the ways between them:
 *
 *   URL (PlannerSearch, UTC)  --formFromSearch-->  form values (display time zone)
 *   form values  --searchFromForm-->  URL          (the Search button)
 *   URL  --requestFromSearch-->  POST /rest/v3/slots/search body
 *
 * and the form's check: the request it would send, parsed by the contract's schema, each
 * problem put on the input it comes from. Pure (the zone is a parameter).
 */
import type { z } from 'zod';
import { SlotSearchRequest, type SlotSearchSent } from '../../../contract/slots.ts';
import type { PeriodMode, PlannerSearch, PlannerTarget } from './search.ts';
import {
  addDays,
  fromApiDateTime,
  fromLocalInput,
  isDate,
  toApiDateTime,
  toLocalInput,
  zoned,
} from './time.ts';

export interface RangeValues {
  /** `YYYY-MM-DDTHH:MM` in the display time zone (a datetime-local input). */
  start: string;
  end: string;
}

export interface PlannerFormValues {
  target: PlannerTarget;
  wo: string;
  type: string;
  address: string;
  zip: string;
  city: string;
  country: string;
  /** Text of the inputs (a number once parsed). */
  lat: string;
  lon: string;
  period: PeriodMode;
  ranges: RangeValues[];
  date: string;
  offices: string[];
  areas: string[];
  /** '' = the service's default. */
  areaScope: string;
  skills: string[];
  zone: boolean;
  zoneZip: string;
  portalUser: string;
  firstOfDay: boolean;
  hours: string[];
  /** '' = the service's default (50). */
  max: string;
  ignoreCapacity: boolean;
  /** Not inputs: where the form's check puts the problems of the place's and coordinates' inputs. */
  place?: never;
  coordinates?: never;
}

/** The form's inputs, as named in the page (the targets of the errors). */
export type PlannerField =
  | 'wo'
  | 'type'
  | 'place'
  | 'coordinates'
  | 'ranges'
  | 'date'
  | 'offices'
  | 'areas'
  | 'areaScope'
  | 'skills'
  | 'zoneZip'
  | 'portalUser'
  | 'hours'
  | 'max';

/** Tomorrow 00:00 to 7 days later, in the display zone: the period a new search starts with. */
export function defaultRange(now: number, timeZone: string): RangeValues {
  const tomorrow = addDays(zoned(now, timeZone).date, 1);
  return { start: `${tomorrow}T00:00`, end: `${addDays(tomorrow, 7)}T00:00` };
}

const splitRange = (r: string) => {
  const [start = '', end = ''] = r.split('/');
  return { start, end };
};

/** The form showing a URL's search (ranges moved from UTC to the display zone). */
export function formFromSearch(s: PlannerSearch, timeZone: string, now: number): PlannerFormValues {
  const ranges = (s.ranges ?? []).map((r) => {
    const { start, end } = splitRange(r);
    const local = (x: string) => {
      const ms = fromApiDateTime(x);
      return ms === null ? x : toLocalInput(ms, timeZone);
    };
    return { start: local(start), end: local(end) };
  });
  return {
    target:
      s.wo || !(s.address || s.zip || s.city || s.lat !== undefined || s.lon !== undefined)
        ? 'workOrder'
        : 'place',
    wo: s.wo ?? '',
    type: s.type ?? '',
    address: s.address ?? '',
    zip: s.zip ?? '',
    city: s.city ?? '',
    country: s.country ?? '',
    lat: s.lat === undefined ? '' : String(s.lat),
    lon: s.lon === undefined ? '' : String(s.lon),
    period: s.period ?? (s.date && !s.ranges ? 'date' : 'ranges'),
    ranges: ranges.length ? ranges : s.period ? [] : [defaultRange(now, timeZone)],
    date: s.date ?? '',
    offices: s.offices ?? [],
    areas: s.areas ?? [],
    areaScope: s.areaScope ?? '',
    skills: s.skills ?? [],
    zone: !!s.zone,
    zoneZip: s.zoneZip ?? '',
    portalUser: s.portalUser ?? '',
    firstOfDay: !!s.firstOfDay,
    hours: s.hours ?? [],
    max: s.max === undefined ? '' : String(s.max),
    ignoreCapacity: !!s.ignoreCapacity,
  };
}

const blank = (s: string) => {
  const v = s.trim();
  return v === '' ? undefined : v;
};
const numberOrText = (s: string): number | undefined => {
  const v = s.trim();
  if (v === '') return undefined;
  const n = Number(v.replace(',', '.'));
  return Number.isFinite(n) ? n : Number.NaN;
};

/** A range of the form in UTC for the URL; a text that is not a time is kept (the check says so). */
function rangeToUtc(r: RangeValues, timeZone: string): string {
  const utc = (x: string) => {
    const ms = fromLocalInput(x, timeZone);
    return ms === null ? x.trim() : toApiDateTime(ms);
  };
  return `${utc(r.start)}/${utc(r.end)}`;
}

/** The URL of a search (the Search button): only what was given, in UTC. */
export function searchFromForm(v: PlannerFormValues, timeZone: string, view?: 'list'): PlannerSearch {
  const place = v.target === 'place';
  const lat = place ? numberOrText(v.lat) : undefined;
  const lon = place ? numberOrText(v.lon) : undefined;
  const s: PlannerSearch = {
    wo: place ? undefined : blank(v.wo)?.toUpperCase(),
    type: blank(v.type)?.toUpperCase(),
    address: place ? blank(v.address) : undefined,
    zip: place ? blank(v.zip) : undefined,
    city: place ? blank(v.city) : undefined,
    country: place ? blank(v.country)?.toUpperCase() : undefined,
    // NaN does not survive the URL: a text that is no number stays out (the check refused it).
    lat: lat !== undefined && !Number.isNaN(lat) ? lat : undefined,
    lon: lon !== undefined && !Number.isNaN(lon) ? lon : undefined,
    period: v.period,
    ranges:
      v.period === 'ranges'
        ? v.ranges.filter((r) => r.start.trim() || r.end.trim()).map((r) => rangeToUtc(r, timeZone))
        : undefined,
    date: v.period === 'date' ? blank(v.date) : undefined,
    offices: v.offices.length ? v.offices : undefined,
    areas: v.areas.length ? v.areas : undefined,
    areaScope: blank(v.areaScope),
    skills: v.skills.length ? v.skills : undefined,
    zone: v.zone || undefined,
    zoneZip: blank(v.zoneZip),
    portalUser: blank(v.portalUser),
    firstOfDay: v.firstOfDay || undefined,
    hours: v.hours.length ? [...new Set(v.hours)].sort() : undefined,
    max: v.max.trim() === '' ? undefined : Number(v.max),
    ignoreCapacity: v.ignoreCapacity || undefined,
    view,
  };
  if (s.ranges && s.ranges.length === 0) delete s.ranges;
  return Object.fromEntries(Object.entries(s).filter(([, x]) => x !== undefined)) as PlannerSearch;
}

/** The planner's cap of slots per technician, unless the URL gives one (`perTech`). */
export const PLANNER_SLOTS_PER_TECHNICIAN = 5;

/** The body of the slot search for a URL's search: the fields given, and the per-technician cap. */
export function requestFromSearch(s: PlannerSearch): SlotSearchSent {
  const body: SlotSearchSent = {};
  if (s.type) body.workOrderType = { code: s.type };
  if (s.wo) body.workOrder = { code: s.wo };
  if (s.period !== 'date' && s.ranges?.length) body.timeRanges = s.ranges.map(splitRange);
  if (s.period === 'date' && s.date) body.availabilities = { appointmentDate: s.date };
  if (s.offices?.length) body.offices = { codes: s.offices };
  if (s.skills?.length) body.skills = { codes: s.skills };
  if (s.areas?.length) body.areas = { codes: s.areas };
  if (s.areaScope) body.areaScope = s.areaScope;
  if (s.zone) body.enableZoneFilter = true;
  if (s.zoneZip) body.zipCode = s.zoneZip;
  if (s.portalUser) body.customerPortalUser = s.portalUser;
  if (s.firstOfDay) body.perResource = 'FIRST_OF_THE_DAY';
  if (s.hours?.length) body.startingHours = { values: s.hours };
  if (s.max !== undefined) body.maximumSlotNumber = s.max;
  // The offers spread across technicians (issue 27, 11): the best few of each, not 50 of the
  // best placed one. FIRST_OF_THE_DAY spreads them already (one a technician and day).
  if (!s.firstOfDay) body.maximumSlotsPerTechnician = s.perTech ?? PLANNER_SLOTS_PER_TECHNICIAN;
  const location = {
    address: s.address,
    zipCode: s.zip,
    city: s.city,
    country: s.country,
    latitude: s.lat,
    longitude: s.lon,
  };
  if (!s.wo && Object.values(location).some((x) => x !== undefined))
    body.location = Object.fromEntries(Object.entries(location).filter(([, x]) => x !== undefined));
  if (s.ignoreCapacity)
    body.schedulerRequirements = { workingHours: { ignoreFieldResourceCapacityModel: true } };
  return body;
}

/**
 * The span of the search, as instants (for the timeline), when it can be told. An
 * appointment date is that day in the display zone (each technician's local day, which the
 * service searches, is what a planner of that zone calls that day).
 */
export function periodOf(s: PlannerSearch, timeZone: string): { start: number; end: number } | null {
  if (s.period === 'date' && s.date) {
    if (!isDate(s.date)) return null;
    const start = fromLocalInput(`${s.date}T00:00`, timeZone);
    const end = fromLocalInput(`${addDays(s.date, 1)}T00:00`, timeZone);
    return start === null || end === null ? null : { start, end };
  }
  const ends = (s.ranges ?? [])
    .map(splitRange)
    .map((r) => [fromApiDateTime(r.start), fromApiDateTime(r.end)]);
  const starts = ends.map(([a]) => a).filter((x): x is number => x !== null);
  const stops = ends.map(([, b]) => b).filter((x): x is number => x !== null);
  if (!starts.length || !stops.length) return null;
  return { start: Math.min(...starts), end: Math.max(...stops) };
}

/** A problem the form finds before sending: the input, and the message (zod's, or a key). */
export interface FormProblem {
  field: PlannerField;
  message: string;
}

/** The input a request path (of a zod issue) comes from. */
export function fieldOfPath(path: readonly PropertyKey[], target: PlannerTarget): PlannerField | null {
  const [head, sub] = path;
  switch (head) {
    case 'workOrderType':
      return 'type';
    case 'workOrder':
      return 'wo';
    case 'timeRanges':
      return 'ranges';
    case 'availabilities':
      return 'date';
    case 'offices':
      return 'offices';
    case 'skills':
      return 'skills';
    case 'areas':
      return 'areas';
    case 'areaScope':
      return 'areaScope';
    case 'zipCode':
      return 'zoneZip';
    case 'customerPortalUser':
      return 'portalUser';
    case 'startingHours':
      return 'hours';
    case 'maximumSlotNumber':
      return 'max';
    case 'location':
      if (target === 'workOrder') return 'wo';
      return sub === 'latitude' || sub === 'longitude' ? 'coordinates' : 'place';
    default:
      return null;
  }
}

/**
 * What the form finds wrong before sending (shapes, not business rules: those are the
 * service's, with every problem listed at once): the request the form would send, parsed by
 * the contract's schema, plus the texts that are no time, date or number.
 */
export function checkForm(
  v: PlannerFormValues,
  timeZone: string,
  errorMap?: (issue: z.core.$ZodRawIssue) => string | undefined,
): FormProblem[] {
  const problems: FormProblem[] = [];
  const s = searchFromForm(v, timeZone);
  if (v.target === 'place') {
    for (const x of [v.lat, v.lon])
      if (x.trim() !== '' && Number.isNaN(numberOrText(x)))
        problems.push({ field: 'coordinates', message: 'planning:check.number' });
  }
  if (v.max.trim() !== '' && !/^\d+$/.test(v.max.trim()))
    problems.push({ field: 'max', message: 'planning:check.integer' });
  if (v.period === 'ranges')
    for (const r of v.ranges)
      for (const x of [r.start, r.end])
        if (x.trim() !== '' && fromLocalInput(x.trim(), timeZone) === null)
          problems.push({ field: 'ranges', message: 'planning:check.dateTime' });
  if (v.hours.some((h) => !/^([01]\d|2[0-3]):[0-5]\d$/.test(h.trim())))
    problems.push({ field: 'hours', message: 'planning:check.hour' });
  if (v.period === 'date' && v.date.trim() !== '' && !isDate(v.date.trim()))
    problems.push({ field: 'date', message: 'planning:check.date' });
  const parsed = SlotSearchRequest.safeParse(
    requestFromSearch(s),
    errorMap ? { error: errorMap } : undefined,
  );
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = fieldOfPath(issue.path, v.target);
      if (field && !problems.some((p) => p.field === field)) problems.push({ field, message: issue.message });
    }
  return problems;
}
