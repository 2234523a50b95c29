import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { AdapterPayload, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { ALL_SCOPES } from '../../../contract/domains.ts';
import type { Db } from '../../db/index.ts';
import { instanceSecret } from '../secrets.ts';
import { createAdapterClass, type StaticClients } from './adapter.ts';
import { applicationClaims } from './clientAuth.ts';
import { CONSOLE_ACCESS_TOKEN_TTL, CONSOLE_CLIENT_ID, CONSOLE_SESSION_TTL } from './consoleClient.ts';
import { findAccount, sessionClaims } from './login.ts';
import {
  errorPage,
  LOGOUT_PAGE_HEADERS,
  logoutPage,
  pageLanguage,
  pageSecurityHeaders,
} from './loginPage.ts';
import { errors, Provider } from './oidc.ts';

/** Audience of every access token: this instance's API. */
export const API_RESOURCE = 'urn:fieldwork:api';

export interface ProviderOptions {
  db: Db;
  /** Public base URL of the instance, e.g. http://127.0.0.1:8080 */
  publicUrl: string;
  /** Lifetime of access tokens given to applications, in seconds (default 3600). */
  accessTokenTtl: number;
  staticClients?: StaticClients;
  /** Looks an application up and authenticates it (clientAuth.ts). */
  findApplication: (clientId: string) => Promise<AdapterPayload | undefined>;
  extra?: Partial<Configuration>;
}

/** The signing key pair, made on first start and kept in the database. */
export async function signingKey(db: Db): Promise<JWK> {
  const text = await instanceSecret(db, 'oauth.signing.jwk', () => '');
  if (text) return JSON.parse(text) as JWK;
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = {
    ...(await exportJWK(privateKey)),
    alg: 'ES256',
    use: 'sig',
    kid: `k${Date.now().toString(36)}`,
  };
  await db
    .updateTable('instance_secrets')
    .set({ value: JSON.stringify(jwk) })
    .where('name', '=', 'oauth.signing.jwk')
    .where('value', '=', '')
    .execute();
  return JSON.parse((await instanceSecret(db, 'oauth.signing.jwk')) as string) as JWK;
}

/**
 * RFC 6749 3.3 for client_credentials (called before oidc-provider reads the requested
 * scope): without `scope`, every scope the application holds; with it, exactly those when
 * the application holds them all, else `invalid_scope` (an unknown scope too).
 */
function applicationScope(ctx: KoaContextWithOIDC, client: { scope?: string }) {
  const params = ctx.oidc.params as { scope?: string };
  const held = (client.scope ?? '').split(' ').filter(Boolean);
  if (!params.scope) {
    params.scope = held.join(' ');
    return;
  }
  const asked = params.scope.split(' ').filter(Boolean);
  const unknown = asked.filter((s) => !ALL_SCOPES.includes(s));
  if (unknown.length > 0) throw new errors.InvalidScope('unknown scope', unknown.join(' '));
  const unheld = asked.filter((s) => !held.includes(s));
  if (unheld.length > 0)
    throw new errors.InvalidScope('the application does not hold this scope', unheld.join(' '));
}

export async function createProvider(opts: ProviderOptions) {
  const jwk = await signingKey(opts.db);
  const issuer = `${opts.publicUrl}/oauth`;
  const cookieKey = await instanceSecret(opts.db, 'oauth.cookie.key');
  const provider = new Provider(issuer, {
    adapter: createAdapterClass(opts.db, opts.staticClients ?? new Map(), opts.findApplication),
    // An application's token names the application row and its token version (clientAuth.ts);
    // a user's, the user's session version (users.ts), both checked on every request.
    extraTokenClaims: async (ctx, token) =>
      'accountId' in token && token.accountId
        ? sessionClaims(opts.db, token.accountId)
        : applicationClaims(ctx),
    jwks: { keys: [jwk] },
    scopes: [...ALL_SCOPES, 'offline_access'],
    // Console sign-in (authorization code + PKCE): accounts are rows of `users`.
    findAccount: (_ctx, id) => findAccount(opts.db, id),
    interactions: { url: (_ctx, interaction) => `/oauth/interaction/${interaction.uid}` },
    cookies: { keys: [cookieKey], long: { signed: true }, short: { signed: true } },
    pkce: { required: () => true },
    // Advertise only what works (issue 25, 3), each tested with openid-client
    // (auth/integrator.test.ts): the authorization code flow (the console), refresh and
    // client_credentials; secrets by HTTP Basic or in the body (they are stored hashed, so
    // client_secret_jwt, which needs the plain secret, cannot be offered), the console as a
    // public client. No implicit flow, no id_token response types.
    responseTypes: ['code'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    // A browser (an Origin header) may call the token and revocation endpoints only from an
    // origin of the client's own redirect URIs: the console's. Integrations call from servers.
    clientBasedCORS: (_ctx, origin, client) =>
      (client.redirectUris ?? []).some((uri) => URL.canParse(uri) && new URL(uri).origin === origin),
    renderError: async (ctx, out) => {
      ctx.set(pageSecurityHeaders());
      ctx.type = 'html';
      ctx.body = errorPage(
        out,
        `${opts.publicUrl}/`,
        pageLanguage(ctx.query?.ui_locales, ctx.get('accept-language')),
      );
    },
    // The console does not send prompt=consent (its consent is implied), which would make
    // oidc-provider drop offline_access; a first-party sign-in gets its refresh token anyway.
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') &&
      (client.clientId === CONSOLE_CLIENT_ID || code.scopes.has('offline_access')),
    // A used refresh token is replaced; presenting the old one again is refused.
    rotateRefreshToken: true,
    ttl: {
      RefreshToken: CONSOLE_SESSION_TTL,
      Session: CONSOLE_SESSION_TTL,
      Grant: CONSOLE_SESSION_TTL,
      Interaction: 15 * 60,
      AuthorizationCode: 60,
      // Integrations' tokens (FIELDWORK_TOKEN_TTL); the JWT's own lifetime is set per
      // resource below, this one bounds the stored artefact.
      ClientCredentials: opts.accessTokenTtl,
      AccessToken: CONSOLE_ACCESS_TOKEN_TTL,
    },
    routes: {
      authorization: '/auth',
      token: '/token',
      revocation: '/revoke',
      jwks: '/jwks',
      end_session: '/session/end',
    },
    features: {
      devInteractions: { enabled: false },
      // Not offered: the API does not take sender-constrained tokens (DPoP proofs), no client
      // pushes its authorization requests, and the API's own /me answers who a token is
      // (contract: getMe), the tokens being for the API resource only.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: {
        enabled: true,
        // A client revokes only its own tokens; for a public client (the console) another
        // client's token is silently not revoked, as RFC 7009 allows.
        allowedPolicy: async (_ctx, client, token) => {
          if (token.clientId === client.clientId) return true;
          if (client.clientAuthMethod === 'none') return false;
          throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.set(LOGOUT_PAGE_HEADERS);
          ctx.type = 'html';
          ctx.body = logoutPage(form, pageLanguage(undefined, ctx.get('accept-language')));
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => API_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (ctx, resource, client) => {
          if (resource !== API_RESOURCE) throw new errors.InvalidTarget();
          const application = client.clientId !== CONSOLE_CLIENT_ID;
          if (application && ctx.oidc.params?.grant_type === 'client_credentials')
            applicationScope(ctx, client);
          return {
            scope: application ? (client.scope ?? '') : ALL_SCOPES.join(' '),
            audience: API_RESOURCE,
            accessTokenTTL:
              client.clientId === CONSOLE_CLIENT_ID ? CONSOLE_ACCESS_TOKEN_TTL : opts.accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    ...opts.extra,
  });
  provider.proxy = true;
  return { provider, issuer, jwk };
}
