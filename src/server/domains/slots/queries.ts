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
    ON CONFLICT (zip_code, city, country) DO UPDATE
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
export async function portalUserPath(db: Db, login: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('customer_portal_users as u')
    .innerJoin('offices as o', 'o.id', 'u.office_id')
    .select('o.path')
    .where('u.login', '=', login)
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
    FROM technicians t LEFT JOIN slot_calendars s ON s.technician_code = t.code
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
      FROM technicians t LEFT JOIN slot_calendars s ON s.technician_code = t.code
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
