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
