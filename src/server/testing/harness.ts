import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { ALL_SCOPES } from '../../contract/domains.ts';
import { type BuildOptions, buildApp } from '../app.ts';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import { guardRefusals } from '../db/tenant.ts';
import { hashSecret } from '../platform/auth/passwords.ts';
import { upsertOffice } from '../platform/offices.ts';
import { DEFAULT_RATE_LIMITS } from '../platform/rateLimit.ts';
import type { RouteDeps } from '../platform/routes.ts';
import { apiOf, pagesOf } from './api.ts';

/**
 * Office tree of every API test:
 *   ROOT                  RIVAL (a second root: another tenant)
 *   ├── NORTH ── NORTH-A
 *   └── SOUTH
 * and one application per office (all scopes), plus READONLY at ROOT with read scopes only.
 */
export const TEST_OFFICES = [
  { code: 'ROOT', name: 'Head office', parentCode: null },
  { code: 'NORTH', name: 'North', parentCode: 'ROOT' },
  { code: 'NORTH-A', name: 'North A', parentCode: 'NORTH' },
  { code: 'SOUTH', name: 'South', parentCode: 'ROOT' },
  { code: 'RIVAL', name: 'Rival company', parentCode: null },
] as const;

/** Rate limits no test reaches, for a test that writes many records through the API. */
export const NO_RATE_LIMITS = {
  high: { perMinute: 1e6, perHour: 1e7 },
  standard: { perMinute: 1e6, perHour: 1e7 },
  low: { perMinute: 1e6, perHour: 1e7 },
};

/**
 * A real scrypt hash of each secret and password the tests use, made once per process: a
 * hash takes about 60 ms on purpose, and every test service stores six before its first call.
 */
const hashes = new Map<string, Promise<string>>();
function hashOnce(secret: string): Promise<string> {
  let hash = hashes.get(secret);
  if (!hash) {
    hash = hashSecret(secret);
    hashes.set(secret, hash);
  }
  return hash;
}

export type TestClient = 'root' | 'north' | 'northA' | 'south' | 'readonly' | 'rival';
const CLIENT_OFFICE: Record<TestClient, string> = {
  root: 'ROOT',
  north: 'NORTH',
  northA: 'NORTH-A',
  south: 'SOUTH',
  readonly: 'ROOT',
  rival: 'RIVAL',
};

