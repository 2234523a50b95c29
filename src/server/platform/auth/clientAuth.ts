import type { AdapterPayload, KoaContextWithOIDC } from 'oidc-provider';
import type { Db } from '../../db/index.ts';
import { errors, Provider } from './oidc.ts';
import { dummyHash, verifySecretOrDummy } from './passwords.ts';
import type { TokenGuard } from './tokenLimits.ts';

/**
 * Client authentication of the applications (client_credentials), run when oidc-provider
 * looks the client up during a token or revocation request.
 *
 * oidc-provider compares the presented secret with the client's stored `client_secret`;
 * we keep only a scrypt hash, so the check happens here: the Client model is returned with
 * the presented secret once it matches the hash, and not at all otherwise (oidc-provider
 * then answers 401 invalid_client, the same answer as for an unknown client id).
 *
 * - Timing: an unknown (or disabled) client id is checked against a dummy hash of the
 *   same cost, so the answer takes as long as for a known id with a wrong secret.
 * - Guessing: failed attempts are counted per address (tokenLimits.ts); past the budget
 *   the answer is 429 with Retry-After, before any secret is checked. Not per client id:
 *   anyone could lock a real client out, and a secret of 32 characters or more is not
 *   guessed a few hundred tries at a time.
 */
export class TooManyFailures extends errors.OIDCProviderError {
  constructor(readonly retryAfter: number) {
    super(429, 'invalid_client');
    Object.assign(this, {
      error_description: `too many failed client authentications; retry in ${retryAfter} s`,
    });
  }
}

/** What a token carries about its application (auth/index.ts checks it on every request). */
export type ApplicationClaims = {
  /** applications.id: a deleted then re-created client id does not revive old tokens. */
  fw_app: string;
  /** applications.token_version when the token was issued: a rotated secret revokes it. */
  fw_ver: number;
};

// The application a token request authenticated, for extraTokenClaims (provider.ts).
const authenticated = new WeakMap<object, ApplicationClaims>();

export function applicationClaims(ctx: KoaContextWithOIDC): ApplicationClaims | undefined {
  return authenticated.get(ctx);
}

/** The secret the request presents (form body or HTTP Basic, decoded as oidc-provider does). */
function presented(
  ctx: KoaContextWithOIDC,
): { secret: string; method: 'client_secret_post' | 'client_secret_basic' } | undefined {
  const posted = ctx.oidc?.params?.client_secret;
  if (typeof posted === 'string' && posted) return { secret: posted, method: 'client_secret_post' };
  const basic = /^Basic\s+(\S+)$/i.exec(ctx.headers.authorization ?? '');
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return undefined;
  try {
    const secret = decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, '%20'));
    return secret ? { secret, method: 'client_secret_basic' } : undefined;
  } catch {
    return undefined;
  }
}

export async function createClientAuthenticator(db: Db, guard: TokenGuard) {
  await dummyHash(); // made now rather than during the first attempt
  return async function applicationClient(clientId: string): Promise<AdapterPayload | undefined> {
    const ctx = Provider.ctx as KoaContextWithOIDC | undefined;
    const credentials = ctx && presented(ctx);
    if (!ctx || !credentials) return undefined;
    // Fastify's view of the caller's address (its trustProxy setting), passed on by middie.
    const address = (ctx.req as { ip?: string }).ip ?? ctx.ip;
    const attempt = await guard.attempt({ perAddress: address });
    if ('wait' in attempt) {
      ctx.set('Retry-After', String(attempt.wait));
      throw new TooManyFailures(attempt.wait);
    }
    const app = await db
      .selectFrom('applications')
      .select(['id', 'secret_hash', 'token_version', 'scopes'])
      .where('client_id', '=', clientId)
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    // Always one scrypt, whether or not the client id exists.
    const matches = await verifySecretOrDummy(credentials.secret, app?.secret_hash);
    if (!app || !matches) return undefined;
    await attempt.succeeded();
    authenticated.set(ctx, { fw_app: String(app.id), fw_ver: app.token_version });
    return {
      client_id: clientId,
      client_secret: credentials.secret,
      token_endpoint_auth_method: credentials.method,
      grant_types: ['client_credentials'],
      // What it may ask for (provider.ts narrows and checks the requested scope against it).
      scope: app.scopes.join(' '),
      response_types: [],
      redirect_uris: [],
      id_token_signed_response_alg: 'ES256',
    };
  };
}
