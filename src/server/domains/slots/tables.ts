import type { ColumnType } from 'kysely';

/** Kysely types of the slots tables (migrations/). */
export interface SlotsTables {
  geocoding_entries: {
    zip_code: string;
    city: string;
    country: string;
    latitude: number;
    longitude: number;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  customer_portal_users: {
    login: string;
    office_id: string;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
}
