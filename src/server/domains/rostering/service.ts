/** Rules of the rostering domain: technicians (field resources), areas and crews. */
import type { Page } from '../../../contract/common.ts';
import {
  AREAS_PAGE_SIZE,
  CREWS_PAGE_SIZE_DEFAULT,
  type Crew,
  DEFAULT_WORKING_HOURS,
  listAreas as listAreasRow,
  listCrews as listCrewsRow,
  listTechnicians as listTechniciansRow,
  RosteringCodes,
  TECHNICIANS_PAGE_SIZE,
  type Technician,
  TechnicianCodes,
  type TechnicianListQuery,
} from '../../../contract/rostering.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { type OfficeScope, officeFilterPath } from '../../platform/officeScope.ts';
import { isString, type PageTokens, pageRequest } from '../../platform/pagination.ts';
import { rfc3339 } from '../../platform/time.ts';
import type { WriteOutcome } from '../../platform/upsert.ts';
import {
  areasAfter,
  crewMembersPage,
  type TechnicianListRow,
  technicianPage,
  technicianWithOffice,
  unknownCodes,
  unknownSkills,
  upsertArea,
  upsertCrew,
  upsertTechnician,
} from './queries.ts';
import type { CrewMemberInput, WorkingHours } from './tables.ts';

export interface TechnicianInput {
  technicianCode: string;
  name: string;
  officeId: string;
  skills?: string[];
  active?: boolean;
  home?: { latitude: number; longitude: number } | null;
  timeZone?: string;
  workingHours?: WorkingHours[];
  absences?: { start: Date; end: Date }[];
  capacity?: { maxWorkOrdersPerDay?: number; maxMinutesPerDay?: number };
  areas?: string[];
}

const sortedSet = (xs: string[] | undefined) => [...new Set(xs ?? [])].sort();

/** Creates or replaces a technician; every skill and area must exist. */
export async function putTechnician(trx: Db, t: TechnicianInput): Promise<WriteOutcome> {
  const skills = sortedSet(t.skills);
  const unknown = await unknownSkills(trx, skills);
  if (unknown.length)
    throw badRequest('rostering.technician.skill.unknown', `Unknown skill ${unknown.join(', ')}`);
  const areas = sortedSet(t.areas);
  const unknownAreas = await unknownCodes(trx, 'areas', areas);
  if (unknownAreas.length)
    throw badRequest('rostering.technician.area.unknown', `Unknown area ${unknownAreas.join(', ')}`);
  return upsertTechnician(trx, {
    code: t.technicianCode,
    name: t.name,
    office_id: t.officeId,
    skills,
    active: t.active ?? true,
    home_latitude: t.home?.latitude ?? null,
    home_longitude: t.home?.longitude ?? null,
    time_zone: t.timeZone ?? 'UTC',
    working_hours: t.workingHours
      ? [...t.workingHours].sort((a, b) => a.weekday - b.weekday || a.start.localeCompare(b.start))
      : null,
    absences: (t.absences ?? [])
      .map((a) => ({ start: a.start.toISOString(), end: a.end.toISOString() }))
      .sort((a, b) => a.start.localeCompare(b.start)),
    max_work_orders_per_day: t.capacity?.maxWorkOrdersPerDay ?? null,
    max_minutes_per_day: t.capacity?.maxMinutesPerDay ?? null,
    areas,
  });
}

export function putArea(trx: Db, a: { areaCode: string; name: string; zipCodes: string[] }) {
  return upsertArea(trx, {
    code: a.areaCode,
    name: a.name,
    zip_codes: sortedSet(a.zipCodes.map((z) => z.toUpperCase())),
  });
}

/** Creates or replaces a crew; its members must exist and the main one is not repeated. */
export async function putCrew(
  trx: Db,
  c: {
    crewCode: string;
    mainResource: CrewMemberInput;
    secondaryResources?: CrewMemberInput[];
    disabledAt?: string | null;
  },
): Promise<WriteOutcome> {
  const secondary = (c.secondaryResources ?? []).map((s) => ({ ...s, to: s.to ?? null }));
  if (secondary.some((s) => s.technicianCode === c.mainResource.technicianCode))
    throw badRequest(
      'rostering.crew.main.repeated',
      `${c.mainResource.technicianCode} is the main resource: it is not repeated among the secondary resources`,
    );
  const codes = [c.mainResource.technicianCode, ...secondary.map((s) => s.technicianCode)];
  const unknown = await unknownCodes(trx, 'technicians', [...new Set(codes)]);
  if (unknown.length)
    throw badRequest('rostering.crew.technician.unknown', `Unknown technician ${unknown.join(', ')}`);
  return upsertCrew(trx, {
    code: c.crewCode,
    disabled_at: c.disabledAt ?? null,
    main: { ...c.mainResource, to: c.mainResource.to ?? null },
    secondary,
  });
}

