import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { inScope, type OfficeScope, officeUnder, pathUnder } from '../../platform/officeScope.ts';
import { upsertRow, type WriteOutcome } from '../../platform/upsert.ts';
import { NAMED_ORDER, namedWorkOrderWhere, type WorkOrderRow } from '../fieldService/index.ts';
import type { Absence, WorkingHours } from '../rostering/index.ts';
import { MINUTE } from '../rostering/index.ts';
import type { Booking } from './days.ts';
import type { Point } from './road.ts';

/** City names compare without case, accents, hyphens or apostrophes. */
export const normaliseCity = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[-'’.]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
export const normaliseZip = (s: string) => s.replace(/\s+/g, '').toUpperCase();

/** Insert or move a gazetteer row, keyed by (zip code, city, country); unchanged rows stay alone. */
export async function upsertGeocodingEntry(
  db: Db,
  r: { zip_code: string; city: string; country: string; latitude: number; longitude: number },
): Promise<WriteOutcome> {
  const { rows } = await sql<{ created: boolean }>`
    INSERT INTO geocoding_entries AS g (zip_code, city, country, latitude, longitude)
    VALUES (${r.zip_code}, ${r.city}, ${r.country}, ${r.latitude}, ${r.longitude})
    ON CONFLICT (tenant_id, zip_code, city, country) DO UPDATE
      SET latitude = excluded.latitude, longitude = excluded.longitude, last_update = now()
      WHERE (g.latitude, g.longitude) IS DISTINCT FROM (excluded.latitude, excluded.longitude)
    RETURNING (xmax = 0) AS created`.execute(db);
  if (rows.length === 0) return 'unchanged';
  return rows[0].created ? 'created' : 'updated';
}

/**
 * The operator's best row for a place: zip code and city, then zip code, then city; in the
 * country given or rows without a country (one statement).
 */
export async function operatorEntries(
  db: Db,
  zip: string,
  city: string,
  country: string,
): Promise<Point | null> {
  const { rows } = await sql<Point>`
    SELECT latitude, longitude FROM geocoding_entries
    WHERE ((${zip} <> '' AND zip_code = ${zip}) OR (${city} <> '' AND city = ${city}))
      AND (country = ${country} OR country = '' OR ${country} = '')
    ORDER BY (zip_code = ${zip} AND city = ${city}) DESC, (zip_code = ${zip}) DESC,
      (country = ${country}) DESC
    LIMIT 1`.execute(db);
  return rows[0] ?? null;
}

export function upsertCustomerPortalUser(db: Db, row: { login: string; office_id: string }) {
  return upsertRow(db, 'customer_portal_users', 'login', row);
}

/** The office path of a portal user (undefined: unknown login). */
export async function portalUserPath(db: Db, scope: OfficeScope, login: string): Promise<string | undefined> {
  // A user of another office tree does not exist for the caller (issue 24: no existence oracle).
  const row = await db
    .selectFrom('customer_portal_users as u')
    .innerJoin('offices as o', 'o.id', 'u.office_id')
    .select('o.path')
    .where('u.login', '=', login)
    .where(pathUnder('o.path', scope.path))
    .executeTakeFirst();
  return row?.path;
}

/** Offices of the caller's tree among codes or ids: their paths (one statement). */
export async function officePaths(
  db: Db,
  scope: OfficeScope,
  by: { codes?: string[]; ids?: string[] },
): Promise<{ key: string; path: string }[]> {
  let q = db
    .selectFrom('offices')
    .select(['code', sql<string>`id::text`.as('id'), 'path'])
    .where(pathUnder('path', scope.path));
  if (by.codes) q = q.where('code', 'in', by.codes.length ? by.codes : ['']);
  else q = q.where(sql<boolean>`id::text = ANY(${by.ids ?? []}::text[])`);
  const rows = await q.execute();
  return rows.map((r) => ({ key: by.codes ? r.code : r.id, path: r.path }));
}

export interface WorkOrderTypeRow {
  code: string;
  duration_minutes: number;
  skills: string[];
}

/** The areas among `codes`, with their zip codes. */
export function areasByCodes(db: Db, codes: string[]) {
  return db
    .selectFrom('areas')
    .select(['code', 'zip_codes'])
    .where('code', 'in', codes.length ? codes : [''])
    .execute();
}

/** The codes of the areas holding this zip code (zone filter). */
export async function areasOfZip(db: Db, zipCode: string): Promise<string[]> {
  const rows = await db
    .selectFrom('areas')
    .select('code')
    .where(sql<boolean>`${normaliseZip(zipCode)} = ANY(zip_codes)`)
    .execute();
  return rows.map((a) => a.code);
}

/** What a search reads of the work order it places: its uuid, its place and who holds it. */
export type SearchWorkOrder = Pick<
  WorkOrderRow,
  'uuid' | 'address' | 'zip_code' | 'city' | 'country' | 'latitude' | 'longitude' | 'technician_code'
>;

/** Who may take the work: the filters of the candidates (besides the caller's tree). */
export interface CandidateFilter {
  officePaths: string[] | null;
  portalPath: string | null;
  /** Skills every candidate holds. */
  skills: string[];
  areas: string[] | null;
  /**
   * Explain: every technician of the offices (active or not, skilled or not, in the areas or
   * not), with what the filters look at; the service tells the candidates apart.
   */
  everyone?: boolean;
}

/** A technician a search may place the work on, and the version of their calendar. */
export interface SearchCandidate {
  code: string;
  /** slot_calendars' stamp (migration 038): moves with every change of the calendar. */
  stamp: string;
  /** With `everyone`: */
  active?: boolean;
  skills?: string[];
  areas?: string[];
}

type PackedCandidate = [string, string] | [string, string, boolean, string[], string[]];

/**
 * The candidates as ONE JSON text (an array in code order): the active technicians of the
 * caller's tree (and of `officePaths`, and of the portal user's tree) holding every skill of
 * `skills` (an SQL array), covering one of `areas` when given; with `everyone`, every
 * technician of those offices and what the other filters look at. Their calendars come from
 * the calendar index, which reads again only those whose stamp moved.
 */
function candidatesJson(
  scope: OfficeScope,
  f: Omit<CandidateFilter, 'skills'> & { skills: RawBuilder<unknown> },
) {
  const offices = f.officePaths
    ? sql`AND t.office_id IN (SELECT o.id FROM offices o WHERE ${sql.join(
        f.officePaths.map((p) => pathUnder('o.path', p)),
        sql` OR `,
      )})`
    : sql``;
  const portal = f.portalPath ? sql`AND ${officeUnder('t.office_id', f.portalPath)}` : sql``;
  const filters = f.everyone
    ? sql``
    : sql`AND t.active AND t.skills @> ${f.skills} ${f.areas ? sql`AND t.areas && ${f.areas}::text[]` : sql``}`;
  return sql<string | null>`(SELECT json_agg(json_build_array(t.code, coalesce(s.stamp, 0)::text
      ${f.everyone ? sql`, t.active, t.skills, t.areas` : sql``}) ORDER BY t.code)::text
    FROM technicians t LEFT JOIN slot_calendars s ON s.tenant_id = t.tenant_id AND s.technician_code = t.code
    WHERE ${inScope(scope, 't.office_id')} ${offices} ${portal} ${filters})`;
}

function candidatesOf(json: string | null): SearchCandidate[] {
  if (!json) return [];
  return (JSON.parse(json) as PackedCandidate[]).map((c) =>
    c.length === 2
      ? { code: c[0], stamp: c[1] }
      : { code: c[0], stamp: c[1], active: c[2], skills: c[3], areas: c[4] },
  );
}

/** The candidates of a search (`candidatesJson`) in one statement. */
export async function searchCandidates(
  db: Db,
  scope: OfficeScope,
  f: CandidateFilter,
): Promise<SearchCandidate[]> {
  const { rows } = await sql<{ candidates: string | null }>`
    SELECT ${candidatesJson(scope, { ...f, skills: sql`${f.skills}::text[]` })} AS candidates`.execute(db);
  return candidatesOf(rows[0].candidates);
}

/** What a search names, read at once (`searchReferences`). */
export interface SearchReferences {
  type: WorkOrderTypeRow | undefined;
  /** The work order named: none, or the first in findWorkOrder's order and the live count. */
  workOrder: { row: SearchWorkOrder; live: number } | null;
  /** The candidates (when asked for, the type and the work order found and not ambiguous). */
  candidates: SearchCandidate[] | null;
}

/**
 * The work order type and the work order a search names, and when `filter` is given, the
 * candidates too (`candidatesJson`: the type's skills and `filter.skills`), in ONE
 * statement. The work order is the one findWorkOrder (fieldService) names: among those
 * carrying the code in the caller's tree, live ones first, then the latest update, then the
 * highest id (`NAMED_ORDER`, fieldService); two live or more: ambiguous, no candidate read.
 */
export async function searchReferences(
  db: Db,
  scope: OfficeScope,
  typeCode: string,
  ref: { code: string } | { uuid: string },
  filter: CandidateFilter | null,
): Promise<SearchReferences> {
  const { rows } = await sql<
    SearchWorkOrder & {
      ty_code: string | null;
      ty_duration: number;
      ty_skills: string[];
      live: number | null;
      candidates: string | null;
    }
  >`
    SELECT ty.code AS ty_code, ty.duration_minutes AS ty_duration, ty.skills AS ty_skills,
           wo.uuid, wo.address, wo.zip_code, wo.city, wo.country, wo.latitude, wo.longitude,
           wo.technician_code, wo.live,
           ${
             filter
               ? sql`CASE WHEN wo.live < 2 THEN ${candidatesJson(scope, {
                   ...filter,
                   skills: sql`(ty.skills || ${filter.skills}::text[])`,
                 })} END`
               : sql`NULL`
           } AS candidates
    FROM (SELECT 1) one
    LEFT JOIN work_order_types ty ON ty.code = ${typeCode}
    LEFT JOIN (
      SELECT w.uuid, w.address, w.zip_code, w.city, w.country, w.latitude, w.longitude, w.technician_code,
             (count(*) FILTER (WHERE w.status <> 'VALIDATED') OVER ())::int AS live
      FROM work_orders w
      WHERE ${namedWorkOrderWhere(scope, ref)}
      ORDER BY ${NAMED_ORDER} LIMIT 1
    ) wo ON true`.execute(db);
  const r = rows[0];
  return {
    type: r.ty_code ? { code: r.ty_code, duration_minutes: r.ty_duration, skills: r.ty_skills } : undefined,
    workOrder:
      r.live === null
        ? null
        : {
            row: {
              uuid: r.uuid,
              address: r.address,
              zip_code: r.zip_code,
              city: r.city,
              country: r.country,
              latitude: r.latitude,
              longitude: r.longitude,
              technician_code: r.technician_code,
            },
            live: r.live,
          },
    candidates: filter && r.ty_code && r.live !== null && r.live < 2 ? candidatesOf(r.candidates) : null,
  };
}

/**
 * The work orders `w` (of type `ty`) scheduled on technician `t` overlapping [from, to) (ISO
 * texts), cancelled ones aside, by the (technician, start) index: the start's lower bound is
 * `from` less the longest duration of any type.
 */
const scheduledOverlapping = (
  w: RawBuilder<unknown>,
  ty: RawBuilder<unknown>,
  from: string,
  to: string,
) => sql`
  ${w}.technician_code = t.code
  AND ${w}.scheduled_start < ${to}::timestamptz
  AND ${w}.scheduled_start >= ${from}::timestamptz
      - (SELECT coalesce(max(duration_minutes), 0) FROM work_order_types) * interval '1 minute'
  AND ${w}.scheduled_start + ${ty}.duration_minutes * interval '1 minute' > ${from}::timestamptz
  AND ${w}.status <> 'CANCELLED'`;

/** A technician's calendar as the index reads it: the import's fields and their work orders. */
export interface CalendarRow {
  code: string;
  stamp: string;
  time_zone: string;
  working_hours: WorkingHours[] | null;
  absences: Absence[];
  home_latitude: number | null;
  home_longitude: number | null;
  max_work_orders_per_day: number | null;
  max_minutes_per_day: number | null;
  /** Its scheduled work orders overlapping the span read, in start order. */
  bookings: Booking[];
}

type PackedBooking = [string, string, number, number, number | null, number | null, string | null];

/**
 * The calendars of these technicians of the caller's tree as ONE JSON text, with their
 * stamps (read in the same statement: the stamp names exactly this calendar) and their work
 * orders overlapping [from, to), cancelled ones aside. 30,000 work orders decoded row by row
 * and field by field cost more than the whole search (PGlite's result parsing above all);
 * one JSON.parse does it.
 */
export async function calendarsOf(
  db: Db,
  scope: OfficeScope,
  codes: string[],
  span: { from: number; to: number },
): Promise<CalendarRow[]> {
  // ISO texts: node-postgres' Date serialization (local time and offset) costs more.
  const from = new Date(span.from).toISOString();
  const to = new Date(span.to).toISOString();
  const { rows } = await sql<{ calendars: string | null }>`
    SELECT (SELECT json_agg(c)::text FROM (
      SELECT t.code, coalesce(s.stamp, 0)::text AS stamp, t.time_zone, t.working_hours, t.absences,
             t.home_latitude, t.home_longitude, t.max_work_orders_per_day, t.max_minutes_per_day,
             (SELECT json_agg(json_build_array(
                       b.uuid, b.code, (extract(epoch from b.scheduled_start) * 1000)::float8,
                       bt.duration_minutes, b.latitude, b.longitude, b.zip_code)
                     ORDER BY b.scheduled_start, b.code, b.uuid)
              FROM work_orders b JOIN work_order_types bt ON bt.code = b.type_code
              WHERE ${scheduledOverlapping(sql`b`, sql`bt`, from, to)}) AS bookings
      FROM technicians t LEFT JOIN slot_calendars s ON s.tenant_id = t.tenant_id AND s.technician_code = t.code
      WHERE t.code = ANY(${codes}::text[]) AND ${inScope(scope, 't.office_id')}
    ) c) AS calendars`.execute(db);
  const json = rows[0].calendars;
  if (!json) return [];
  const parsed = JSON.parse(json) as (Omit<CalendarRow, 'bookings'> & { bookings: PackedBooking[] | null })[];
  return parsed.map((row) => ({
    ...row,
    bookings: (row.bookings ?? []).map(([uuid, code, start, minutes, latitude, longitude, zipCode]) => ({
      uuid,
      code,
      start,
      end: start + minutes * MINUTE,
      location: latitude != null && longitude != null ? { latitude, longitude } : null,
      zipCode,
    })),
  }));
}

/** What a feasibility check reads of the work order it places. */
export type CheckWorkOrder = SearchWorkOrder & {
  code: string;
  type_code: string;
  duration_minutes: number;
  type_skills: string[];
};

/** What a feasibility check names, read at once (`checkReferences`). */
export interface CheckReferences {
  /** The work order named: none, or the first in findWorkOrder's order and the live count. */
  workOrder: { row: CheckWorkOrder; live: number } | null;
  /** The technician, when in the caller's tree, and the stamp of their calendar. */
  technician: { code: string; active: boolean; skills: string[]; stamp: string } | null;
}

/**
 * The work order (with its type) and the technician a feasibility check names, both in the
 * caller's tree, in ONE statement; the work order as findWorkOrder (fieldService) names it.
 */
export async function checkReferences(
  db: Db,
  scope: OfficeScope,
  ref: { code: string } | { uuid: string } | null,
  technicianCode: string,
): Promise<CheckReferences> {
  const { rows } = await sql<
    Partial<CheckWorkOrder> & {
      live: number | null;
      te_code: string | null;
      te_active: boolean;
      te_skills: string[];
      te_stamp: string;
    }
  >`
    SELECT wo.*, te.*
    FROM (SELECT 1) one
    LEFT JOIN (
      SELECT w.uuid, w.code, w.address, w.zip_code, w.city, w.country, w.latitude, w.longitude, w.technician_code,
             t.code AS type_code, t.duration_minutes, t.skills AS type_skills,
             (count(*) FILTER (WHERE w.status <> 'VALIDATED') OVER ())::int AS live
      FROM work_orders w JOIN work_order_types t ON t.code = w.type_code
      WHERE ${ref ? namedWorkOrderWhere(scope, ref) : sql`false`}
      ORDER BY ${NAMED_ORDER} LIMIT 1
    ) wo ON true
    LEFT JOIN (
      SELECT t.code AS te_code, t.active AS te_active, t.skills AS te_skills, coalesce(s.stamp, 0)::text AS te_stamp
      FROM technicians t LEFT JOIN slot_calendars s ON s.tenant_id = t.tenant_id AND s.technician_code = t.code
      WHERE t.code = ${technicianCode} AND ${inScope(scope, 't.office_id')}
    ) te ON true`.execute(db);
  const r = rows[0];
  const { live, te_code, te_active, te_skills, te_stamp, ...workOrder } = r;
  return {
    workOrder: live === null ? null : { row: workOrder as CheckWorkOrder, live },
    technician: te_code ? { code: te_code, active: te_active, skills: te_skills, stamp: te_stamp } : null,
  };
}

/** The board's filters (besides the caller's tree), and where the page starts. */
export interface BoardFilter {
  /** Path of an office of the caller's tree: that office and below. */
  officePath?: string;
  skillCode?: string;
  areaCode?: string;
  /** Text contained in the code or the name (any case). */
  q?: string;
  active?: boolean;
  /** Keyset: the code of the last technician of the previous page. */
  after?: string;
  limit: number;
}

/** A scheduled work order on the board: in the caller's tree (its identity shown) or not (its time only). */
export interface BoardBooking {
  code: string;
  uuid: string;
  type_code: string;
  type_name: string;
  status: WorkOrderRow['status'];
  customer_code: string | null;
  crew_code: string | null;
  start: number;
  end: number;
  location: Point | null;
  /** In the caller's office tree: else only its time is shown. */
  visible: boolean;
}

export interface BoardRow {
  code: string;
  name: string;
  office_code: string;
  active: boolean;
  skills: string[];
  areas: string[];
  time_zone: string;
  working_hours: WorkingHours[] | null;
  absences: Absence[];
  home_latitude: number | null;
  home_longitude: number | null;
  max_work_orders_per_day: number | null;
  max_minutes_per_day: number | null;
  work_orders: BoardBooking[];
}

type PackedBoardBooking = [
  string,
  string,
  string,
  string,
  WorkOrderRow['status'],
  string | null,
  string | null,
  number,
  number,
  number | null,
  number | null,
  boolean,
];

/**
 * A page of the board (fetched with limit + 1) as ONE JSON text: technicians of the caller's
 * tree in code order with the filters, each with their scheduled work orders overlapping
 * [from, to) (cancelled ones aside), in start order; those outside the caller's tree carry
 * their time, nothing else leaves the database but `visible` false.
 */
export async function boardPage(
  db: Db,
  scope: OfficeScope,
  f: BoardFilter,
  span: { from: number; to: number },
): Promise<BoardRow[]> {
  const from = new Date(span.from).toISOString();
  const to = new Date(span.to).toISOString();
  const own = inScope(scope, 'w.office_id');
  const hidden = (column: RawBuilder<unknown>) => sql`CASE WHEN ${own} THEN ${column} END`;
  const { rows } = await sql<{ page: string | null }>`
    SELECT (SELECT json_agg(c ORDER BY c.code)::text FROM (
      SELECT t.code, t.name, o.code AS office_code, t.active, t.skills, t.areas, t.time_zone, t.working_hours,
             t.absences, t.home_latitude, t.home_longitude, t.max_work_orders_per_day, t.max_minutes_per_day,
             (SELECT json_agg(json_build_array(
                       ${hidden(sql`w.code`)}, ${hidden(sql`w.uuid`)}, ${hidden(sql`w.type_code`)}, ${hidden(sql`ty.name`)},
                       ${hidden(sql`w.status`)}, ${hidden(sql`w.customer_code`)}, ${hidden(sql`w.crew_code`)},
                       (extract(epoch from w.scheduled_start) * 1000)::float8, ty.duration_minutes,
                       ${hidden(sql`w.latitude`)}, ${hidden(sql`w.longitude`)}, ${own})
                     ORDER BY w.scheduled_start, w.code, w.uuid)
              FROM work_orders w JOIN work_order_types ty ON ty.code = w.type_code
              WHERE ${scheduledOverlapping(sql`w`, sql`ty`, from, to)}) AS work_orders
      FROM technicians t JOIN offices o ON o.id = t.office_id
      WHERE ${inScope(scope, 't.office_id')}
        ${f.officePath ? sql`AND ${officeUnder('t.office_id', f.officePath)}` : sql``}
        ${f.skillCode ? sql`AND ${f.skillCode} = ANY(t.skills)` : sql``}
        ${f.areaCode ? sql`AND ${f.areaCode} = ANY(t.areas)` : sql``}
        ${f.q ? sql`AND strpos(lower(t.code || E'\\n' || t.name), lower(${f.q})) > 0` : sql``}
        ${f.active !== undefined ? sql`AND t.active = ${f.active}` : sql``}
        ${f.after !== undefined ? sql`AND t.code > ${f.after}` : sql``}
      ORDER BY t.code LIMIT ${f.limit + 1}
    ) c) AS page`.execute(db);
  const json = rows[0].page;
  if (!json) return [];
  const parsed = JSON.parse(json) as (Omit<BoardRow, 'work_orders'> & {
    work_orders: PackedBoardBooking[] | null;
  })[];
  return parsed.map((row) => ({
    ...row,
    work_orders: (row.work_orders ?? []).map(
      ([
        code,
        uuid,
        type_code,
        type_name,
        status,
        customer_code,
        crew_code,
        start,
        minutes,
        lat,
        lon,
        visible,
      ]) => ({
        code,
        uuid,
        type_code,
        type_name,
        status,
        customer_code,
        crew_code,
        start,
        end: start + minutes * MINUTE,
        location: lat != null && lon != null ? { latitude: lat, longitude: lon } : null,
        visible,
      }),
    ),
  }));
}
