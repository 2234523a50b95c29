import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../db/index.ts';

/** Extra first-party clients (the console) that do not live in the applications table. */
export type StaticClients = Map<string, AdapterPayload>;

/**
 * oidc-provider's storage, in the database. Clients are the static ones (the console) and
 * the applications, which `findApplication` authenticates (clientAuth.ts).
 */
export function createAdapterClass(
  db: Db,
  staticClients: StaticClients,
  findApplication: (clientId: string) => Promise<AdapterPayload | undefined>,
) {
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
      if (this.model === 'Client') return staticClients.get(id) ?? findApplication(id);
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
