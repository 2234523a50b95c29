import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { upsertRow, type WriteOutcome } from '../../platform/upsert.ts';

/** Codes among `codes` that name no skill of the staff catalog. */
export async function unknownSkills(db: Db, codes: string[]): Promise<string[]> {
  if (codes.length === 0) return [];
  const { rows } = await sql<{ code: string }>`
    SELECT c AS code FROM unnest(${codes}::text[]) AS c
    WHERE NOT EXISTS (SELECT 1 FROM skills s WHERE s.code = c)`.execute(db);
  return rows.map((r) => r.code);
}

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
  },
): Promise<WriteOutcome> {
  return upsertRow(db, 'technicians', 'code', { ...row, skills: sql`${row.skills}::text[]` });
}
