import middie from '@fastify/middie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { importJWK, jwtVerify } from 'jose';
import { type Endpoint, requiredScope } from '../../../contract/endpoint.ts';
import { CommonCodes } from '../../../contract/errors.ts';
import type { Db } from '../../db/index.ts';
import type { Caller } from '../caller.ts';
import { ApiError } from '../errors.ts';
import { verifiedClient } from './adapter.ts';
import { CONSOLE_CLIENT_ID, consoleClient } from './consoleClient.ts';
import { registerLoginRoutes } from './login.ts';
import { verifySecret } from './passwords.ts';
import { API_RESOURCE, createProvider } from './provider.ts';

export interface AuthOptions {
  db: Db;
  publicUrl: string;
  accessTokenTtl: number;
}

/**
 * Mounts the OAuth 2.0 authorization server (oidc-provider) at /oauth and returns the
 * guard that turns a bearer token into a Caller.
 */
export async function registerAuth(app: FastifyInstance, opts: AuthOptions) {
  const staticClients = new Map([[CONSOLE_CLIENT_ID, consoleClient(opts.publicUrl)]]);
  const { provider, issuer, jwk } = await createProvider({ ...opts, staticClients });
  const { d: _private, ...publicJwk } = jwk;
  const publicKey = await importJWK(publicJwk, 'ES256');

  await app.register(middie);
  app.use('/oauth', async (req, res, next) => {
    // The sign-in page is ours (login.ts), served by Fastify routes.
    if ((req.url ?? '').startsWith('/interaction/')) return next();
    // Verify client credentials against their hash first (see adapter.ts).
    const verified = await verifyPresentedClient(opts.db, req.headers.authorization, req);
    verifiedClient.run(verified, () => provider.callback()(req, res));
  });
  registerLoginRoutes(app, provider, opts.db, opts.publicUrl);

  /** The caller behind a bearer token, whatever its rights. */
  async function identify(request: FastifyRequest): Promise<Caller> {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw new ApiError(401, CommonCodes.noCredentials, 'A bearer token is required');
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(match[1], publicKey, { issuer, audience: API_RESOURCE }));
    } catch {
      throw new ApiError(401, CommonCodes.badCredentials, 'The access token is invalid or expired');
    }
    const caller = await loadCaller(opts.db, claims);
    if (!caller)
      throw new ApiError(401, CommonCodes.badCredentials, 'The access token is invalid or expired');
    return caller;
  }

  async function authenticate(request: FastifyRequest, endpoint: Endpoint): Promise<Caller> {
    const caller = await identify(request);
    const needed = requiredScope(endpoint);
    if (needed && !caller.scopes.has(needed))
      throw new ApiError(403, CommonCodes.forbidden, `The scope ${needed} is required`);
    return caller;
  }

  return { authenticate, provider };
}

async function loadCaller(db: Db, claims: Record<string, unknown>): Promise<Caller | undefined> {
  const clientId = String(claims.client_id ?? '');
  const sub = typeof claims.sub === 'string' && claims.sub !== clientId ? claims.sub : undefined;
  if (sub) {
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
      .executeTakeFirst();
    if (!user) return undefined;
    const scopes = new Set(
      String(claims.scope ?? '')
        .split(' ')
        .filter(Boolean),
    );
    return {
      kind: 'user',
      id: user.id,
      name: user.login,
      rateKey: `user:${user.id}`,
      scopes,
      scope: { officeId: user.officeId, officeCode: user.officeCode, path: user.path },
    };
  }
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
    .where('applications.client_id', '=', clientId)
    .executeTakeFirst();
  if (!app) return undefined;
  return {
    kind: 'application',
    id: app.id,
    name: app.name,
    rateKey: `app:${clientId}`,
    // Rights come from the application record, so a change takes effect at once.
    scopes: new Set(app.scopes),
    scope: { officeId: app.officeId, officeCode: app.officeCode, path: app.path },
  };
}

/** Reads Basic or form-body client credentials and checks them against the stored hash. */
async function verifyPresentedClient(
  db: Db,
  authorization: string | undefined,
  req: import('node:http').IncomingMessage & { body?: unknown },
) {
  let clientId: string | undefined;
  let secret: string | undefined;
  let method: 'client_secret_basic' | 'client_secret_post' = 'client_secret_basic';
  const basic = authorization ? /^Basic\s+(\S+)$/i.exec(authorization) : null;
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i > 0) {
      clientId = decodeURIComponent(decoded.slice(0, i).replace(/\+/g, '%20'));
      secret = decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, '%20'));
    }
  } else if (req.method === 'POST' && (req.url ?? '').startsWith('/token')) {
    const form = await readForm(req);
    clientId = form.get('client_id') ?? undefined;
    secret = form.get('client_secret') ?? undefined;
    method = 'client_secret_post';
  }
  if (!clientId || !secret) return null;
  const app = await db
    .selectFrom('applications')
    .select('secret_hash')
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!app || !(await verifySecret(secret, app.secret_hash))) return null;
  return { clientId, secret, method };
}

/**
 * Reads a form body and hands it on to oidc-provider, which reads `req.body` when a
 * middleware has parsed it already.
 */
async function readForm(
  req: import('node:http').IncomingMessage & { body?: unknown },
): Promise<URLSearchParams> {
  if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
    return new URLSearchParams();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) break;
    chunks.push(chunk as Buffer);
  }
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  req.body = Object.fromEntries(form);
  return form;
}
