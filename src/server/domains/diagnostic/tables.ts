import type { ColumnType } from 'kysely';
import type { Json } from '../../db/schema.ts';

export type ReportFields = Record<string, string | number | boolean | null>;

/** Kysely types of the diagnostic tables (migrations/). */
export interface DiagnosticTables {
  flags: {
    flag_id: number;
    label: string;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  work_order_flags: { work_order_id: string; flag_id: number };
  work_order_notes: {
    work_order_id: string;
    note_code: string;
    content: string | null;
    report_fields: Json<ReportFields | null> | null;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
}
