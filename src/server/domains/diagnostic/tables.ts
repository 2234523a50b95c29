import type { ColumnType, Generated } from 'kysely';
import type { Json } from '../../db/schema.ts';

export type ReportFields = Record<string, string | number | boolean | null>;

/** Kysely types of the diagnostic tables (migrations/). */
export interface DiagnosticTables {
  flags: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    flag_id: number;
    label: string;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  work_order_flags: { work_order_id: string; flag_id: number };
  work_order_notes: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    work_order_id: string;
    note_code: string;
    content: string | null;
    report_fields: Json<ReportFields | null> | null;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
}
