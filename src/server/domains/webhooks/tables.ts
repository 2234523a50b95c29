import type { ColumnType, Generated } from 'kysely';
import type { DeliveryStatus } from '../../../contract/webhooks.ts';
import type { Json, Timestamp } from '../../db/schema.ts';

type Optional<T> = ColumnType<T, T | undefined, T>;
/** A timestamp the database fills in by default. */
type DefaultTime = ColumnType<Date, Date | string | undefined, Date | string>;

/** Kysely types of the webhooks tables (migrations/060_webhooks.sql). */
export interface WebhooksTables {
  webhook_subscriptions: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    id: Generated<string>;
    seq: Generated<string>;
    application_id: string | null;
    user_id: string | null;
    event_types: string[];
    callback_url: string;
    secret: string | null;
    headers: Json<Record<string, string>>;
    created_at: DefaultTime;
  };
  webhook_deliveries: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    id: Generated<string>;
    seq: Generated<string>;
    subscription_id: string;
    event_type: string;
    data: Json<Record<string, unknown>>;
    created_at: DefaultTime;
    window_start: DefaultTime;
    status: Optional<DeliveryStatus>;
    attempts: Optional<number>;
    window_attempts: Optional<number>;
    next_attempt_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
    claim: string | null;
    last_attempt_at: Timestamp | null;
    last_status_code: number | null;
    last_duration_ms: number | null;
    last_error: string | null;
    finished_at: Timestamp | null;
    /** The change log entry reported, its transaction and record (migration 102). */
    change_tx: string | null;
    change_record: string | null;
    change_id: string | null;
  };
  webhook_attempts: {
    /** The record\'s tenant (migration 090): its default, trigger or the caller\'s. */
    tenant_id: Generated<string>;
    id: Generated<string>;
    delivery_id: string;
    attempt: number;
    started_at: Timestamp;
    duration_ms: number;
    status_code: number | null;
    error: string | null;
    succeeded: boolean;
    worker: string;
  };
}
