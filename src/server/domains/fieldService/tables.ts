import type { ColumnType, Generated } from 'kysely';
import type { WorkOrderStatus } from '../../../contract/fieldService.ts';

/** Kysely types of the field service tables (migrations/). */
export interface FieldServiceTables {
  work_order_types: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    code: string;
    name: string;
    duration_minutes: number;
    skills: ColumnType<string[], string[] | undefined, string[]>;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  work_orders: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    id: Generated<string>;
    uuid: string;
    code: string;
    type_code: string;
    status: WorkOrderStatus;
    office_id: string;
    customer_code: string | null;
    site_code: string | null;
    asset_code: string | null;
    address: string | null;
    zip_code: string | null;
    city: string | null;
    country: string | null;
    latitude: number | null;
    longitude: number | null;
    description: string | null;
    technician_code: string | null;
    /** The crew a work order is scheduled on (migration 033); technician_code is its main resource. */
    crew_code: string | null;
    scheduled_start: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  used_items: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    used_item_id: string;
    work_order_id: string;
    kind: 'part' | 'labour' | 'onTheFly';
    item_code: string | null;
    label: string | null;
    /** numeric: a string from the database. */
    quantity: ColumnType<string, string | number, string | number>;
    unit: string | null;
    unit_price: ColumnType<string | null, string | number | null, string | number | null>;
    invoice_mode: 'external' | 'internal';
    serial_number: string | null;
    technician_code: string | null;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
}
