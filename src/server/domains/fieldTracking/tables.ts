import type { ColumnType, Generated } from 'kysely';

type Stamp = ColumnType<Date, Date | string, Date | string>;
type StampDefault = ColumnType<Date, Date | string | undefined, Date | string>;

/** Kysely types of the field tracking tables (migrations/). */
export interface FieldTrackingTables {
  activity_types: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    code: string;
    name: string;
    last_update: StampDefault;
  };
  activities: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    activity_id: string;
    work_order_id: string;
    type_code: string;
    agent_code: string;
    start_time: Stamp;
    end_time: Stamp;
    billable: boolean;
    validated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    last_update: StampDefault;
  };
  technician_positions: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    technician_code: string;
    recorded_at: Stamp;
    latitude: number;
    longitude: number;
    accuracy: number | null;
    speed: number | null;
    heading: number | null;
  };
}
