/**
 * Rules of the slot search (spec endpoint 5, issue 12): every business rule of the request,
 * all errors found listed at once; then the candidates' calendars in one query and the
 * engine in memory.
 */

import { sql } from 'kysely';
import { foldCode } from '../../../contract/common.ts';
import {
  DEFAULT_SLOT_NUMBER,
  MAX_PERIOD_WEEKS,
  MAXIMUM_SLOT_NUMBER,
  SLOT_ERRORS,
  type SlotErrorCode,
  type SlotSearchRequest,
  type SlotSearchResponse,
  SlotsCodes,
  type WorkOrderNeeds,
} from '../../../contract/slots.ts';
import type { Db } from '../../db/index.ts';
import { ApiError, badRequest, type ErrorItem, notFound } from '../../platform/errors.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import { rfc3339 } from '../../platform/time.ts';
import { findWorkOrder, workOrderTypeByCode } from '../fieldService/index.ts';
import { DAY, MINUTE, minutesOf, unknownCodes } from '../rostering/index.ts';
import { type EngineSlot, searchSlots } from './engine.ts';
import { type Geocoder, offlineGazetteer } from './geocoder.ts';
import {
  type CandidatePeriod,
  type CandidateRow,
  candidateCalendars,
  normaliseZip,
  officePaths,
  portalUserPath,
  type SearchWorkOrder,
  searchReferences,
} from './queries.ts';
import { greatCircleRoadModel, type Point, type RoadModel } from './road.ts';

const WEEK = 7 * DAY;

export interface SlotServices {
  geocoder: Geocoder;
  road: RoadModel;
  now: () => number;
}
export const defaultServices: SlotServices = {
  geocoder: offlineGazetteer,
  road: greatCircleRoadModel,
  now: () => Date.now(),
};

const business = (code: SlotErrorCode, detail?: string): ErrorItem => ({
  code,
  message: detail ? `${SLOT_ERRORS[code].message} ${detail}` : SLOT_ERRORS[code].message,
});
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const upper = (xs: readonly string[]) => [...new Set(xs.map(foldCode))];

/** The rules that need no database: each broken one adds its code. */
export function staticErrors(req: SlotSearchRequest, now: number): ErrorItem[] {
  const errors: ErrorItem[] = [];
  const ranges = req.timeRanges ?? [];
  const appointment = req.availabilities?.appointmentDate ?? null;
  const firstOfTheDay = req.perResource === 'FIRST_OF_THE_DAY';
  if (!req.workOrderType?.code) errors.push(business('1001'));
  if (ranges.length === 0 && !appointment) errors.push(business('1002'));
  if (req.enableZoneFilter && !req.zipCode) errors.push(business('1003'));
  const minute = Math.floor(now / MINUTE) * MINUTE;
  const today = Math.floor(now / DAY) * DAY;
  if (ranges.some((r) => r.start.getTime() < minute) || (appointment && Date.parse(appointment) < today))
    errors.push(business('2003'));
  if (ranges.some((r) => r.end < r.start)) errors.push(business('2004'));
  if (ranges.length) {
    const from = Math.min(...ranges.map((r) => r.start.getTime()));
    const to = Math.max(...ranges.map((r) => r.end.getTime()));
    if (to - from > MAX_PERIOD_WEEKS * WEEK) errors.push(business('2005'));
  }
  if (req.offices?.codes && req.offices.ids) errors.push(business('2006'));
  if ((req.maximumSlotNumber ?? 0) > MAXIMUM_SLOT_NUMBER) errors.push(business('2008'));
  if (req.skills?.codes && req.skills.ids) errors.push(business('2009'));
  if (req.workOrder?.code && req.workOrder.id) errors.push(business('2010'));
  if (req.areaScope != null && req.areaScope !== 'RESOURCE' && req.areaScope !== 'TIMESLOT')
    errors.push(business('2011'));
  if (req.customerPortalUser && req.areaScope === 'RESOURCE') errors.push(business('2012'));
  if (req.startingHours?.values && firstOfTheDay) errors.push(business('2013'));
  if (appointment && firstOfTheDay) errors.push(business('2014'));
  const lat = req.location?.latitude;
  const lon = req.location?.longitude;
  if (lat != null || lon != null) {
    if (lat == null || lon == null || !(lat > -90 && lat < 90) || !(lon > -180 && lon < 180))
      errors.push(business('3021'));
    else if (lat === 0 && lon === 0) errors.push(business('3022'));
  }
  return errors;
}

