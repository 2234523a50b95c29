import type { ServerResponse } from 'node:http';
import middie from '@fastify/middie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { importJWK, jwtVerify } from 'jose';
import { sql } from 'kysely';
import type { KoaContextWithOIDC, Provider } from 'oidc-provider';
import oidcContext from 'oidc-provider/lib/helpers/als.js';
import { type Endpoint, requiredScope } from '../../../contract/endpoint.ts';
import { CommonCodes } from '../../../contract/errors.ts';
import { scopesOfRoles } from '../../../contract/roleScopes.ts';
import { isDatabaseUnavailable } from '../../db/faults.ts';
import type { Db } from '../../db/index.ts';
import type { Caller } from '../caller.ts';
import { inlineScriptHashes } from '../console.ts';
import { ApiError, DATABASE_RETRY_AFTER } from '../errors.ts';
import { CallerCache, Lru } from './callerCache.ts';
import { createClientAuthenticator } from './clientAuth.ts';
import { CONSOLE_CLIENT_ID, consoleClient } from './consoleClient.ts';
import { registerLoginRoutes } from './login.ts';
import { pageSecurityHeaders } from './loginPage.ts';
import { API_RESOURCE, createProvider } from './provider.ts';
import { revokeAccessTokens } from './revocation.ts';
import type { LoginGuard, TokenGuard } from './tokenLimits.ts';

/** Where the authorization server is mounted: its issuer is the public URL and this path. */
const OAUTH_PATH = '/oauth';

export interface AuthOptions {
  db: Db;
  /** Cached callers, invalidated by the database's notifications (callerCache.ts, app.ts). */
  callers?: CallerCache;
  /** Verified tokens kept at most (least recently used out first). */
  verifiedTokens?: number;
  publicUrl: string;
  accessTokenTtl: number;
  /** Failed client authentications at the token endpoint (tokenLimits.ts). */
  tokenGuard: TokenGuard;
  /** Failed console sign-ins (tokenLimits.ts). */
  loginGuard: LoginGuard;
  /** `npm run dev`: the console client also takes vite's dev server addresses. */
  devConsole?: boolean;
}

/**
 * RFC 6750 3: every 401 of the API names the scheme; a token that was presented and
 * refused says `invalid_token`, a missing one no error code; a 403 for a missing scope
 * says `insufficient_scope` and the scope needed.
 */
const REALM = 'realm="fieldwork"';
const unauthorized = (code: string, message: string, error?: string) =>
  new ApiError(401, code, message, {
    'WWW-Authenticate': error
      ? `Bearer ${REALM}, error="${error}", error_description="${message}"`
      : `Bearer ${REALM}`,
  });
const invalidToken = () =>
  unauthorized(CommonCodes.badCredentials, 'The access token is invalid or expired', 'invalid_token');

/** A client secret in the URL ends up in logs and histories: refused (and redacted from the log, app.ts). */
function secretInQuery(url: string) {
  const i = url.indexOf('?');
  return i >= 0 && new URLSearchParams(url.slice(i + 1)).has('client_secret');
}

/**
 * oidc-provider renders a few HTML pages of its own (the sign-out without a session, the
 * form_post answer) with an inline script: each gets the headers of our pages, its inline
 * scripts allowed by hash, when the page did not set a CSP itself (loginPage.ts).
 */
function securePages(res: ServerResponse) {
  const end = res.end;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    const type = String(res.getHeader('content-type') ?? '');
    if (!res.headersSent && type.startsWith('text/html') && !res.hasHeader('content-security-policy')) {
      const html = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
      const hashes = inlineScriptHashes(html).join(' ');
      for (const [k, v] of Object.entries(pageSecurityHeaders(hashes || undefined))) res.setHeader(k, v);
    }
    return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse['end'];
}

/**
 * A database that cannot serve (db/faults.ts: unreachable, a lost connection, a timeout) is
 * `503 temporarily_unavailable` with Retry-After at the OAuth endpoints, as it is `503
 * service.database.unavailable` in the API, instead of oidc-provider's `500 server_error`.
 */
