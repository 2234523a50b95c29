import type { Generated } from 'kysely';
import type { Timestamp } from '../../db/schema.ts';

/** Skills and characteristics: instance-wide catalog (db/migrations/004_catalog.sql). */
interface CatalogEntryTable {
  code: string;
  name: string;
  description: string | null;
  last_update: Generated<Timestamp>;
}

/** Kysely types of this domain's tables (see db/migrations). */
export type StaffTables = {
  skills: CatalogEntryTable;
  characteristics: CatalogEntryTable;
};
