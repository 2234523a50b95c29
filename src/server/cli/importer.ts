import type { z } from 'zod';
import type { Db } from '../db/index.ts';

/**
 * One key of the import file (`fieldwork import FILE.json`). Each domain exports the
 * importers of its own keys; the import command validates every key with `schema`
 * first (errors reported by JSON path), then applies them in `order` inside one
 * transaction, so a file is imported whole or not at all. Applying is an upsert by code:
 * importing the same file twice changes nothing the second time.
 */
export interface Importer<T = unknown> {
  key: string;
  /** Lower runs first (offices before applications before customers...). */
  order: number;
  /** Schema of one element of the key's array. */
  schema: z.ZodType<T>;
  apply(trx: Db, rows: T[]): Promise<{ created: number; updated: number }>;
}
