import { type Insertable, type Selectable, sql } from 'kysely';
import type { CustomFields } from '../../../contract/common.ts';
import type { Db } from '../../db/index.ts';
import { likePattern } from '../../platform/sqlText.ts';
import { jsonb, upsertRow, type WriteOutcome } from '../../platform/upsert.ts';
import { versionOf } from '../../platform/versions.ts';
import type { BusinessOrganizationTables } from './tables.ts';

export type ItemRow = Selectable<BusinessOrganizationTables['items']>;
export type NewItem = Omit<
  Insertable<BusinessOrganizationTables['items']>,
  'last_update' | 'custom_fields' | 'vat_rates'
> & { custom_fields: CustomFields; vat_rates: number[] | null };

/** Insert or replace by code; an item already holding these values (lastUpdate too) is left alone. */
export function upsertItem(db: Db, item: NewItem): Promise<WriteOutcome> {
  return upsertRow(db, 'items', 'code', {
    ...item,
    custom_fields: jsonb(item.custom_fields),
    vat_rates: item.vat_rates === null ? null : jsonb(item.vat_rates),
  });
}

/** The item and its version (platform/versions.ts). */
export function findItem(db: Db, code: string): Promise<(ItemRow & { version: string }) | undefined> {
  return db
    .selectFrom('items')
    .selectAll()
    .select(versionOf('last_update').as('version'))
    .where('code', '=', code)
    .executeTakeFirst();
}

export interface ItemFilters {
  q?: string;
  category?: string;
  active?: boolean;
}

/**
 * Keyset page in code order (primary key), narrowed by the console's filters. `q` is a
 * case-insensitive substring of code, name, reference or bar code (the `search` column).
 */
export function itemsAfter(
  db: Db,
  filters: ItemFilters,
  after: string | undefined,
  limit: number,
): Promise<ItemRow[]> {
  let query = db.selectFrom('items').selectAll();
  if (after !== undefined) query = query.where('code', '>', after);
  if (filters.category !== undefined) query = query.where('category', '=', filters.category);
  if (filters.active !== undefined) query = query.where('active', '=', filters.active);
  const q = filters.q?.trim();
  if (q) query = query.where(sql<boolean>`search LIKE lower(${likePattern(q)})`);
  return query.orderBy('code').limit(limit).execute();
}

/**
 * Distinct non-empty categories, sorted: a loose index scan (one index probe per category
 * through items_category_code) instead of reading every item.
 */
export async function distinctCategories(db: Db): Promise<string[]> {
  const { rows } = await sql<{ category: string }>`
    WITH RECURSIVE c AS (
      (SELECT category FROM items WHERE category > '' ORDER BY category LIMIT 1)
      UNION ALL
      SELECT (SELECT i.category FROM items i WHERE i.category > c.category ORDER BY i.category LIMIT 1)
      FROM c WHERE c.category IS NOT NULL
    )
    SELECT category FROM c WHERE category IS NOT NULL`.execute(db);
  return rows.map((r) => r.category);
}
