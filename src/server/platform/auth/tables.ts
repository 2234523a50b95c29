import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../db/schema.ts';

/** Kysely types of the OAuth tables (migration 002). */
export interface AuthTables {
  oauth_models: {
    model: string;
    id: string;
    payload: unknown;
    grant_id: string | null;
    user_code: string | null;
    uid: string | null;
    expires_at: Timestamp | null;
    consumed_at: Timestamp | null;
  };
}

/** Invalidation of the cached callers across processes (migration 020, callerCache.ts). */
export interface CallerChangeTables {
  caller_changes: { id: ColumnType<boolean, boolean | undefined, never>; version: string };
  caller_listeners: {
    id: string;
    seen: string;
    beat_at: ColumnType<Date, Date | string | undefined, Date | string>;
  };
}
