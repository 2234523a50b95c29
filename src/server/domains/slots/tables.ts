import type { ColumnType, Generated } from 'kysely';

/** Kysely types of the slots tables (migrations/). */
export interface SlotsTables {
  geocoding_entries: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    zip_code: string;
    city: string;
    country: string;
    latitude: number;
    longitude: number;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  /** Migration 038: the version of each technician's calendar (written by triggers only). */
  slot_calendars: {
    technician_code: string;
    stamp: string;
  };
  customer_portal_users: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    login: string;
    office_id: string;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
}