/** Spec endpoint 6: crews over a period, keyset by crew code, the token bound to the period. */
export async function listCrews(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  q: { crewsStartDate: string; crewsEndDate: string; crewsSize?: number; continuationToken?: string },
): Promise<Page<Crew>> {
  if (q.crewsEndDate < q.crewsStartDate)
    throw badRequest(RosteringCodes.periodInvalid, 'crewsEndDate must not precede crewsStartDate');
  const period = { start: q.crewsStartDate, end: q.crewsEndDate };
  const size = q.crewsSize ?? CREWS_PAGE_SIZE_DEFAULT;
  const request = pageRequest(
    tokens,
    {
      id: listCrewsRow.id,
      filters: period,
      invalidCode: RosteringCodes.continuationTokenInvalid,
      isKey: isString,
    },
    q.continuationToken,
  );
  const rows = await crewMembersPage(db, scope, period, request.after, size + 1);
  const crews: Crew[] = [];
  for (const r of rows) {
    let crew = crews[crews.length - 1];
    if (crew?.crewCode !== r.crew_code) {
      crew = {
        crewCode: r.crew_code,
        mainResource: { technicianCode: '', intervals: [] },
        secondaryResources: [],
      };
      crews.push(crew);
    }
    const interval = { from: r.from_date, to: r.to_date };
    if (r.is_main) {
      crew.mainResource.technicianCode = r.technician_code;
      crew.mainResource.intervals.push(interval);
      continue;
    }
    const last = crew.secondaryResources[crew.secondaryResources.length - 1];
    if (last?.technicianCode === r.technician_code) last.intervals.push(interval);
    else crew.secondaryResources.push({ technicianCode: r.technician_code, intervals: [interval] });
  }
  return request.page(
    crews,
    size,
    (c) => c,
    (c) => c.crewCode,
  );
}

/** Extension: the areas, for the planner's filters. */
export async function listAreas(db: Db, tokens: PageTokens, continuationToken?: string) {
  const request = pageRequest(
    tokens,
    { id: listAreasRow.id, invalidCode: RosteringCodes.continuationTokenInvalid, isKey: isString },
    continuationToken,
  );
  const rows = await areasAfter(db, request.after, AREAS_PAGE_SIZE + 1);
  return request.page(
    rows,
    AREAS_PAGE_SIZE,
    (a) => ({ areaCode: a.code, name: a.name, zipCodes: a.zip_codes }),
    (a) => a.code,
  );
}

/* ---------------- technicians (extensions for the console) ---------------- */

function toTechnician(r: TechnicianListRow): Technician {
  const home =
    r.home_latitude === null || r.home_longitude === null
      ? null
      : { latitude: Number(r.home_latitude), longitude: Number(r.home_longitude) };
  return {
    technicianCode: r.code,
    name: r.name,
    officeCode: r.office_code,
    active: r.active,
    skills: r.skills,
    home,
    timeZone: r.time_zone,
    workingHours: (r.working_hours as WorkingHours[] | null) ?? DEFAULT_WORKING_HOURS,
    absences: r.absences.map((a) => ({ start: rfc3339(a.start), end: rfc3339(a.end) })),
    capacity: { maxWorkOrdersPerDay: r.max_work_orders_per_day, maxMinutesPerDay: r.max_minutes_per_day },
    areas: r.areas,
    lastUpdate: rfc3339(r.last_update),
  };
}

/** Extension: the technicians of the caller's tree, by code, with the console's filters. */
export async function listTechnicians(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  query: TechnicianListQuery,
): Promise<Page<Technician>> {
  const { continuationToken, ...filters } = query;
  const officePath = await officeFilterPath(db, scope, filters.officeCode, TechnicianCodes.officeUnknown);
  const text = filters.q?.trim() || undefined;
  const request = pageRequest(
    tokens,
    {
      id: listTechniciansRow.id,
      filters: { ...filters, q: text ?? null },
      invalidCode: RosteringCodes.continuationTokenInvalid,
      isKey: isString,
    },
    continuationToken,
  );
  const rows = await technicianPage(db, scope, {
    q: text,
    officePath,
    active: filters.active,
    skillCode: filters.skillCode,
    after: request.after,
    limit: TECHNICIANS_PAGE_SIZE,
  });
  return request.page(rows, TECHNICIANS_PAGE_SIZE, toTechnician, (r) => r.code);
}

/** Extension: one technician of the caller's tree. */
export async function getTechnician(db: Db, scope: OfficeScope, code: string): Promise<Technician> {
  const row = await technicianWithOffice(db, scope, code);
  if (!row) throw notFound(TechnicianCodes.notFound, `Technician ${code} does not exist in your office tree`);
  return toTechnician(row);
}