interface Resolved {
  type: { code: string; duration_minutes: number; skills: string[] } | undefined;
  workOrder: SearchWorkOrder | null;
  officePaths: string[] | null;
  portalPath: string | null;
  areas: { code: string; zip_codes: string[] }[] | null;
  skills: string[];
  /** The candidates, when read with the references (the usual search: see resolve). */
  candidates: CandidateRow[] | null;
}

type Lookup = { found: SearchWorkOrder } | { ambiguous: unknown } | { missing: true };

/** The technicians must cover one of the areas (area scope RESOURCE, the default with areas). */
const resourceAreas = (req: SlotSearchRequest, areaCodes: string[] | null) =>
  (req.areaScope ?? 'RESOURCE') === 'RESOURCE' ? areaCodes : null;

/** The request's time ranges and appointment day, in epoch milliseconds. */
function requestedTimes(req: SlotSearchRequest) {
  const ranges = (req.timeRanges ?? []).map((x) => ({ start: x.start.getTime(), end: x.end.getTime() }));
  const appointment = req.availabilities?.appointmentDate
    ? Date.parse(req.availabilities.appointmentDate)
    : null;
  return { ranges, appointment };
}

/** The UTC span of the bookings to read: the ranges, or the appointment day with a day each side. */
function periodOf(req: SlotSearchRequest): CandidatePeriod {
  const { ranges, appointment } = requestedTimes(req);
  const from = appointment !== null ? appointment - DAY : Math.min(...ranges.map((x) => x.start));
  const to = appointment !== null ? appointment + 2 * DAY : Math.max(...ranges.map((x) => x.end));
  return { from: new Date(from), to: new Date(to) };
}

/**
 * The references of the request, each checked against the database (in parallel). The usual
 * search (a type and a work order, no office, portal user or zone filter, no error yet) reads
 * the type, the work order and the candidates' calendars in one statement.
 */
