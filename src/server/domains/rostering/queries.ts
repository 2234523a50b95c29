import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { inScope, type OfficeScope } from '../../platform/officeScope.ts';
import { jsonb, upsertRow, type WriteOutcome } from '../../platform/upsert.ts';
import type { Absence, CrewMemberInput, RosteringTables, WorkingHours } from './tables.ts';

export type TechnicianRow = Selectable<RosteringTables['technicians']>;

/** Codes among `codes` that name no row of `table` (skills, areas, technicians). */
export async function unknownCodes(
  db: Db,
  table: 'skills' | 'areas' | 'technicians',
  codes: string[],
): Promise<string[]> {
  if (codes.length === 0) return [];
  const { rows } = await sql<{ code: string }>`
    SELECT c AS code FROM unnest(${codes}::text[]) AS c
    WHERE NOT EXISTS (SELECT 1 FROM ${sql.table(table)} s WHERE s.code = c)`.execute(db);
  return rows.map((r) => r.code);
}

/** Codes among `codes` that name no skill of the staff catalog. */
export const unknownSkills = (db: Db, codes: string[]) => unknownCodes(db, 'skills', codes);

export function upsertTechnician(
  db: Db,
  row: {
    code: string;
    name: string;
    office_id: string;
    skills: string[];
    active: boolean;
    home_latitude: number | null;
    home_longitude: number | null;
    time_zone: string;
    working_hours: WorkingHours[] | null;
    absences: Absence[];
    max_work_orders_per_day: number | null;
    max_minutes_per_day: number | null;
    areas: string[];
  },
): Promise<WriteOutcome> {
  return upsertRow(db, 'technicians', 'code', {
    ...row,
    skills: sql`${row.skills}::text[]`,
    areas: sql`${row.areas}::text[]`,
    working_hours: row.working_hours ? jsonb(row.working_hours) : null,
    absences: jsonb(row.absences),
  });
}

export function upsertArea(db: Db, row: { code: string; name: string; zip_codes: string[] }) {
  return upsertRow(db, 'areas', 'code', { ...row, zip_codes: sql`${row.zip_codes}::text[]` });
}

/** A technician of the caller's tree, with its office code (one statement). */
export function technicianInScope(db: Db, scope: OfficeScope, code: string) {
  return db
    .selectFrom('technicians as t')
    .selectAll('t')
    .where('t.code', '=', code)
    .where(inScope(scope, 't.office_id'))
    .executeTakeFirst();
}

export function technicianByCode(db: Db, code: string) {
  return db.selectFrom('technicians').selectAll().where('code', '=', code).executeTakeFirst();
}

/** Writes a crew; its member rows are rewritten only when the crew changed. */
export async function upsertCrew(
  db: Db,
  crew: { code: string; disabled_at: string | null; main: CrewMemberInput; secondary: CrewMemberInput[] },
): Promise<WriteOutcome> {
  const outcome = await upsertRow(db, 'crews', 'code', {
    code: crew.code,
    disabled_at: crew.disabled_at,
    members: jsonb({ main: crew.main, secondary: crew.secondary }),
  });
  if (outcome === 'unchanged') return outcome;
  await db.deleteFrom('crew_members').where('crew_code', '=', crew.code).execute();
  const rows = [
    { ...crew.main, is_main: true },
    ...crew.secondary.map((s) => ({ ...s, is_main: false })),
  ].map((m) => ({
    crew_code: crew.code,
    technician_code: m.technicianCode,
    is_main: m.is_main,
    from_date: m.from,
    to_date: m.to ?? null,
  }));
  await db.insertInto('crew_members').values(rows).execute();
  return outcome;
}

export interface CrewMemberRow {
  crew_code: string;
  technician_code: string;
  is_main: boolean;
  from_date: string;
  to_date: string;
}

/**
 * One page of crews over [start, end] (dates), as member rows clipped to the period, in one
 * statement. A crew is listed when it has no disabling date, its main resource is active and
 * participates in the period, and one of its members is in the caller's tree; secondary
 * members outside the tree or the period are left out.
 */