function databaseUnavailable(provider: Provider) {
  const failed = new WeakMap<object, unknown>();
  provider.on('server_error', (ctx: object, err: unknown) => failed.set(ctx, err));
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    let err: unknown;
    try {
      await next();
      err = ctx.status === 500 ? failed.get(ctx) : undefined;
    } catch (thrown) {
      if (!isDatabaseUnavailable(thrown)) throw thrown;
      err = thrown;
    }
    if (!isDatabaseUnavailable(err)) return;
    ctx.status = 503;
    ctx.set('Retry-After', String(DATABASE_RETRY_AFTER));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      error: 'temporarily_unavailable',
      error_description: 'the database is unavailable or did not answer in time; retry shortly',
    };
  };
}

/**
 * Mounts the OAuth 2.0 authorization server (oidc-provider) at /oauth and returns the
 * guard that turns a bearer token into a Caller.
 */
export async function registerAuth(app: FastifyInstance, opts: AuthOptions) {
  const staticClients = new Map([[CONSOLE_CLIENT_ID, consoleClient(opts.publicUrl, opts.devConsole)]]);
  const findApplication = await createClientAuthenticator(opts.db, opts.tokenGuard);
  const { provider, issuer, jwk } = await createProvider({ ...opts, staticClients, findApplication });
  const { d: _private, ...publicJwk } = jwk;
  const publicKey = await importJWK(publicJwk, 'ES256');
  const verifyToken = async (token: string) => {
    try {
      return (await jwtVerify(token, publicKey, { issuer, audience: API_RESOURCE })).payload;
    } catch {
      return undefined;
    }
  };
  provider.use(databaseUnavailable(provider));
  provider.use(revokeAccessTokens(opts.db, verifyToken));

  await mountProvider(app, provider);
  registerLoginRoutes(app, provider, opts.db, opts.publicUrl, opts.loginGuard);
  serveMetadata(app);
  const callers = opts.callers ?? new CallerCache();
  const { authenticate, stats } = bearerGuard(opts.db, verifyToken, callers, opts.verifiedTokens);
  return { authenticate, provider, callers, stats };
}

/** oidc-provider's requests: /oauth and below, but the sign-in page (login.ts). */
async function mountProvider(app: FastifyInstance, provider: Provider) {
  const handle = provider.callback();
  // oidc-provider keeps each of its requests' context in an AsyncLocalStorage. Once used,
  // Node 20 keeps an async hook that runs on every promise of the process, every API
  // request included (about 3 % of a customer GET's CPU), until the storage is disabled:
  // it is disabled when no request of oidc-provider is in flight any more, and its next
  // request enables it again.
  let inOidc = 0;
  const oidcDone = () => {
    if (--inOidc === 0) oidcContext.disable();
  };
  // The middleware engine (@fastify/middie) hooks every request of the context it is
  // registered in, and prepares each for Express-style middleware (client address, query,
  // URL normalization: about 3 % of a customer GET's CPU): it lives in a context of its own
  // whose only routes are /oauth and below. The sign-in page's routes (login.ts) are more
  // specific than /oauth/*; another path under /oauth that oidc-provider passes on is unknown.
  // Like every other path, /oauth is matched case-sensitively (middie's mount was not).
  await app.register(async (oauth) => {
    await oauth.register(middie);
    oauth.use('/oauth', (req, res, next) => {
      // The sign-in page is ours (login.ts), served by Fastify routes.
      if ((req.url ?? '').startsWith('/interaction/')) return next();
      if (secretInQuery(req.url ?? '')) {
        res.writeHead(400, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
        });
        res.end(
          JSON.stringify({
            error: 'invalid_request',
            error_description: 'client credentials must not be sent in the query string',
          }),
        );
        return;
      }
      securePages(res);
      inOidc++;
      res.once('close', oidcDone);
      handle(req, res);
    });
    const unknown = (_request: FastifyRequest, reply: FastifyReply) => reply.callNotFound();
    oauth.all('/oauth', unknown);
    oauth.all('/oauth/*', unknown);
  });
}

