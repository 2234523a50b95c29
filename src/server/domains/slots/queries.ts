import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { inScope, type OfficeScope } from '../../platform/officeScope.ts';
import { upsertRow, type WriteOutcome } from '../../platform/upsert.ts';
import { namedWorkOrdersSql, type WorkOrderRow } from '../fieldService/queries.ts';
import { MINUTE } from '../rostering/calendar.ts';
import type { Absence, WorkingHours } from '../rostering/tables.ts';
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

/**
 * The work order type and the work orders a search names (fieldService's
 * `namedWorkOrdersSql`, in findWorkOrder's order: read them with `lookupOf`) in one
 * statement instead of two.
 */
export async function typeAndWorkOrders(
  db: Db,
  scope: OfficeScope,
  typeCode: string,
  ref: { code: string } | { uuid: string },
): Promise<{ type: WorkOrderTypeRow | undefined; workOrders: WorkOrderRow[] }> {
  const { rows } = await sql<
    Record<string, unknown> & {
      ty_code: string | null;
      ty_name: string;
      ty_duration: number;
      ty_skills: string[];
    }
  >`
    SELECT ty.code AS ty_code, ty.name AS ty_name, ty.duration_minutes AS ty_duration, ty.skills AS ty_skills, f.*
    FROM (SELECT 1) one
    LEFT JOIN work_order_types ty ON ty.code = ${typeCode}
    LEFT JOIN (${namedWorkOrdersSql(
      scope,
      ref,
      sql`w.*, o.code AS office_code, t.duration_minutes, t.name AS type_name`,
    )}) f ON true
    ORDER BY f.n`.execute(db);
  const first = rows[0];
  const type = first?.ty_code
    ? {
        code: first.ty_code,
        name: first.ty_name,
        duration_minutes: first.ty_duration,
        skills: first.ty_skills,
      }
    : undefined;
  const workOrders = rows
    .filter((r) => r.id !== null)
    .map(
      ({ ty_code: _c, ty_name: _n, ty_duration: _d, ty_skills: _s, n: _i, ...w }) =>
        w as unknown as WorkOrderRow,
    );
  return { type, workOrders };
}

export interface WorkOrderTypeRow {
  code: string;
  name: string;
  duration_minutes: number;
  skills: string[];
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
 * The candidates' calendars in one statement: the active technicians of the caller's tree
 * (and of `officePaths`, and of the portal user's tree) holding every skill, covering one of
 * `areas` when given, each with its scheduled work orders overlapping [from, to), cancelled
 * ones and `excludeUuid` (the work order being placed) aside (by the technician and start
 * index). A technician's bookings come as ONE JSON text of arrays: a week of 500 busy
 * technicians is 15,000 bookings, and decoding them row by row and field by field cost more
 * than the whole search (PGlite's result parsing above all). One round trip instead of the
 * technicians, then their bookings.
 */
export async function candidateCalendars(
  db: Db,
  scope: OfficeScope,
  f: { officePaths: string[] | null; portalPath: string | null; skills: string[]; areas: string[] | null },
  period: { from: Date; to: Date; excludeUuid: string | null },
): Promise<CandidateRow[]> {
  const offices = f.officePaths
    ? sql`AND t.office_id IN (SELECT o.id FROM offices o WHERE ${sql.join(
        f.officePaths.map((p) => sql`o.path LIKE ${`${p}%`}`),
        sql` OR `,
      )})`
    : sql``;
  const { from, to, excludeUuid } = period;
  const { rows } = await sql<Omit<CandidateRow, 'bookings'> & { bookings: string | null }>`
    SELECT t.code, t.time_zone, t.working_hours, t.absences, t.home_latitude, t.home_longitude,
           t.max_work_orders_per_day, t.max_minutes_per_day,
           (SELECT json_agg(json_build_array(
                     w.code, (extract(epoch from w.scheduled_start) * 1000)::float8, wt.duration_minutes,
                     w.latitude, w.longitude, w.zip_code))::text
            FROM work_orders w JOIN work_order_types wt ON wt.code = w.type_code
            WHERE w.technician_code = t.code
              AND w.scheduled_start < ${to}
              AND w.scheduled_start >= ${from}::timestamptz
                  - (SELECT coalesce(max(duration_minutes), 0) FROM work_order_types) * interval '1 minute'
              AND w.scheduled_start + wt.duration_minutes * interval '1 minute' > ${from}
              AND w.status <> 'CANCELLED'
              ${excludeUuid ? sql`AND w.uuid <> ${excludeUuid}::uuid` : sql``}) AS bookings
    FROM technicians t
    WHERE t.active AND ${inScope(scope, 't.office_id')} ${offices}
      ${f.portalPath ? sql`AND t.office_id IN (SELECT o.id FROM offices o WHERE o.path LIKE ${`${f.portalPath}%`})` : sql``}
      AND t.skills @> ${f.skills}::text[]
      ${f.areas ? sql`AND t.areas && ${f.areas}::text[]` : sql``}
    ORDER BY t.code`.execute(db);
  type Packed = [string, number, number, number | null, number | null, string | null];
  return rows.map((row) => ({
    ...row,
    bookings: row.bookings
      ? (JSON.parse(row.bookings) as Packed[]).map(
          ([code, start, minutes, latitude, longitude, zipCode]) => ({
            code,
            start,
            end: start + minutes * MINUTE,
            location: latitude != null && longitude != null ? { latitude, longitude } : null,
            zipCode,
          }),
        )
      : [],
  }));
}