async function resolve(
  db: Db,
  scope: OfficeScope,
  req: SlotSearchRequest,
  errors: ErrorItem[],
): Promise<Resolved> {
  const typeCode = req.workOrderType?.code ? foldCode(req.workOrderType.code) : undefined;
  // Offices (or skills) given both ways are 2006 (2009) already: not looked up.
  const officesBoth = !!(req.offices?.codes && req.offices.ids);
  const officeCodes = req.offices?.codes && !officesBoth ? upper(req.offices.codes) : null;
  const officeIds = req.offices?.ids && !officesBoth ? [...new Set(req.offices.ids.map(String))] : null;
  const areaCodes = req.areas ? upper(req.areas.codes) : null;
  const skillCodes =
    req.skills?.codes && req.skills.ids ? [] : upper(req.skills?.codes ?? req.skills?.ids ?? []);
  // Both code and id is 2010; an id that is not a uuid names no work order.
  const both = !!(req.workOrder?.code && req.workOrder.id);
  const uuid = req.workOrder?.id?.toLowerCase();

  // The type and the work order together when both are named (the usual search), with the
  // calendars when their filters need nothing looked up first.
  const ref = both
    ? null
    : req.workOrder?.code
      ? { code: foldCode(req.workOrder.code) }
      : uuid && UUID.test(uuid)
        ? { uuid }
        : null;
  const withCalendars =
    errors.length === 0 && !req.offices && !req.customerPortalUser && !(req.enableZoneFilter && req.zipCode);
  const together =
    typeCode && ref
      ? searchReferences(
          db,
          scope,
          typeCode,
          ref,
          withCalendars
            ? {
                officePaths: null,
                portalPath: null,
                skills: skillCodes,
                areas: resourceAreas(req, areaCodes),
                ...periodOf(req),
              }
            : null,
        )
      : null;
  const lookup: Promise<Lookup> | null = together
    ? together.then((x) =>
        !x.workOrder
          ? { missing: true }
          : x.workOrder.live > 1
            ? { ambiguous: true }
            : { found: x.workOrder.row },
      )
    : ref
      ? findWorkOrder(db, scope, ref)
      : uuid && !both
        ? Promise.resolve({ missing: true })
        : null;

  const [type, offices, areas, unknownSkills, workOrder, portalPath] = await Promise.all([
    together ? together.then((x) => x.type) : typeCode ? workOrderTypeByCode(db, typeCode) : undefined,
    officeCodes || officeIds
      ? officePaths(db, scope, officeCodes ? { codes: officeCodes } : { ids: officeIds ?? [] })
      : null,
    areaCodes
      ? db
          .selectFrom('areas')
          .select(['code', 'zip_codes'])
          .where('code', 'in', areaCodes.length ? areaCodes : [''])
          .execute()
      : null,
    unknownCodes(db, 'skills', skillCodes),
    lookup,
    req.customerPortalUser ? portalUserPath(db, req.customerPortalUser) : null,
  ]);

  if (typeCode && !type) errors.push(business('2001', `(${typeCode})`));
  const wanted = officeCodes ?? officeIds;
  if (wanted && offices) {
    const found = new Set(offices.map((o) => o.key));
    const missing = wanted.filter((k) => !found.has(k));
    if (missing.length) errors.push(business('2002', `(${missing.join(', ')})`));
  }
  if (areaCodes && areas) {
    const found = new Set(areas.map((a) => a.code));
    const missing = areaCodes.filter((c) => !found.has(c));
    if (missing.length) errors.push(business('2007', `(${missing.join(', ')})`));
  }
  if (unknownSkills.length)
    errors.push({ code: SlotsCodes.skillUnknown, message: `Unknown skill ${unknownSkills.join(', ')}.` });
  let wo: SearchWorkOrder | null = null;
  if (workOrder) {
    if ('ambiguous' in workOrder)
      errors.push({
        code: SlotsCodes.workOrderAmbiguous,
        message: 'Several live work orders carry this code: name the work order by its id.',
      });
    else if ('missing' in workOrder)
      errors.push({
        code: SlotsCodes.workOrderNotFound,
        message: 'This work order does not exist in your office tree.',
      });
    else wo = workOrder.found;
  }
  if (req.customerPortalUser && portalPath === undefined)
    errors.push({
      code: SlotsCodes.customerPortalUserUnknown,
      message: `The customer portal user ${req.customerPortalUser} does not exist.`,
    });
  return {
    type,
    workOrder: wo,
    officePaths: offices ? offices.map((o) => o.path) : null,
    portalPath: portalPath ?? null,
    areas,
    skills: skillCodes,
    candidates: together ? await together.then((x) => x.candidates) : null,
  };
}

/** Where the work is: coordinates given, else the address, else the work order, else the zip code. */
async function locate(
  db: Db,
  geocoder: Geocoder,
  req: Pick<SlotSearchRequest, 'location' | 'zipCode'>,
  wo: SearchWorkOrder | null,
): Promise<{ point: Point; source: SlotSearchResponse['target']['source'] } | null> {
  const l = req.location;
  if (l?.latitude != null && l.longitude != null)
    return { point: { latitude: l.latitude, longitude: l.longitude }, source: 'coordinates' };
  if (l && (l.address || l.zipCode || l.city)) {
    const p = await geocoder.geocode(db, l);
    return p ? { point: p, source: 'gazetteer' } : null;
  }
  if (wo?.latitude != null && wo.longitude != null)
    return { point: { latitude: wo.latitude, longitude: wo.longitude }, source: 'workOrder' };
  if (wo && (wo.zip_code || wo.city || wo.address)) {
    const p = await geocoder.geocode(db, {
      address: wo.address,
      zipCode: wo.zip_code,
      city: wo.city,
      country: wo.country,
    });
    if (p) return { point: p, source: 'gazetteer' };
  }
  if (req.zipCode) {
    const p = await geocoder.geocode(db, { zipCode: req.zipCode, country: l?.country });
    if (p) return { point: p, source: 'gazetteer' };
  }
  return null;
}

