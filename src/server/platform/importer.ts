import { sql } from 'kysely';
import type { z } from 'zod';
import { foldCode } from '../../contract/common.ts';
import type { Db } from '../db/index.ts';
import { enterTenant } from '../db/tenant.ts';
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

/** Keys ordered below this are the platform's (offices, applications, users); the rest a tenant's. */
export const PLATFORM_KEYS_BEFORE = 40;

/** The root office of an import's tenant: `code`, or the first root office. */
export async function tenantRoot(trx: Db, code?: string) {
  let q = trx.selectFrom('offices').select(['id', 'code']).where('parent_id', 'is', null);
  q = code ? q.where('code', '=', foldCode(code)) : q.orderBy('id');
  const root = await q.executeTakeFirst();
  if (!root)
    throw new Error(code ? `${foldCode(code)} is not a root office` : 'no office: import offices first');
  return { id: String(root.id), code: root.code };
}

/** Enters the import's tenant for the rest of the transaction (and remembers it: importScope). */
export async function enterImportTenant(trx: Db, root: string) {
  await sql`SELECT set_config('fieldwork.import_tenant', ${root}, true)`.execute(trx);
  await enterTenant(trx, root);
}

/**
 * Scope of an import's rows: every office (path prefix '/'), with the root office of the
 * import's tenant standing for the calling application where a row leaves its office to a
 * default. The statements themselves run inside one tenant (db/tenant.ts): the import's,
 * or the one of the row's office (importOffice).
 */
export async function importScope(trx: Db): Promise<OfficeScope> {
  const { rows } = await sql<{ id: string; code: string }>`
    SELECT id::text, code FROM offices WHERE id = current_setting('fieldwork.import_tenant')::bigint`.execute(
    trx,
  );
  const root = rows[0];
  if (!root) throw new Error('no office: import offices first');
  return { officeId: root.id, officeCode: root.code, path: '/' };
}

/**
 * The office of an import row (any office of the instance; refused when unknown), and its
 * tenant entered: the row, and the references it names, are that tenant's.
 */
export async function importOffice(trx: Db, code: string): Promise<string> {
  const row = await trx
    .selectFrom('offices')
    .select(['id', 'path'])
    .where('code', '=', foldCode(code))
    .executeTakeFirst();
  if (!row) throw new Error(`office ${foldCode(code)} does not exist`);
  await enterTenant(trx, row.path.split('/')[1]);
  return String(row.id);
}
