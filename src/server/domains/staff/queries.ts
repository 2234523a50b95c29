import type { Db } from '../../db/index.ts';
import { upsertRow, type WriteOutcome } from '../../platform/upsert.ts';

/** Skills and characteristics share one shape: code, name, description. */
export type CatalogTable = 'skills' | 'characteristics';
export interface CatalogEntry {
  code: string;
  name: string;
  description: string | null;
}
/** Insert or update by code; a row already holding these values is left alone. */
export function upsertCatalogEntry(db: Db, table: CatalogTable, entry: CatalogEntry): Promise<WriteOutcome> {
  return upsertRow(db, table, 'code', { ...entry });
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

/** One entry by code, or undefined. */
export function catalogEntry(db: Db, table: CatalogTable, code: string): Promise<CatalogEntry | undefined> {
  return db
    .selectFrom(table)
    .select(['code', 'name', 'description'])
    .where('code', '=', code)
    .executeTakeFirst();
}
