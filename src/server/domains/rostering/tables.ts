import type { ColumnType } from 'kysely';

/** Kysely types of the rostering tables (migrations/). */
export interface RosteringTables {
  technicians: {
    code: string;
    name: string;
    office_id: string;
    skills: ColumnType<string[], string[] | undefined, string[]>;
    active: ColumnType<boolean, boolean | undefined, boolean>;
    home_latitude: number | null;
    home_longitude: number | null;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
}
