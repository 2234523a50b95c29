import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../db/index.ts';

/**
 * Client credentials presented on the token request, verified against the scrypt hash
 * before oidc-provider sees them (see index.ts). oidc-provider compares a presented
 * secret with the client's stored `client_secret`; we never store it in clear, so the
 * Client model returns the presented secret only once it has been verified, and an
 * unguessable one otherwise, which makes oidc-provider answer `invalid_client`.
 */
export interface VerifiedClient {
  clientId: string;
  secret: string;
  method: 'client_secret_basic' | 'client_secret_post';
}
export const verifiedClient = new AsyncLocalStorage<VerifiedClient | null>();

/** Extra first-party clients (the console) that do not live in the applications table. */
export type StaticClients = Map<string, AdapterPayload>;

export function createAdapterClass(db: Db, staticClients: StaticClients) {
  return class DbAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      const row = {
        model: this.model,
        id,
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
        consumed_at: null,
      };
      await db
        .insertInto('oauth_models')
        .values(row)
        .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
        .execute();
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return findClient(db, staticClients, id);
      const row = await db
        .selectFrom('oauth_models')
        .select(['payload', 'consumed_at', 'expires_at'])
        .where('model', '=', this.model)
        .where('id', '=', id)
        .executeTakeFirst();
      return toPayload(row);
    }

    async findByUid(uid: string) {
      const row = await db
        .selectFrom('oauth_models')
        .select(['payload', 'consumed_at', 'expires_at'])
        .where('model', '=', this.model)
        .where('uid', '=', uid)
        .executeTakeFirst();
      return toPayload(row);
    }

    async findByUserCode(userCode: string) {
      const row = await db
        .selectFrom('oauth_models')
        .select(['payload', 'consumed_at', 'expires_at'])
        .where('model', '=', this.model)
        .where('user_code', '=', userCode)
        .executeTakeFirst();
      return toPayload(row);
    }

    async consume(id: string) {
      await db
        .updateTable('oauth_models')
        .set({ consumed_at: new Date() })
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async destroy(id: string) {
      await db.deleteFrom('oauth_models').where('model', '=', this.model).where('id', '=', id).execute();
    }

    async revokeByGrantId(grantId: string) {
      await db.deleteFrom('oauth_models').where('grant_id', '=', grantId).execute();
    }
  };
}

function toPayload(
  row: { payload: unknown; consumed_at: Date | null; expires_at: Date | null } | undefined,
): AdapterPayload | undefined {
  if (!row) return undefined;
  if (row.expires_at && row.expires_at.getTime() < Date.now()) return undefined;
  const payload = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as AdapterPayload;
  return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
}

async function findClient(
  db: Db,
  staticClients: StaticClients,
  clientId: string,
): Promise<AdapterPayload | undefined> {
  const fixed = staticClients.get(clientId);
  if (fixed) return fixed;
  const app = await db
    .selectFrom('applications')
    .select(['client_id'])
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!app) return undefined;
  const verified = verifiedClient.getStore();
  const ok = verified && verified.clientId === clientId;
  return {
    client_id: clientId,
    client_secret: ok ? verified.secret : randomBytes(48).toString('base64url'),
    token_endpoint_auth_method: ok ? verified.method : 'client_secret_basic',
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    id_token_signed_response_alg: 'ES256',
  };
}
