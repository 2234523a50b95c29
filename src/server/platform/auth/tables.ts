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

/** Revoked access tokens by jti, until they expire (migration 080, revocation.ts). */
export interface RevokedTokenTables {
  revoked_tokens: { jti: string; expires_at: Timestamp };
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
