import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

/** Skills and characteristics share one shape: code, name, description. */
export type CatalogTable = 'skills' | 'characteristics';
export interface CatalogEntry {
  code: string;
  name: string;
  description: string | null;
}
export type Upserted = 'created' | 'updated' | 'unchanged';

/**
 * Insert or update by code in one statement (safe under concurrent PUTs). A row whose
 * values are already those given is left alone, so re-importing a file changes nothing.
 */
export async function upsertCatalogEntry(
  db: Db,
  table: CatalogTable,
  entry: CatalogEntry,
): Promise<Upserted> {
  const row = await db
    .insertInto(table)
    .values(entry)
    .onConflict((oc) =>
      oc
        .column('code')
        .doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          description: eb.ref('excluded.description'),
          last_update: sql`now()`,
        }))
        .where(
          sql<boolean>`(${sql.ref(`${table}.name`)}, ${sql.ref(`${table}.description`)}) IS DISTINCT FROM (excluded.name, excluded.description)`,
        ),
    )
    .returning(sql<boolean>`(xmax = 0)`.as('created'))
    .executeTakeFirst();
  if (!row) return 'unchanged';
  return row.created ? 'created' : 'updated';
}

/** Keyset page: the rows after `after` in code order (served by the primary key). */
export function catalogEntriesAfter(
  db: Db,
  table: CatalogTable,
  after: string | undefined,
  limit: number,
): Promise<CatalogEntry[]> {
  let query = db.selectFrom(table).select(['code', 'name', 'description']);
  if (after !== undefined) query = query.where('code', '>', after);
  return query.orderBy('code').limit(limit).execute();
}
