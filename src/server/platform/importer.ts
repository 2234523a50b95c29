import type { z } from 'zod';
import type { Db } from '../db/index.ts';
import { ApiError } from './errors.ts';
import type { OfficeScope } from './officeScope.ts';
import type { WriteOutcome } from './upsert.ts';

export interface ImportCounts {
  created: number;
  updated: number;
}

/**
 * One key of the import file (`fieldwork import FILE.json`). Each domain module lists the
 * importers of its own keys; the import command validates every key with `schema` first
 * (errors reported by JSON path, a record given twice refused), then applies them in
 * `order` inside one transaction, so a file is imported whole or not at all. Applying is
 * an upsert by key: importing the same file twice changes nothing the second time.
 */
export interface Importer<T = unknown> {
  key: string;
  /** Lower runs first (offices before applications before customers...). */
  order: number;
  /** Schema of one element of the key's array (codes come out uppercased). */
  schema: z.ZodType<T>;
  /**
   * The record an element writes (its code, after the schema's normalisation). Two elements
   * of one key naming the same record are refused before anything is written: the second
   * would silently overwrite the first, and a replay of the file would report changes.
   */
  keyOf(row: T): string;
  apply(trx: Db, rows: T[]): Promise<ImportCounts>;
}

/** Declares an importer, typing its rows from its schema. */
export function importer<S extends z.ZodType>(
  i: Omit<Importer<z.output<S>>, 'schema'> & { schema: S },
): Importer {
  return i as unknown as Importer;
}

/**
 * Applies rows one by one through a domain's write function (the one its PUT uses) and
 * counts what changed. A refusal names the element it comes from; the codes stay the API's.
 */
export async function applyRows<T>(
  rows: T[],
  label: (row: T) => string,
  put: (row: T) => Promise<WriteOutcome | { outcome: WriteOutcome }>,
): Promise<ImportCounts> {
  const counts = { created: 0, updated: 0 };
  for (const row of rows) {
    let outcome: WriteOutcome;
    try {
      const written = await put(row);
      outcome = typeof written === 'string' ? written : written.outcome;
    } catch (e) {
      if (e instanceof ApiError)
        throw new ApiError(
          e.status,
          e.errors.map((x) => ({ code: x.code, message: `${label(row)}: ${x.message}` })),
        );
      throw e;
    }
    if (outcome !== 'unchanged') counts[outcome]++;
  }
  return counts;
}

/**
 * Scope of an import: every office (path prefix '/'), with the first root office standing
 * for the calling application where a row leaves its office to a default.
 */
export async function importScope(trx: Db): Promise<OfficeScope> {
  const root = await trx
    .selectFrom('offices')
    .select(['id', 'code'])
    .where('parent_id', 'is', null)
    .orderBy('id')
    .executeTakeFirst();
  if (!root) throw new Error('no office: import offices first');
  return { officeId: String(root.id), officeCode: root.code, path: '/' };
}
