import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Upserted } from '../staff/queries.ts';
import type { BusinessOrganizationTables } from './tables.ts';

export type ItemRow = Selectable<BusinessOrganizationTables['items']>;
export type NewItem = Omit<Insertable<BusinessOrganizationTables['items']>, 'last_update'>;

/** Every column the PUT sets; a PUT that changes none of them leaves the row (and lastUpdate) alone. */
const SET_COLUMNS = [
  'name',
  'category',
  'description',
  'unit',
  'unit_price',
  'vat_rates',
  'reference',
  'bar_code',
  'manufacturer',
  'fixed_price',
  'serial_number_pattern',
  'active',
  'custom_fields',
] as const;

/** Insert or replace by code in one statement (safe under concurrent PUTs). */
export async function upsertItem(db: Db, item: NewItem): Promise<Upserted> {
  const current = sql.join(SET_COLUMNS.map((c) => sql.ref(`items.${c}`)));
  const excluded = sql.join(SET_COLUMNS.map((c) => sql.ref(`excluded.${c}`)));
  const row = await db
    .insertInto('items')
    .values(item)
    .onConflict((oc) =>
      oc
        .column('code')
        .doUpdateSet((eb) => ({
          ...Object.fromEntries(SET_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)])),
          last_update: sql`now()`,
        }))
        .where(sql<boolean>`(${current}) IS DISTINCT FROM (${excluded})`),
    )
    .returning(sql<boolean>`(xmax = 0)`.as('created'))
    .executeTakeFirst();
  if (!row) return 'unchanged';
  return row.created ? 'created' : 'updated';
}

export function findItem(db: Db, code: string): Promise<ItemRow | undefined> {
  return db.selectFrom('items').selectAll().where('code', '=', code).executeTakeFirst();
}

export interface ItemFilters {
  q?: string;
  category?: string;
  active?: boolean;
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

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
  if (q) query = query.where(sql<boolean>`search LIKE lower(${`%${likeLiteral(q)}%`})`);
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