/**
 * Extension for the planner: what a slot search for this work order uses (its type's
 * duration and skills, its place, and where the search locates it), from the same lookups
 * as the search.
 */
export async function workOrderNeeds(
  db: Db,
  scope: OfficeScope,
  code: string,
  services: SlotServices = defaultServices,
): Promise<WorkOrderNeeds> {
  const found = await findWorkOrder(db, scope, { code: foldCode(code) });
  if ('missing' in found)
    throw notFound(SlotsCodes.workOrderNotFound, 'This work order does not exist in your office tree.');
  if ('ambiguous' in found)
    throw badRequest(
      SlotsCodes.workOrderAmbiguous,
      'Several live work orders carry this code: name the work order by its id.',
    );
  const wo = found.found;
  const [type, target] = await Promise.all([
    workOrderTypeByCode(db, wo.type_code),
    locate(db, services.geocoder, {}, wo),
  ]);
  if (!type) throw new Error(`work order ${wo.code} has no type ${wo.type_code}`);
  return {
    workOrderCode: wo.code,
    uuid: wo.uuid,
    status: wo.status,
    officeCode: wo.office_code,
    workOrderType: {
      workOrderTypeCode: type.code,
      name: type.name,
      durationMinutes: type.duration_minutes,
      skills: [...type.skills].sort(),
    },
    location: {
      address: wo.address,
      zipCode: wo.zip_code,
      city: wo.city,
      country: wo.country,
      latitude: wo.latitude,
      longitude: wo.longitude,
    },
    target: target
      ? { ...target.point, source: target.source === 'workOrder' ? 'workOrder' : 'gazetteer' }
      : null,
  };
}

export async function search(
  db: Db,
  scope: OfficeScope,
  req: SlotSearchRequest,
  services: SlotServices = defaultServices,
): Promise<SlotSearchResponse> {
  const now = services.now();
  const errors = staticErrors(req, now);
  const r = await resolve(db, scope, req, errors);
  const coordinatesRefused = errors.some((e) => e.code === '3021' || e.code === '3022');
  const target = coordinatesRefused ? null : await locate(db, services.geocoder, req, r.workOrder);
  if (!target && !coordinatesRefused) errors.push(business('3011'));
  if (errors.length || !target || !r.type) throw new ApiError(400, errors);

  // Area scope: RESOURCE (the default with areas) keeps the technicians covering an area;
  // TIMESLOT keeps the days whose work orders all lie in the areas' zip codes.
  const areaScope = req.areaScope ?? (r.areas ? 'RESOURCE' : null);
  const { ranges, appointment } = requestedTimes(req);
  const candidates = r.candidates ?? (await filteredCandidates(db, scope, req, r, r.type.skills));
  const byTechnician = new Map(candidates.map((c) => [c.code, c.bookings]));
  const timeslotZips =
    areaScope === 'TIMESLOT' && r.areas
      ? new Set(r.areas.flatMap((a) => a.zip_codes.map(normaliseZip)))
      : null;

  const result = searchSlots({
    technicians: candidates.map((c) => ({
      code: c.code,
      timeZone: c.time_zone,
      workingHours: c.working_hours,
      absences: c.absences.map((a) => ({ start: Date.parse(a.start), end: Date.parse(a.end) })),
      home:
        c.home_latitude != null && c.home_longitude != null
          ? { latitude: c.home_latitude, longitude: c.home_longitude }
          : null,
      maxWorkOrdersPerDay: c.max_work_orders_per_day,
      maxMinutesPerDay: c.max_minutes_per_day,
    })),
    bookings: byTechnician,
    target: target.point,
    durationMinutes: r.type.duration_minutes,
    ranges: ranges.length ? ranges : null,
    appointmentDate: appointment,
    firstOfTheDay: req.perResource === 'FIRST_OF_THE_DAY',
    startingHours: req.startingHours?.values ? [...new Set(req.startingHours.values.map(minutesOf))] : null,
    maximumSlotNumber: req.maximumSlotNumber ?? DEFAULT_SLOT_NUMBER,
    ignoreCapacity: req.schedulerRequirements?.workingHours?.ignoreFieldResourceCapacityModel === true,
    dayAllowed: timeslotZips
      ? (day) => day.every((b) => b.zipCode !== null && timeslotZips.has(normaliseZip(b.zipCode)))
      : undefined,
    road: services.road,
    now,
  });

  // Travel failed for every candidate: the search itself cannot be answered.
  const failed = result.skipped.noRoute + result.skipped.unavailable;
  if (result.candidates > 0 && failed === result.candidates)
    throw new ApiError(400, [business(result.skipped.noRoute > 0 ? '3032' : '3031')]);

  return {
    slots: result.slots.map(toSlot),
    target: { ...target.point, source: target.source },
  };
}