export interface TestApp {
  app: FastifyInstance;
  /** The database as its owner: every tenant's rows (db/tenant.ts). */
  db: Db;
  /** Tenant ids (root office ids) of the two tenants, for rows a test writes itself. */
  tenants: { ROOT: string; RIVAL: string };
  /** The configuration it was built with (its database, for a second process or the CLI). */
  config: AppConfig;
  /** An access token for the test client, obtained through POST /oauth/token. */
  token(client?: TestClient): Promise<string>;
  /** inject() with a bearer token of `as` (default root) and a JSON body. */
  call(
    method: string,
    url: string,
    opts?: { as?: TestClient; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  /** One request to a row of the contract: its path and query filled (testing/api.ts). */
  api: ReturnType<typeof apiOf>;
  /** Every page of a list row, following continuationToken until it is null. */
  pages: ReturnType<typeof pagesOf>;
  secrets: Record<TestClient, string>;
  /** Adds a console user (scrypt-hashed password) in an office; returns users.id. */
  createUser(login: string, password: string, officeCode: string, roles?: string[]): Promise<string>;
  close(): Promise<void>;
}

/**
 * A fresh service on its own database: in-memory PGlite, or a private schema of the
 * PostgreSQL server named by TEST_DATABASE_URL.
 */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  buildOptions: BuildOptions = { logger: false },
): Promise<TestApp> {
  const databaseUrl = process.env.TEST_DATABASE_URL || undefined;
  const schema = databaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const config: AppConfig = {
    host: '127.0.0.1',
    port: 0,
    publicUrl: 'http://localhost',
    dataDir: 'memory://',
    databaseUrl,
    databaseSchema: schema,
    rateLimits: structuredClone(DEFAULT_RATE_LIMITS),
    accessTokenTtl: 3600,
    logLevel: 'silent',
    // Every success body of every API test is checked against its row's response schema.
    validateResponses: true,
    // No console unless a test gives one: the answers must not depend on whether
    // `npm run build` left a dist/console in the checkout (console.test.ts gives its own).
    consoleDir: join(tmpdir(), 'fieldwork-tests-without-console'),
    // A change stream answers within a test's patience (a request that waits for its end:
    // the fuzz and isolation tests); the stream tests give their own.
    changes: { streamMaxMs: 300 },
    ...overrides,
  };
  const app = await buildApp(config, buildOptions);
  // The tenant guard armed over every API test (db/tenant.ts): a statement of a request that
  // reaches a tenant-owned table outside a tenant fails the test, at close() if nothing else did.
  const refusedBefore = guardRefusals();
  const db = app.fieldwork.dbh.db;
  for (const office of TEST_OFFICES) await upsertOffice(db, office);
  const secrets = {} as Record<TestClient, string>;
  for (const [client, officeCode] of Object.entries(CLIENT_OFFICE) as [TestClient, string][]) {
    secrets[client] = `secret-${client}`;
    const office = await db
      .selectFrom('offices')
      .select('id')
      .where('code', '=', officeCode)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('applications')
      .values({
        client_id: client,
        secret_hash: await hashOnce(secrets[client]),
        name: `Test ${client}`,
        office_id: office.id,
        scopes: client === 'readonly' ? ALL_SCOPES.filter((s) => s.endsWith(':read')) : [...ALL_SCOPES],
      })
      .execute();
  }

  const rootId = async (code: string) =>
    String(
      (await db.selectFrom('offices').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id,
    );
  const tenants = { ROOT: await rootId('ROOT'), RIVAL: await rootId('RIVAL') };

  const tokens = new Map<TestClient, string>();
  async function token(client: TestClient = 'root') {
    const cached = tokens.get(client);
    if (cached) return cached;
    const res = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client}:${secrets[client]}`).toString('base64')}`,
      },
      payload: 'grant_type=client_credentials',
    });
    if (res.statusCode !== 200) throw new Error(`token for ${client}: ${res.statusCode} ${res.body}`);
    const value = res.json().access_token as string;
    tokens.set(client, value);
    return value;
  }

  async function call(
    method: string,
    url: string,
    opts: { as?: TestClient; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = {
      authorization: `Bearer ${await token(opts.as ?? 'root')}`,
      ...opts.headers,
    };
    const inject: InjectOptions = { method: method as InjectOptions['method'], url, headers };
    if (opts.raw !== undefined || opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      inject.payload = opts.raw ?? JSON.stringify(opts.body);
    }
    return app.inject(inject);
  }

  async function createUser(login: string, password: string, officeCode: string, roles: string[] = []) {
    const office = await db
      .selectFrom('offices')
      .select('id')
      .where('code', '=', officeCode)
      .executeTakeFirstOrThrow();
    const row = await db
      .insertInto('users')
      .values({ login, password_hash: await hashOnce(password), office_id: office.id, roles })
      .returning('id')
      .executeTakeFirstOrThrow();
    return String(row.id);
  }

  const api = apiOf(call);
  return {
    app,
    db,
    tenants,
    config,
    token,
    call,
    api,
    pages: pagesOf(api),
    secrets,
    createUser,
    async close() {
      await app.close();
      const refused = guardRefusals() - refusedBefore;
      if (databaseUrl && schema) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
      if (refused > 0)
        throw new Error(`tenant guard: ${refused} statement(s) reached a tenant table outside a tenant`);
    },
  };
}

/** What registerRoutes needs, to add test-only routes to a built service. */
export function routeDepsOf(app: FastifyInstance): RouteDeps {
  const deps = app.fieldwork.routeDeps;
  if (!deps) throw new Error('routeDeps missing: build the app with buildApp');
  return deps;
}
