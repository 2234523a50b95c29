import type { ColumnType, Generated } from 'kysely';
import type { Json } from '../../db/schema.ts';

/** Kysely types of the change log (migrations/100_changes.sql, 103), written by its trigger only. */
export interface ChangesTables {
  changes: {
    /** The record's tenant (migration 090). */
    tenant_id: Generated<string>;
    id: string;
    kind: string;
    code: string;
    uuid: string | null;
    office_id: string | null;
    previous_office_id: string | null;
    action: string;
    actor: Json<{ type: string; identifier: string }>;
    at: ColumnType<Date, Date | string | undefined, Date | string>;
    fields: Json<{ name: string; before: unknown; after: unknown }[]>;
  };
  change_counters: {
    tenant_id: Generated<string>;
    pruned_through: Generated<string>;
  };
}
