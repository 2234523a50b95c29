import type { JWTPayload } from 'jose';
import { sql } from 'kysely';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../../db/index.ts';
import { awaitCallerListeners } from './callerCache.ts';

/**
 * Revocation (RFC 7009) of access tokens. oidc-provider stores refresh tokens (revoking one
 * deletes it) but not JWT access tokens, which it refuses to revoke (`unsupported_token_type`).
 * Here the refused request is taken over once the client is authenticated: a token of ours
 * (signature, issuer, audience) issued to that client goes on the revocation list by its
 * `jti` until it expires (migration 080). The list's trigger drops the cached callers of
 * every process, which then read it (auth/index.ts); the answer waits, as the command line
 * does, until each has, so the token is refused on the next request everywhere.
 */
export async function revokeAccessToken(db: Db, claims: JWTPayload) {
  if (typeof claims.jti !== 'string' || typeof claims.exp !== 'number') return;
  // Every statement on the list drops the cached callers of every process (its trigger):
  // a token revoked already, or no expired row to purge, writes nothing.
  const listed = await db
    .selectFrom('revoked_tokens')
    .select('jti')
    .where('jti', '=', claims.jti)
    .executeTakeFirst();
  if (listed) return;
  const expired = await db
    .selectFrom('revoked_tokens')
    .select('jti')
    .where('expires_at', '<', sql<Date>`now()`)
    .limit(1)
    .executeTakeFirst();
  if (expired) await db.deleteFrom('revoked_tokens').where('expires_at', '<', sql<Date>`now()`).execute();
  await db
    .insertInto('revoked_tokens')
    .values({ jti: claims.jti, expires_at: new Date(claims.exp * 1000) })
    .onConflict((oc) => oc.column('jti').doNothing())
    .execute();
  await awaitCallerListeners(db, 2000);
}

/**
 * The koa middleware, around oidc-provider's own revocation endpoint. `verify` checks a
 * token's signature, issuer and audience (undefined: not one of ours).
 */
export function revokeAccessTokens(db: Db, verify: (token: string) => Promise<JWTPayload | undefined>) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    const body = ctx.body as { error?: string } | undefined;
    if (ctx.oidc?.route !== 'revocation' || ctx.status !== 400 || body?.error !== 'unsupported_token_type')
      return;
    const client = ctx.oidc.client;
    const token = (ctx.oidc.params as { token?: unknown } | undefined)?.token;
    if (!client || typeof token !== 'string') return;
    const claims = await verify(token);
    // RFC 7009 2.2: an invalid or expired token is answered 200 all the same.
    if (claims && claims.client_id !== client.clientId) {
      // As for the tokens oidc-provider stores (provider.ts, allowedPolicy): a public client
      // (the console) is silently not obeyed; a confidential one is told.
      if (client.clientAuthMethod !== 'none') {
        ctx.body = {
          error: 'invalid_request',
          error_description: 'client is not authorized to revoke the presented token',
        };
        return;
      }
    } else if (claims) await revokeAccessToken(db, claims);
    ctx.status = 200;
    ctx.body = '';
  };
}
