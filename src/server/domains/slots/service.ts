/**
 * Rules of the slot search (spec endpoint 5, issue 12): every business rule of the request,
 * all errors found listed at once; then the candidates (with their calendars' stamps) in the
 * same statement as the references, their days from the calendar index, and the engine in
 * memory; with `explain`, why each technician left out is (explain.ts).
 */

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
import { findWorkOrder, workOrderTypeByCode } from '../fieldService/index.ts';
import { DAY, type Interval, MINUTE, minutesOf, unknownCodes } from '../rostering/index.ts';
import { CalendarIndex } from './calendarIndex.ts';
import type { TechnicianDays } from './days.ts';
import { type EngineRequest, type EngineSlot, searchSlots } from './engine.ts';
import { explainExclusions } from './explain.ts';
import { type Geocoder, offlineGazetteer } from './geocoder.ts';
import {
  areasByCodes,
  areasOfZip,
  normaliseZip,
  officePaths,
  portalUserPath,
  type SearchCandidate,
  type SearchWorkOrder,
  searchCandidates,
  searchReferences,
  type WorkOrderTypeRow,
} from './queries.ts';
import { greatCircleRoadModel, type Point, type RoadModel } from './road.ts';
import { utcText } from './utcText.ts';

const WEEK = 7 * DAY;

export interface SlotServices {
  geocoder: Geocoder;
  road: RoadModel;
  now: () => number;
  /** The process's calendar index (null: every search reads its candidates' calendars). */
  index?: CalendarIndex | null;
}
export const defaultServices: SlotServices = {
  geocoder: offlineGazetteer,
  road: greatCircleRoadModel,
  now: () => Date.now(),
};

export const business = (code: SlotErrorCode, detail?: string): ErrorItem => ({
  code,
  message: detail ? `${SLOT_ERRORS[code].message} ${detail}` : SLOT_ERRORS[code].message,
});
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
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

/** The codes a request names, folded, each rule about giving them both ways applied. */
interface Named {
  typeCode: string | undefined;
  /** Offices (or skills) given both ways are 2006 (2009) already: not looked up. */
  officeCodes: string[] | null;
  officeIds: string[] | null;
  areaCodes: string[] | null;
  skillCodes: string[];
  /** The work order by code or uuid; both is 2010, an id that is not a uuid names none. */
  workOrder: { code: string } | { uuid: string } | 'none' | null;
}

function namedIn(req: SlotSearchRequest): Named {
  const officesBoth = !!(req.offices?.codes && req.offices.ids);
  const uuid = req.workOrder?.id?.toLowerCase();
  return {
    typeCode: req.workOrderType?.code ? foldCode(req.workOrderType.code) : undefined,
    officeCodes: req.offices?.codes && !officesBoth ? upper(req.offices.codes) : null,
    officeIds: req.offices?.ids && !officesBoth ? [...new Set(req.offices.ids.map(String))] : null,
    areaCodes: req.areas ? upper(req.areas.codes) : null,
    skillCodes: req.skills?.codes && req.skills.ids ? [] : upper(req.skills?.codes ?? req.skills?.ids ?? []),
    workOrder:
      req.workOrder?.code && req.workOrder.id
        ? null
        : req.workOrder?.code
          ? { code: foldCode(req.workOrder.code) }
          : uuid
            ? UUID.test(uuid)
              ? { uuid }
              : 'none'
            : null,
  };
}