/** The candidates' calendars when resolve did not read them (office, portal user or zone filter). */
async function filteredCandidates(
  db: Db,
  scope: OfficeScope,
  req: SlotSearchRequest,
  r: Resolved,
  typeSkills: string[],
): Promise<CandidateRow[]> {
  const zoneAreas = req.enableZoneFilter && req.zipCode ? await areasOfZip(db, req.zipCode) : null;
  let areas = resourceAreas(req, r.areas ? r.areas.map((a) => a.code) : null);
  if (zoneAreas) areas = areas ? areas.filter((a) => zoneAreas.includes(a)) : zoneAreas;
  return candidateCalendars(
    db,
    scope,
    {
      officePaths: r.officePaths,
      portalPath: r.portalPath,
      skills: [...new Set([...typeSkills, ...r.skills])],
      areas,
    },
    { ...periodOf(req), excludeUuid: r.workOrder?.uuid ?? null },
  );
}

async function areasOfZip(db: Db, zipCode: string): Promise<string[]> {
  const rows = await db
    .selectFrom('areas')
    .select('code')
    .where(sql<boolean>`${normaliseZip(zipCode)} = ANY(zip_codes)`)
    .execute();
  return rows.map((a) => a.code);
}

/** Days already written as `YYYY-MM-DDT`, by day number since the epoch. */
const dayTexts = new Map<number, string>();
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
/** The last instant written by the fast path: 9999-12-31T23:59:59.999Z. */
const LAST_FOUR_DIGIT_YEAR = 253_402_300_799_999;

/**
 * `rfc3339` of an instant in ms, faster: a search writes 40 instants, and `toISOString` cost
 * about 1 us each (as much as the engine's work for a small team); here the date part is
 * written once per day and the time from a table of two-digit texts.
 */
export function utcText(ms: number): string {
  if (!(ms >= 0 && ms <= LAST_FOUR_DIGIT_YEAR)) return rfc3339(new Date(ms));
  const day = Math.floor(ms / DAY);
  let date = dayTexts.get(day);
  if (date === undefined) {
    if (dayTexts.size > 10_000) dayTexts.clear();
    date = new Date(day * DAY).toISOString().slice(0, 11);
    dayTexts.set(day, date);
  }
  const s = Math.floor((ms - day * DAY) / 1000);
  return `${date}${TWO_DIGITS[Math.floor(s / 3600)]}:${TWO_DIGITS[Math.floor(s / 60) % 60]}:${TWO_DIGITS[s % 60]}Z`;
}

const toSlot = (s: EngineSlot) => ({
  start: utcText(s.start),
  end: utcText(s.end),
  technicians: [s.technicianCode],
  travelBefore: s.travelBefore,
  travelAfter: s.travelAfter,
  score: s.score,
  scoreDetails: s.scoreDetails,
});