/**
 * The authorization server's metadata (oidc-provider's, at /oauth/.well-known/openid-
 * configuration) also where RFC 8414 and integrators look: /.well-known/oauth-
 * authorization-server with the issuer's path inserted (/oauth) and at the root, and
 * /.well-known/openid-configuration at the root. One document: the same endpoints.
 */
function serveMetadata(app: FastifyInstance) {
  let metadata: string | undefined;
  const serve = async (_request: FastifyRequest, reply: FastifyReply) => {
    if (!metadata) {
      const res = await app.inject({ method: 'GET', url: `${OAUTH_PATH}/.well-known/openid-configuration` });
      if (res.statusCode !== 200) throw new Error(`authorization server metadata: ${res.statusCode}`);
      metadata = res.body;
    }
    return reply
      .type('application/json; charset=utf-8')
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'public, max-age=300')
      .send(metadata);
  };
  for (const path of [
    '/.well-known/oauth-authorization-server',
    `/.well-known/oauth-authorization-server${OAUTH_PATH}`,
    '/.well-known/openid-configuration',
  ])
    app.get(path, serve);
}

/**
 * The bearer token of a request -> its Caller, and the endpoint's scope checked. A token's
 * signature, issuer, audience and lifetime are checked once (ES256 costs about a tenth of a
 * millisecond); the verified claims are kept until the token expires. What the token may do
 * is not kept with it: its caller is resolved through `callers`, which a revocation
 * invalidates in every process.
 */
function bearerGuard(
  db: Db,
  verifyToken: (token: string) => Promise<Record<string, unknown> | undefined>,
  callers: CallerCache,
  size = 10_000,
) {
  const verified = new Lru<
    string,
    { expiresAt: number; key: string | undefined; claims: Record<string, unknown> }
  >(size);
  const stats = { verifications: 0 };

  /** The caller behind a bearer token, whatever its rights. */
  async function identify(request: FastifyRequest, queryToken = false): Promise<Caller> {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const inQuery =
      queryToken && !header ? (request.query as { access_token?: unknown }).access_token : undefined;
    const token = match?.[1] ?? (typeof inQuery === 'string' && inQuery !== '' ? inQuery : undefined);
    if (!token) throw unauthorized(CommonCodes.noCredentials, 'A bearer token is required');
    let entry = verified.get(token);
    if (entry && entry.expiresAt <= Date.now()) {
      verified.delete(token);
      entry = undefined;
    }
    if (!entry) {
      stats.verifications++;
      const claims: Record<string, unknown> | undefined = await verifyToken(token);
      if (!claims) throw invalidToken();
      // oidc-provider's access tokens always carry exp; one without is not kept.
      const expiresAt = typeof claims.exp === 'number' ? claims.exp * 1000 : 0;
      entry = { expiresAt, key: callerKey(claims), claims };
      if (expiresAt > Date.now()) verified.set(token, entry);
    }
    const { key, claims } = entry;
    const caller = key ? await callers.resolve(key, () => loadCaller(db, claims)) : undefined;
    if (!caller) throw invalidToken();
    return caller;
  }

  async function authenticate(request: FastifyRequest, endpoint: Endpoint): Promise<Caller> {
    const caller = await identify(request, endpoint.queryToken === true);
    const needed = requiredScope(endpoint);
    if (needed && !caller.scopes.has(needed))
      throw new ApiError(403, CommonCodes.forbidden, `The scope ${needed} is required`, {
        'WWW-Authenticate': `Bearer ${REALM}, error="insufficient_scope", scope="${needed}"`,
      });
    return caller;
  }

  return { authenticate, stats };
}

/** The scopes a token was granted (its `scope` claim). */
const tokenScopes = (claims: Record<string, unknown>) =>
  String(claims.scope ?? '')
    .split(' ')
    .filter(Boolean);

/**
 * What a caller depends on besides the database: a user's id, session version and the
 * scopes of the token; an application's row id, client id, token version and the scopes
 * of the token; and the token's jti (a revoked token is refused, revocation.ts).
 * Undefined: not one of ours.
 */
