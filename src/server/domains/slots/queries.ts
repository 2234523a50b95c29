import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { inScope, type OfficeScope } from '../../platform/officeScope.ts';
import { upsertRow, type WriteOutcome } from '../../platform/upsert.ts';
import { NAMED_ORDER, namedWorkOrderWhere, type WorkOrderRow } from '../fieldService/index.ts';
import type { Absence, WorkingHours } from '../rostering/index.ts';
import { MINUTE } from '../rostering/index.ts';
import type { Booking } from './engine.ts';
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
    .where('path', 'like', `${scope.path}%`);
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

/** What a search reads of the work order it places: its uuid and its place. */
export type SearchWorkOrder = Pick<
  WorkOrderRow,
  'uuid' | 'address' | 'zip_code' | 'city' | 'country' | 'latitude' | 'longitude'
>;

/** Who may take the work: the filters of the candidates (besides the caller's tree). */
export interface CandidateFilter {
  officePaths: string[] | null;
  portalPath: string | null;
  /** Skills every candidate holds. */
  skills: string[];
  areas: string[] | null;
}

/** The period of the bookings read: those overlapping [from, to). */
export interface CandidatePeriod {
  from: Date;
  to: Date;
}

export interface CandidateRow {
  code: string;
  time_zone: string;
  working_hours: WorkingHours[] | null;
  absences: Absence[];
  home_latitude: number | null;
  home_longitude: number | null;
  max_work_orders_per_day: number | null;
  max_minutes_per_day: number | null;
  /** Its scheduled work orders of the period (below). */
  bookings: Booking[];
}

/**
 * The candidates' calendars as ONE JSON text (an array in code order): the active
 * technicians of the caller's tree (and of `officePaths`, and of the portal user's tree)
 * holding every skill of `skills` (an SQL array), covering one of `areas` when given, each
 * with its scheduled work orders overlapping [from, to) as arrays, cancelled ones and
 * `exclude` (the uuid of the work order being placed, an SQL expression) aside (by the
 * technician and start index). A week of 500 busy technicians is 15,000 bookings: decoding
 * them row by row and field by field cost more than the whole search (PGlite's result
 * parsing above all); one JSON.parse does it.
 */
function calendarsJson(
  scope: OfficeScope,
  f: Omit<CandidateFilter, 'skills'> & { skills: RawBuilder<unknown> },
  period: CandidatePeriod,
  exclude: RawBuilder<unknown> | null,
) {
  const offices = f.officePaths
    ? sql`AND t.office_id IN (SELECT o.id FROM offices o WHERE ${sql.join(
        f.officePaths.map((p) => sql`o.path LIKE ${`${p}%`}`),
        sql` OR `,
      )})`
    : sql``;
  // ISO texts: node-postgres' Date serialization (local time and offset) costs more.
  const from = period.from.toISOString();
  const to = period.to.toISOString();
  return sql<string | null>`(SELECT json_agg(c ORDER BY c.code)::text FROM (
    SELECT t.code, t.time_zone, t.working_hours, t.absences, t.home_latitude, t.home_longitude,
           t.max_work_orders_per_day, t.max_minutes_per_day,
           (SELECT json_agg(json_build_array(
                     b.code, (extract(epoch from b.scheduled_start) * 1000)::float8, bt.duration_minutes,
                     b.latitude, b.longitude, b.zip_code))
            FROM work_orders b JOIN work_order_types bt ON bt.code = b.type_code
            WHERE b.technician_code = t.code
              AND b.scheduled_start < ${to}::timestamptz
              AND b.scheduled_start >= ${from}::timestamptz
                  - (SELECT coalesce(max(duration_minutes), 0) FROM work_order_types) * interval '1 minute'
              AND b.scheduled_start + bt.duration_minutes * interval '1 minute' > ${from}::timestamptz
              AND b.status <> 'CANCELLED'
              ${exclude ? sql`AND b.uuid <> ${exclude}` : sql``}) AS bookings
    FROM technicians t
    WHERE t.active AND ${inScope(scope, 't.office_id')} ${offices}
      ${f.portalPath ? sql`AND t.office_id IN (SELECT o.id FROM offices o WHERE o.path LIKE ${`${f.portalPath}%`})` : sql``}
      AND t.skills @> ${f.skills}
      ${f.areas ? sql`AND t.areas && ${f.areas}::text[]` : sql``}
  ) c)`;
}

type Packed = [string, number, number, number | null, number | null, string | null];

/** The candidates of `calendarsJson`'s text, bookings unpacked. */
function candidatesOf(json: string | null): CandidateRow[] {
  if (!json) return [];
  const rows = JSON.parse(json) as (Omit<CandidateRow, 'bookings'> & { bookings: Packed[] | null })[];
  return rows.map((row) => ({
    ...row,
    bookings: (row.bookings ?? []).map(([code, start, minutes, latitude, longitude, zipCode]) => ({
      code,
      start,
      end: start + minutes * MINUTE,
      location: latitude != null && longitude != null ? { latitude, longitude } : null,
      zipCode,
    })),
  }));
}

/** The candidates' calendars (`calendarsJson`) in one statement. */
export async function candidateCalendars(
  db: Db,
  scope: OfficeScope,
  f: CandidateFilter,
  period: CandidatePeriod & { excludeUuid: string | null },
): Promise<CandidateRow[]> {
  const exclude = period.excludeUuid ? sql`${period.excludeUuid}::uuid` : null;
  const { rows } = await sql<{ candidates: string | null }>`
    SELECT ${calendarsJson(scope, { ...f, skills: sql`${f.skills}::text[]` }, period, exclude)} AS candidates`.execute(
    db,
  );
  return candidatesOf(rows[0].candidates);
}

/** What a search names, read at once (`searchReferences`). */
export interface SearchReferences {
  type: WorkOrderTypeRow | undefined;
  /** The work order named: none, or the first in findWorkOrder's order and the live count. */
  workOrder: { row: SearchWorkOrder; live: number } | null;
  /** The candidates (when asked for, the type and the work order found and not ambiguous). */
  candidates: CandidateRow[] | null;
}

/**
 * The work order type and the work order a search names, and when `calendars` is given, the
 * candidates' calendars too (`calendarsJson`: the type's skills and `calendars.skills`, the
 * work order aside), in ONE statement instead of three in two steps. The work order is the
 * one findWorkOrder (fieldService) names: among those carrying the code in the caller's
 * tree, live ones first, then the latest update, then the highest id (`NAMED_ORDER`,
 * fieldService); two live or more: ambiguous, no calendar read.
 */
export async function searchReferences(
  db: Db,
  scope: OfficeScope,
  typeCode: string,
  ref: { code: string } | { uuid: string },
  calendars: (CandidateFilter & CandidatePeriod) | null,
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
           wo.uuid, wo.address, wo.zip_code, wo.city, wo.country, wo.latitude, wo.longitude, wo.live,
           ${
             calendars
               ? sql`CASE WHEN wo.live < 2 THEN ${calendarsJson(
                   scope,
                   { ...calendars, skills: sql`(ty.skills || ${calendars.skills}::text[])` },
                   calendars,
                   sql`wo.uuid`,
                 )} END`
               : sql`NULL`
           } AS candidates
    FROM (SELECT 1) one
    LEFT JOIN work_order_types ty ON ty.code = ${typeCode}
    LEFT JOIN (
      SELECT w.uuid, w.address, w.zip_code, w.city, w.country, w.latitude, w.longitude,
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
            },
            live: r.live,
          },
    candidates: calendars && r.ty_code && r.live !== null && r.live < 2 ? candidatesOf(r.candidates) : null,
  };
}
