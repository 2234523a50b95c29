import type { ColumnType, Generated } from 'kysely';
import type { Json } from '../../db/schema.ts';

/** A weekly working period in the technician's time zone (weekday 1..7, Monday = 1). */
export interface WorkingHours {
  weekday: number;
  start: string;
  end: string;
}
/** An absence: ISO 8601 instants (UTC). */
export interface Absence {
  start: string;
  end: string;
}
/** A crew member's participation interval as imported (`to` absent: open-ended). */
export interface CrewMemberInput {
  technicianCode: string;
  from: string;
  to?: string | null;
}

/** Kysely types of the rostering tables (migrations/). */
export interface RosteringTables {
  technicians: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    code: string;
    name: string;
    office_id: string;
    skills: ColumnType<string[], string[] | undefined, string[]>;
    active: ColumnType<boolean, boolean | undefined, boolean>;
    home_latitude: number | null;
    home_longitude: number | null;
    time_zone: ColumnType<string, string | undefined, string>;
    /** null: the default week (DEFAULT_WORKING_HOURS). */
    working_hours: Json<WorkingHours[] | null> | null;
    absences: ColumnType<Absence[], string | undefined, string>;
    max_work_orders_per_day: number | null;
    max_minutes_per_day: number | null;
    areas: ColumnType<string[], string[] | undefined, string[]>;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  areas: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    code: string;
    name: string;
    zip_codes: ColumnType<string[], string[] | undefined, string[]>;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  crews: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    code: string;
    disabled_at: ColumnType<string | null, string | null | undefined, string | null>;
    members: ColumnType<{ main: CrewMemberInput; secondary: CrewMemberInput[] }, string, string>;
    last_update: ColumnType<Date, Date | string | undefined, Date | string>;
  };
  crew_members: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    crew_code: string;
    technician_code: string;
    is_main: boolean;
    from_date: ColumnType<string, string, string>;
    to_date: ColumnType<string | null, string | null | undefined, string | null>;
  };
}