function callerKey(claims: Record<string, unknown>): string | undefined {
  const clientId = String(claims.client_id ?? '');
  const jti = String(claims.jti ?? '');
  const scope = String(claims.scope ?? '');
  if (typeof claims.sub === 'string' && claims.sub !== clientId) {
    if (typeof claims.fw_uv !== 'number') return undefined;
    return `u:${claims.sub}:${clientId}:${claims.fw_uv}:${jti}:${scope}`;
  }
  if (typeof claims.fw_app !== 'string' || typeof claims.fw_ver !== 'number') return undefined;
  return `a:${claims.fw_app}:${clientId}:${claims.fw_ver}:${jti}:${scope}`;
}

/** Whether the token's jti is on the revocation list (a subquery of the caller's read). */
const notRevoked = (jti: string) =>
  sql<boolean>`not exists (select 1 from revoked_tokens where jti = ${jti})`;

/**
 * The caller behind verified claims, read from the database, or undefined (refused).
 * Its rights are the token's scopes that the application or user holds now (RFC 6749
 * 3.3): a later narrowing applies at once.
 */
async function loadCaller(db: Db, claims: Record<string, unknown>): Promise<Caller | undefined> {
  const clientId = String(claims.client_id ?? '');
  const jti = String(claims.jti ?? '');
  const sub = typeof claims.sub === 'string' && claims.sub !== clientId ? claims.sub : undefined;
  if (sub) {
    // The token names the user and its session version (provider.ts): a deleted or disabled
    // user, or one whose password changed since, no longer matches.
    if (!/^\d+$/.test(sub) || typeof claims.fw_uv !== 'number') return undefined;
    const user = await db
      .selectFrom('users')
      .innerJoin('offices', 'offices.id', 'users.office_id')
      .select([
        'users.id',
        'users.login',
        'users.roles',
        'offices.id as officeId',
        'offices.code as officeCode',
        'offices.path',
      ])
      .where('users.id', '=', sub)
      .where('users.session_version', '=', claims.fw_uv)
      .where('users.disabled_at', 'is', null)
      .where(notRevoked(jti))
      .executeTakeFirst();
    if (!user) return undefined;
    const held = new Set(scopesOfRoles(user.roles));
    return {
      kind: 'user',
      id: user.id,
      name: user.login,
      rateKey: `user:${user.id}`,
      scopes: new Set(tokenScopes(claims).filter((s) => held.has(s))),
      scope: { officeId: user.officeId, officeCode: user.officeCode, path: user.path },
    };
  }
  // The token names its application row and token version (clientAuth.ts): a deleted,
  // disabled or rotated application no longer matches, from the next request on.
  const appId = typeof claims.fw_app === 'string' && /^\d+$/.test(claims.fw_app) ? claims.fw_app : undefined;
  if (!appId || typeof claims.fw_ver !== 'number') return undefined;
  const app = await db
    .selectFrom('applications')
    .innerJoin('offices', 'offices.id', 'applications.office_id')
    .select([
      'applications.id',
      'applications.name',
      'applications.scopes',
      'offices.id as officeId',
      'offices.code as officeCode',
      'offices.path',
    ])
    .where('applications.id', '=', appId)
    .where('applications.client_id', '=', clientId)
    .where('applications.token_version', '=', claims.fw_ver)
    .where('applications.disabled_at', 'is', null)
    .where(notRevoked(jti))
    .executeTakeFirst();
  if (!app) return undefined;
  const held = new Set(app.scopes);
  // Every token issued now names its scopes (provider.ts); one issued before scopes were
  // granted per token names none and keeps what its application holds, until it expires.
  const granted = claims.scope === undefined ? app.scopes : tokenScopes(claims);
  return {
    kind: 'application',
    id: app.id,
    name: app.name,
    rateKey: `app:${clientId}`,
    scopes: new Set(granted.filter((s) => held.has(s))),
    scope: { officeId: app.officeId, officeCode: app.officeCode, path: app.path },
  };
}
