import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { jsonb, upsertRow, type WriteOutcome } from '../../platform/upsert.ts';
import type { ReportFields } from './tables.ts';

export function upsertFlag(db: Db, row: { flag_id: number; label: string }): Promise<WriteOutcome> {
  return upsertRow(db, 'flags', 'flag_id', row);
}

/** Ids among `ids` that name no flag. */
export async function unknownFlags(db: Db, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<{ id: number }>`
    SELECT i AS id FROM unnest(${ids}::int[]) AS i
    WHERE NOT EXISTS (SELECT 1 FROM flags f WHERE f.flag_id = i) ORDER BY i`.execute(db);
  return rows.map((r) => r.id);
}

/** Replaces the flags of a work order. */
export async function replaceFlags(db: Db, workOrderId: string, ids: number[]): Promise<void> {
  await db.deleteFrom('work_order_flags').where('work_order_id', '=', workOrderId).execute();
  if (ids.length)
    await db
      .insertInto('work_order_flags')
      .values(ids.map((flag_id) => ({ work_order_id: workOrderId, flag_id })))
      .execute();
}

/** Creates or replaces one note; an identical note is left alone (204 all the same). */
export async function upsertNote(
  db: Db,
  n: { workOrderId: string; noteCode: string; content: string | null; reportFields: ReportFields | null },
): Promise<WriteOutcome> {
  const { rows } = await sql<{ created: boolean }>`
    INSERT INTO work_order_notes AS n (work_order_id, note_code, content, report_fields)
    VALUES (${n.workOrderId}, ${n.noteCode}, ${n.content}, ${n.reportFields ? jsonb(n.reportFields) : null})
    ON CONFLICT (work_order_id, note_code) DO UPDATE
      SET content = excluded.content, report_fields = excluded.report_fields, last_update = now()
      WHERE (n.content, n.report_fields) IS DISTINCT FROM (excluded.content, excluded.report_fields)
    RETURNING (xmax = 0) AS created`.execute(db);
  return rows[0]?.created ? 'created' : 'updated';
}

/** The flags and notes of a work order (one statement). */
export async function diagnosticOf(db: Db, workOrderId: string) {
  const { rows } = await sql<{
    flags: { flagId: number; label: string }[];
    notes: {
      noteCode: string;
      content: string | null;
      reportFields: ReportFields | null;
      lastUpdate: string;
    }[];
  }>`
    SELECT
      coalesce((SELECT json_agg(json_build_object('flagId', f.flag_id, 'label', f.label) ORDER BY f.flag_id)
        FROM work_order_flags wf JOIN flags f ON f.flag_id = wf.flag_id
        WHERE wf.work_order_id = ${workOrderId}), '[]'::json) AS flags,
      coalesce((SELECT json_agg(json_build_object('noteCode', n.note_code, 'content', n.content,
          'reportFields', n.report_fields,
          'lastUpdate', to_char(n.last_update AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
          ORDER BY n.note_code)
        FROM work_order_notes n WHERE n.work_order_id = ${workOrderId}), '[]'::json) AS notes`.execute(db);
  return rows[0];
}

export function flagsAfter(db: Db, after: number | undefined, limit: number) {
  let q = db.selectFrom('flags').select(['flag_id', 'label']);
  if (after !== undefined) q = q.where('flag_id', '>', after);
  return q.orderBy('flag_id').limit(limit).execute();
}