interface Resolved {
  type: WorkOrderTypeRow | undefined;
  workOrder: SearchWorkOrder | null;
  officePaths: string[] | null;
  portalPath: string | null;
  areas: { code: string; zip_codes: string[] }[] | null;
  skills: string[];
  /** The candidates, when read with the references (the usual search: see readReferences). */
  candidates: SearchCandidate[] | null;
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

/** The span of the work orders a search sees: the ranges, or the appointment day with a day each side. */
function visibleSpan(req: SlotSearchRequest): Interval {
  const { ranges, appointment } = requestedTimes(req);
  return appointment !== null
    ? { start: appointment - DAY, end: appointment + 2 * DAY }
    : { start: Math.min(...ranges.map((x) => x.start)), end: Math.max(...ranges.map((x) => x.end)) };
}

/**
 * Reads what the request names, in parallel. The usual search (a type and a work order, no
 * office, portal user or zone filter, no error yet) reads the type, the work order and the
 * candidates in one statement.
 */
async function readReferences(
  db: Db,
  scope: OfficeScope,
  req: SlotSearchRequest,
  named: Named,
  withCandidates: boolean,
) {
  const ref = named.workOrder === 'none' ? null : named.workOrder;
  const together =
    named.typeCode && ref
      ? searchReferences(
          db,
          scope,
          named.typeCode,
          ref,
          withCandidates
            ? {
                officePaths: null,
                portalPath: null,
                skills: named.skillCodes,
                areas: resourceAreas(req, named.areaCodes),
                everyone: req.explain === true,
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
      : named.workOrder === 'none'
        ? Promise.resolve({ missing: true })
        : null;
  const wanted = named.officeCodes
    ? { codes: named.officeCodes }
    : named.officeIds
      ? { ids: named.officeIds }
      : null;
  const [type, offices, areas, unknownSkills, workOrder, portalPath, candidates] = await Promise.all([
    together
      ? together.then((x) => x.type)
      : named.typeCode
        ? workOrderTypeByCode(db, named.typeCode)
        : undefined,
    wanted ? officePaths(db, scope, wanted) : null,
    named.areaCodes ? areasByCodes(db, named.areaCodes) : null,
    unknownCodes(db, 'skills', named.skillCodes),
    lookup,
    req.customerPortalUser ? portalUserPath(db, scope, req.customerPortalUser) : null,
    together ? together.then((x) => x.candidates) : null,
  ]);
  return { type, offices, areas, unknownSkills, workOrder, portalPath, candidates };
}

/** The references of the request, each checked against the database: each unknown one adds its code. */
async function resolve(
  db: Db,
  scope: OfficeScope,
  req: SlotSearchRequest,
  errors: ErrorItem[],
): Promise<Resolved> {
  const named = namedIn(req);
  const withCandidates =
    errors.length === 0 && !req.offices && !req.customerPortalUser && !(req.enableZoneFilter && req.zipCode);
  const found = await readReferences(db, scope, req, named, withCandidates);
  if (named.typeCode && !found.type) errors.push(business('2001', `(${named.typeCode})`));
  const wanted = named.officeCodes ?? named.officeIds;
  if (wanted && found.offices)
    errors.push(
      ...missingAs(
        '2002',
        wanted,
        found.offices.map((o) => o.key),
      ),
    );
  if (named.areaCodes && found.areas)
    errors.push(
      ...missingAs(
        '2007',
        named.areaCodes,
        found.areas.map((a) => a.code),
      ),
    );
  if (found.unknownSkills.length)
    errors.push({
      code: SlotsCodes.skillUnknown,
      message: `Unknown skill ${found.unknownSkills.join(', ')}.`,
    });
  const workOrder = found.workOrder && workOrderOf(found.workOrder, errors);
  if (req.customerPortalUser && found.portalPath === undefined)
    errors.push({
      code: SlotsCodes.customerPortalUserUnknown,
      message: `The customer portal user ${req.customerPortalUser} does not exist.`,
    });
  return {
    type: found.type,
    workOrder: workOrder ?? null,
    officePaths: found.offices ? found.offices.map((o) => o.path) : null,
    portalPath: found.portalPath ?? null,
    areas: found.areas,
    skills: named.skillCodes,
    candidates: found.candidates,
  };
}

/** The codes among `wanted` not `found`, as one error `code` listing them. */
function missingAs(code: SlotErrorCode, wanted: string[], found: string[]): ErrorItem[] {
  const known = new Set(found);
  const missing = wanted.filter((k) => !known.has(k));
  return missing.length ? [business(code, `(${missing.join(', ')})`)] : [];
}

/** The work order named: found, else its error (unknown and outside the tree read the same). */
function workOrderOf(lookup: Lookup, errors: ErrorItem[]): SearchWorkOrder | undefined {
  if ('ambiguous' in lookup)
    errors.push({
      code: SlotsCodes.workOrderAmbiguous,
      message: 'Several live work orders carry this code: name the work order by its id.',
    });
  else if ('missing' in lookup)
    errors.push({
      code: SlotsCodes.workOrderNotFound,
      message: 'This work order does not exist in your office tree.',
    });
  else return lookup.found;
  return undefined;
}

/** Where the work is: coordinates given, else the address, else the work order, else the zip code. */
export async function locate(
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

  const needed = [...new Set([...r.type.skills, ...r.skills])];
  const areas = await candidateAreas(db, req, r);
  const everyone = r.candidates ?? (await filteredCandidates(db, scope, req, r, needed, areas));
  // Explain reads every technician of the offices: the candidates are those the filters keep.
  const candidates = req.explain ? everyone.filter((c) => !filteredOut(c, needed, areas)) : everyone;
  const visible = visibleSpan(req);
  const calendars = await calendarsOf(
    db,
    scope,
    services.index ?? null,
    candidates,
    visible,
    now,
    r.workOrder,
  );
  const engine = engineRequest(req, r, target.point, calendars, visible, services, now);
  const result = searchSlots(engine);

  // Travel failed for every candidate: the search itself cannot be answered.
  const failed = result.skipped.noRoute + result.skipped.unavailable;
  if (result.candidates > 0 && failed === result.candidates)
    throw new ApiError(400, [business(result.skipped.noRoute > 0 ? '3032' : '3031')]);

  const answer: SlotSearchResponse = {
    slots: result.slots.map(toSlot),
    target: { ...target.point, source: target.source },
  };
  if (req.explain) answer.excluded = explainExclusions({ everyone, needed, areas, result, engine });
  return answer;
}

/**
 * Area scope: RESOURCE (the default with areas) keeps the technicians covering an area;
 * TIMESLOT keeps the days whose work orders all lie in the areas' zip codes.
 */
const areaScopeOf = (req: SlotSearchRequest, r: Resolved) => req.areaScope ?? (r.areas ? 'RESOURCE' : null);

/** The areas a candidate must cover: those of area scope RESOURCE, narrowed by the zone filter. */
async function candidateAreas(db: Db, req: SlotSearchRequest, r: Resolved): Promise<string[] | null> {
  const zoneAreas = req.enableZoneFilter && req.zipCode ? await areasOfZip(db, req.zipCode) : null;
  const areas = resourceAreas(req, r.areas ? r.areas.map((a) => a.code) : null);
  if (!zoneAreas) return areas;
  return areas ? areas.filter((a) => zoneAreas.includes(a)) : zoneAreas;
}

/** The candidates when resolve did not read them (office, portal user or zone filter). */
function filteredCandidates(
  db: Db,
  scope: OfficeScope,
  req: SlotSearchRequest,
  r: Resolved,
  skills: string[],
  areas: string[] | null,
): Promise<SearchCandidate[]> {
  return searchCandidates(db, scope, {
    officePaths: r.officePaths,
    portalPath: r.portalPath,
    skills,
    areas,
    everyone: req.explain === true,
  });
}

/** Explain reads every technician of the offices: those the search's filters leave out. */
const filteredOut = (c: SearchCandidate, needed: string[], areas: string[] | null) =>
  c.active === false ||
  needed.some((s) => !c.skills?.includes(s)) ||
  (areas !== null && !c.areas?.some((a) => areas.includes(a)));

/**
 * The candidates' days: from the calendar index (read again for those whose stamp moved),
 * else read for this search; the work order being placed is not its own obstacle.
 */
async function calendarsOf(
  db: Db,
  scope: OfficeScope,
  index: CalendarIndex | null,
  candidates: SearchCandidate[],
  visible: Interval,
  now: number,
  placed: SearchWorkOrder | null,
): Promise<TechnicianDays[]> {
  const days = await (index ?? new CalendarIndex()).daysOf(db, scope, candidates, visible, now);
  const out: TechnicianDays[] = [];
  for (const c of candidates) {
    const d = days.get(c.code);
    if (!d) continue;
    out.push(placed && placed.technician_code === c.code ? d.without(placed.uuid) : d);
  }
  return out;
}

function engineRequest(
  req: SlotSearchRequest,
  r: Resolved,
  target: Point,
  calendars: TechnicianDays[],
  visible: Interval,
  services: SlotServices,
  now: number,
): EngineRequest {
  const { ranges, appointment } = requestedTimes(req);
  const timeslotZips =
    areaScopeOf(req, r) === 'TIMESLOT' && r.areas
      ? new Set(r.areas.flatMap((a) => a.zip_codes.map(normaliseZip)))
      : null;
  return {
    calendars,
    visible,
    target,
    durationMinutes: (r.type as WorkOrderTypeRow).duration_minutes,
    ranges: ranges.length ? ranges : null,
    appointmentDate: appointment,
    firstOfTheDay: req.perResource === 'FIRST_OF_THE_DAY',
    startingHours: req.startingHours?.values ? [...new Set(req.startingHours.values.map(minutesOf))] : null,
    maximumSlotNumber: req.maximumSlotNumber ?? DEFAULT_SLOT_NUMBER,
    maximumSlotsPerTechnician: req.maximumSlotsPerTechnician ?? null,
    ignoreCapacity: req.schedulerRequirements?.workingHours?.ignoreFieldResourceCapacityModel === true,
    dayAllowed: timeslotZips
      ? (day) => day.every((b) => b.zipCode !== null && timeslotZips.has(normaliseZip(b.zipCode)))
      : undefined,
    road: services.road,
    now,
    everyCandidate: req.explain === true,
  };
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
