import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { nextVersion } from './versions.ts';

/** What a create-or-replace did: the PUT answers 201 or 204, an import counts it. */
export type WriteOutcome = 'created' | 'updated' | 'unchanged';

/** Status of a PUT that wrote `outcome` (spec: 201 created, 204 updated). */
export const writeStatus = (outcome: WriteOutcome): 201 | 204 => (outcome === 'created' ? 201 : 204);

/** A JSON value for a jsonb column, sent as text and cast in SQL (pg and PGlite store the same). */
export const jsonb = (value: unknown): RawBuilder<string> =>
  sql<string>`${JSON.stringify(value)}::text::jsonb`;

/**
 * Insert or replace the row of the tenant whose `key` column matches (every table written
 * this way holds tenant_id, set by its default or trigger: migration 090), in one statement (safe under
 * concurrent PUTs of one new code). A row whose columns already hold these values is left
 * alone, `last_update` included, so replaying an import changes nothing.
 */
export async function upsertRow(
  db: Db,
  table: string,
  key: string,
  row: Record<string, unknown>,
  conflictOn: string[] = ['tenant_id', key],
): Promise<WriteOutcome> {
  const columns = Object.keys(row).filter((c) => c !== key);
  const t = sql.table(table);
  const names = sql.join(Object.keys(row).map((c) => sql.ref(c)));
  const values = sql.join(Object.values(row));
  const current = sql.join(columns.map((c) => sql.ref(`${table}.${c}`)));
  const excluded = sql.join(columns.map((c) => sql.ref(`excluded.${c}`)));
  const set = sql.join([
    ...columns.map((c) => sql`${sql.ref(c)} = ${sql.ref(`excluded.${c}`)}`),
    sql`last_update = ${nextVersion(`${table}.last_update`)}`,
  ]);
  const { rows } = await sql<{ created: boolean }>`
    INSERT INTO ${t} (${names}) VALUES (${values})
    ON CONFLICT (${sql.join(conflictOn.map((c) => sql.ref(c)))}) DO UPDATE SET ${set}
    WHERE (${current}) IS DISTINCT FROM (${excluded})
    RETURNING (xmax = 0) AS created`.execute(db);
  if (rows.length === 0) return 'unchanged';
  return rows[0].created ? 'created' : 'updated';
}