export async function crewMembersPage(
  db: Db,
  scope: OfficeScope,
  period: { start: string; end: string },
  after: string | undefined,
  limit: number,
): Promise<CrewMemberRow[]> {
  const { start, end } = period;
  const overlaps = (m: string) =>
    sql`${sql.ref(`${m}.from_date`)} <= ${end}::date AND (${sql.ref(`${m}.to_date`)} IS NULL OR ${sql.ref(`${m}.to_date`)} >= ${start}::date)`;
  const { rows } = await sql<CrewMemberRow>`
    WITH page AS (
      SELECT DISTINCT c.code FROM crews c
      JOIN crew_members m ON m.crew_code = c.code AND m.is_main
      JOIN technicians t ON t.code = m.technician_code
      WHERE c.disabled_at IS NULL AND t.active AND ${overlaps('m')}
        ${after === undefined ? sql`` : sql`AND c.code > ${after}`}
        AND EXISTS (SELECT 1 FROM crew_members v JOIN technicians vt ON vt.code = v.technician_code
                    WHERE v.crew_code = c.code AND ${inScope(scope, 'vt.office_id')})
      ORDER BY c.code LIMIT ${limit}
    )
    SELECT p.code AS crew_code, m.technician_code, m.is_main,
           greatest(m.from_date, ${start}::date)::text AS from_date,
           least(coalesce(m.to_date, ${end}::date), ${end}::date)::text AS to_date
    FROM page p
    JOIN crew_members m ON m.crew_code = p.code
    JOIN technicians t ON t.code = m.technician_code
    WHERE ${overlaps('m')} AND (m.is_main OR ${inScope(scope, 't.office_id')})
    ORDER BY p.code, m.is_main DESC, m.technician_code, m.from_date`.execute(db);
  return rows;
}

/** A crew by code with its members (scheduling on a crew). */
export async function crewWithMembers(db: Db, code: string) {
  const crew = await db
    .selectFrom('crews')
    .select(['code', sql<string | null>`disabled_at::text`.as('disabled_at')])
    .where('code', '=', code)
    .executeTakeFirst();
  if (!crew) return undefined;
  const members = await db
    .selectFrom('crew_members as m')
    .innerJoin('technicians as t', 't.code', 'm.technician_code')
    .selectAll('t')
    .select([
      'm.is_main',
      sql<string>`m.from_date::text`.as('from_date'),
      sql<string | null>`m.to_date::text`.as('to_date'),
    ])
    .where('m.crew_code', '=', code)
    .execute();
  return { ...crew, members };
}

export function areasAfter(db: Db, after: string | undefined, limit: number) {
  let q = db.selectFrom('areas').select(['code', 'name', 'zip_codes']);
  if (after !== undefined) q = q.where('code', '>', after);
  return q.orderBy('code').limit(limit).execute();
}

export type TechnicianListRow = TechnicianRow & { office_code: string };

/**
 * A page of the technicians of the caller's tree by code (extension), fetched with limit + 1;
 * `q` is a case-insensitive substring of the code or the name.
 */
export function technicianPage(
  db: Db,
  scope: OfficeScope,
  f: { q?: string; officePath?: string; active?: boolean; skillCode?: string; after?: string; limit: number },
): Promise<TechnicianListRow[]> {
  let q = db
    .selectFrom('technicians as t')
    .innerJoin('offices as o', 'o.id', 't.office_id')
    .selectAll('t')
    .select('o.code as office_code')
    .where(inScope(scope, 't.office_id'));
  if (f.q) q = q.where(sql<boolean>`strpos(lower(t.code || E'\\n' || t.name), lower(${f.q})) > 0`);
  if (f.officePath) q = q.where(inScope({ ...scope, path: f.officePath }, 't.office_id'));
  if (f.active !== undefined) q = q.where('t.active', '=', f.active);
  if (f.skillCode) q = q.where(sql<boolean>`${f.skillCode} = ANY(t.skills)`);
  if (f.after !== undefined) q = q.where('t.code', '>', f.after);
  return q
    .orderBy('t.code')
    .limit(f.limit + 1)
    .execute();
}

/** A technician of the caller's tree with its office code (extension read). */
export function technicianWithOffice(
  db: Db,
  scope: OfficeScope,
  code: string,
): Promise<TechnicianListRow | undefined> {
  return db
    .selectFrom('technicians as t')
    .innerJoin('offices as o', 'o.id', 't.office_id')
    .selectAll('t')
    .select('o.code as office_code')
    .where('t.code', '=', code)
    .where(inScope(scope, 't.office_id'))
    .executeTakeFirst();
}
