import type { ColumnType } from 'kysely';

/** Skills and characteristics: instance-wide catalog (db/migrations/004_catalog.sql). */
interface CatalogEntryTable {
  code: string;
  name: string;
  description: string | null;
  /** Defaults to now() on insert. */
  last_update: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Kysely types of this domain's tables (see db/migrations). */
export type StaffTables = {
  skills: CatalogEntryTable;
  characteristics: CatalogEntryTable;
};
