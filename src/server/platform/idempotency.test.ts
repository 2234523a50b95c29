/**
 * Idempotency-Key on every POST (issue 29, 5), through the real app, with each store: the
 * database (PGlite here, PostgreSQL in the postgres runner) and Redis. Test routes count
 * how often their handler runs: a replay must not run it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint } from '../../contract/endpoint.ts';
import { CommonCodes } from '../../contract/errors.ts';
import { endpoints } from '../../contract/index.ts';
import { codesOf, pathOf } from '../testing/api.ts';
import {
  createTestApp,
  NO_RATE_LIMITS,
  routeDepsOf,
  type TestApp,
  type TestClient,
} from '../testing/harness.ts';
import {
  fingerprintOf,
  KEY_TTL_MS,
  MAX_KEPT_BODY,
  MAX_KEY_LENGTH,
  PENDING_LEASE_MS,
  PRUNE_BATCH,
  parseKey,
} from './idempotency.ts';
import { implement, registerRoutes } from './routes.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SUBSCRIPTIONS = '/rest/ws/webhooks/v1/subscriptions';

const testPost = (id: string, path: string) =>
  endpoint({
    id,
    method: 'POST',
    path,
    domain: 'referentials',
    range: 'standard',
    summary: 'test',
    errorPrefix: 'test',
    body: z.object({ n: z.number(), pad: z.string().optional() }),
    responses: { 201: z.object({ run: z.number(), n: z.number(), pad: z.string().optional() }) },
  });
const counted = testPost('test.idem.counted', '/test/idem/counted');
const slow = testPost('test.idem.slow', '/test/idem/slow');
const flaky = testPost('test.idem.flaky', '/test/idem/flaky');

/** Test routes: how often each handler ran; the slow one waits for `release`. */
function addRoutes(t: TestApp) {
  const runs = { counted: 0, slow: 0, flaky: 0 };
  const slowGate = { entered: deferred(), release: deferred() };
  registerRoutes(
    t.app,
    [
      implement(counted, async ({ body }) => ({
        status: 201,
        body: { run: ++runs.counted, ...body },
        headers: { location: `/test/idem/counted/${runs.counted}`, etag: `"v${runs.counted}"` },
      })),
      implement(slow, async ({ body }) => {
        runs.slow++;
        slowGate.entered.resolve();
        await slowGate.release.promise;
        return { status: 201, body: { run: runs.slow, n: body.n } };
      }),
      implement(flaky, async ({ body }) => {
        // The first run fails (a 500), the next ones succeed.
        if (++runs.flaky === 1) throw new Error('flaky: first run fails');
        return { status: 201, body: { run: runs.flaky, n: body.n } };
      }),
    ],
    routeDepsOf(t.app),
  );
  return { runs, slowGate };
}

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const freshKey = () => `k-${randomBytes(8).toString('hex')}`;

describe('parseKey', () => {
  it('takes a bare key or a Structured Field String, refuses empty, long, non-ASCII, repeated', () => {
    expect(parseKey(undefined)).toBeUndefined();
    expect(parseKey('abc-123')).toBe('abc-123');
    expect(parseKey('"abc-123"')).toBe('abc-123');
    expect(parseKey('"a \\"quoted\\" key"')).toBe('a "quoted" key');
    expect(parseKey('x'.repeat(MAX_KEY_LENGTH))).toHaveLength(MAX_KEY_LENGTH);
    for (const bad of [
      '',
      '""',
      '   ',
      'x'.repeat(MAX_KEY_LENGTH + 1),
      'é',
      'two words',
      '"open',
      ['a', 'b'],
    ])
      expect(() => parseKey(bad), JSON.stringify(bad)).toThrow(
        expect.objectContaining({
          status: 400,
          errors: [expect.objectContaining({ code: CommonCodes.idempotencyKeyInvalid })],
        }),
      );
  });
});

describe.each([
  ['database', undefined],
  ['redis', REDIS_URL],
])('Idempotency-Key (%s store)', (store, redisUrl) => {
  let t: TestApp;
  let clock = Date.parse('2026-11-28T10:00:00Z');
  let routes: ReturnType<typeof addRoutes>;
  // Fresh keys in Redis: this run's own prefix.
  const instanceId = `test-${randomBytes(6).toString('hex')}`;
  beforeAll(async () => {
    t = await createTestApp(
      { redisUrl, instanceId, rateLimits: NO_RATE_LIMITS },
      { logger: false, now: () => clock },
    );
    routes = addRoutes(t);
  });
  afterAll(() => t?.close());

  const post = (path: string, body: unknown, key: string | undefined, as: TestClient = 'root') =>
    t.call('POST', path, { body, as, headers: key === undefined ? {} : { 'idempotency-key': key } });
  const subscription = (url: string) => ({ eventTypes: ['asset.upsert'], callbackUrl: url });
  const subscriptionsTo = async (url: string) =>
    Number(
      (
        await t.db
          .selectFrom('webhook_subscriptions')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('callback_url', '=', url)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('a subscription POSTed twice with one key is created once; the second answer is the first', async () => {
    const url = `https://hooks.example.com/${freshKey()}`;
    const key = freshKey();
    const first = await post(SUBSCRIPTIONS, subscription(url), key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post(SUBSCRIPTIONS, subscription(url), key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.json()).toEqual(first.json());
    expect(await subscriptionsTo(url)).toBe(1);
    // Without a key, the same POST is done again.
    expect((await post(SUBSCRIPTIONS, subscription(url), undefined)).statusCode).toBe(201);
    expect(await subscriptionsTo(url)).toBe(2);
  });

  it('gives the first answer back with its Location and ETag, the handler run once', async () => {
    const key = freshKey();
    const before = routes.runs.counted;
    const first = await post('/test/idem/counted', { n: 1 }, key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await post('/test/idem/counted', { n: 1 }, `"${key}"`);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(routes.runs.counted).toBe(before + 1);
  });

  it('keeps the answer as sent before compression: a replay is compressed, or not, by its own Accept-Encoding', async () => {
    const key = freshKey();
    const body = { n: 2, pad: 'x'.repeat(4000) };
    const first = await t.call('POST', '/test/idem/counted', {
      body,
      headers: { 'idempotency-key': key, 'accept-encoding': 'gzip' },
    });
    expect(first.statusCode).toBe(201);
    expect(first.headers['content-encoding']).toBe('gzip');
    const again = await post('/test/idem/counted', body, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-encoding']).toBeUndefined();
    expect(again.json()).toEqual({ run: expect.any(Number), ...body });
  });

  it('does not keep an answer larger than MAX_KEPT_BODY: the key is given back, the work done again', async () => {
    const key = freshKey();
    const body = { n: 3, pad: 'x'.repeat(MAX_KEPT_BODY) };
    const runs = routes.runs.counted;
    expect((await post('/test/idem/counted', body, key)).statusCode).toBe(201);
    const again = await post('/test/idem/counted', body, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(routes.runs.counted).toBe(runs + 2);
  });

  it('keeps a 4xx answer too (same errorReference), without running the work', async () => {
    const key = freshKey();
    const first = await post(SUBSCRIPTIONS, { eventTypes: [] }, key);
    expect(first.statusCode).toBe(400);
    const again = await post(SUBSCRIPTIONS, { eventTypes: [] }, key);
    expect(again.statusCode).toBe(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
  });

  it('the same key with another body or path is 422 request.idempotencykey.mismatch, nothing done', async () => {
    const key = freshKey();
    expect((await post('/test/idem/counted', { n: 1 }, key)).statusCode).toBe(201);
    const runs = routes.runs.counted;
    const otherBody = await post('/test/idem/counted', { n: 2 }, key);
    expect(otherBody.statusCode).toBe(422);
    expect(codesOf(otherBody)).toEqual([CommonCodes.idempotencyKeyMismatch]);
    // Bytes, not meaning: the same JSON spaced otherwise is another body.
    const spaced = await t.call('POST', '/test/idem/counted', {
      raw: '{ "n": 1 }',
      headers: { 'idempotency-key': key },
    });
    expect(codesOf(spaced)).toEqual([CommonCodes.idempotencyKeyMismatch]);
    const otherPath = await post('/test/idem/slow', { n: 1 }, key);
    expect(otherPath.statusCode).toBe(422);
    expect(codesOf(otherPath)).toEqual([CommonCodes.idempotencyKeyMismatch]);
    expect(routes.runs.counted).toBe(runs);
    expect(routes.runs.slow).toBe(0);
  });

  it('while the first request runs, the same key is 409 request.idempotencykey.inprogress', async () => {
    const key = freshKey();
    const first = post('/test/idem/slow', { n: 7 }, key);
    await routes.slowGate.entered.promise;
    const meanwhile = await post('/test/idem/slow', { n: 7 }, key);
    expect(meanwhile.statusCode).toBe(409);
    expect(codesOf(meanwhile)).toEqual([CommonCodes.idempotencyKeyInProgress]);
    expect(meanwhile.headers['retry-after']).toBe('1');
    // Another body is still a mismatch, even while the first runs.
    expect(codesOf(await post('/test/idem/slow', { n: 8 }, key))).toEqual([
      CommonCodes.idempotencyKeyMismatch,
    ]);
    routes.slowGate.release.resolve();
    const answered = await first;
    expect(answered.statusCode, answered.body).toBe(201);
    const after = await post('/test/idem/slow', { n: 7 }, key);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(after.json()).toEqual(answered.json());
    expect(routes.runs.slow).toBe(1);
  });

  it('keys are per caller: another application of the tenant, or another tenant, never meets them', async () => {
    const key = freshKey();
    const url = `https://hooks.example.com/${freshKey()}`;
    const mine = await post(SUBSCRIPTIONS, subscription(url), key);
    const north = await post(SUBSCRIPTIONS, subscription(url), key, 'north');
    const rival = await post(SUBSCRIPTIONS, subscription(url), key, 'rival');
    for (const res of [mine, north, rival]) {
      expect(res.statusCode, res.body).toBe(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    const ids = new Set([mine, north, rival].map((r) => r.json().subscriptionId));
    expect(ids.size).toBe(3);
    expect(await subscriptionsTo(url)).toBe(3);
    // And another caller's other body is no mismatch either.
    expect((await post('/test/idem/counted', { n: 3 }, key, 'south')).statusCode).toBe(201);
    if (store === 'database') {
      const rows = await t.db
        .selectFrom('idempotency_keys')
        .select(['tenant_id', 'caller'])
        .where('key', '=', key)
        .execute();
      expect(rows).toHaveLength(4);
      expect(rows.filter((r) => String(r.tenant_id) === t.tenants.RIVAL)).toHaveLength(1);
      expect(new Set(rows.map((r) => r.caller)).size).toBe(4);
    }
  });

  it('a 5xx is not kept: the same key runs the work again', async () => {
    const key = freshKey();
    const failed = await post('/test/idem/flaky', { n: 1 }, key);
    expect(failed.statusCode).toBe(500);
    const retried = await post('/test/idem/flaky', { n: 1 }, key);
    expect(retried.statusCode, retried.body).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.json()).toEqual({ run: 2, n: 1 });
    const replayed = await post('/test/idem/flaky', { n: 1 }, key);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(routes.runs.flaky).toBe(2);
  });

  it('an empty key, or one longer than 255 characters, is 400 request.idempotencykey.invalid, nothing done', async () => {
    const runs = routes.runs.counted;
    for (const key of ['', 'x'.repeat(MAX_KEY_LENGTH + 1)]) {
      const res = await post('/test/idem/counted', { n: 1 }, key);
      expect(res.statusCode).toBe(400);
      expect(codesOf(res)).toEqual([CommonCodes.idempotencyKeyInvalid]);
    }
    expect(routes.runs.counted).toBe(runs);
    expect((await post('/test/idem/counted', { n: 1 }, 'y'.repeat(MAX_KEY_LENGTH))).statusCode).toBe(201);
  });

  it('a GET ignores the header', async () => {
    const res = await t.call('GET', SUBSCRIPTIONS, { headers: { 'idempotency-key': '' } });
    expect(res.statusCode).toBe(200);
  });

  it('a key is kept 24 hours: replayed just before, free again after (and pruned)', async () => {
    const key = freshKey();
    const first = await post('/test/idem/counted', { n: 5 }, key);
    const runs = routes.runs.counted;
    clock += KEY_TTL_MS - 1000;
    const late = await post('/test/idem/counted', { n: 5 }, key);
    expect(late.headers['idempotent-replayed']).toBe('true');
    expect(late.json()).toEqual(first.json());
    expect(routes.runs.counted).toBe(runs);
    clock += 2000;
    if (store === 'database') {
      const kept = async () =>
        Number(
          (
            await sql<{
              n: string;
            }>`SELECT count(*)::text AS n FROM idempotency_keys WHERE key = ${key}`.execute(t.db)
          ).rows[0].n,
        );
      expect(await kept()).toBe(1);
      expect(await routeDepsOf(t.app).idempotency?.prune()).toBeGreaterThan(0);
      expect(await kept()).toBe(0);
    }
    // Expired: another body under the key is no mismatch; the work runs again.
    const reused = await post('/test/idem/counted', { n: 6 }, key);
    expect(reused.statusCode).toBe(201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
    expect(routes.runs.counted).toBe(runs + 1);
  });

  it('a key whose first request was lost (its process died) is 409 until its lease passes, then taken over', async () => {
    const key = freshKey();
    const app = await t.db
      .selectFrom('applications')
      .select('id')
      .where('client_id', '=', 'root')
      .executeTakeFirstOrThrow();
    const caller = `application:${app.id}`;
    const fingerprint = fingerprintOf('POST', '/test/idem/counted', JSON.stringify({ n: 4 }));
    // What a request leaves behind when its process dies before answering.
    if (store === 'database')
      await t.db
        .insertInto('idempotency_keys')
        .values({
          tenant_id: t.tenants.ROOT,
          caller,
          key,
          fingerprint,
          owner: randomUUID(),
          locked_until: new Date(clock + PENDING_LEASE_MS),
          expires_at: new Date(clock + KEY_TTL_MS),
        })
        .execute();
    else {
      const redis = new Redis(REDIS_URL);
      await redis.hset(`fieldwork:${instanceId}:idem:{${t.tenants.ROOT}}:${caller}:${key}`, {
        fingerprint,
        owner: randomUUID(),
        lockedUntil: clock + PENDING_LEASE_MS,
        expiresAt: clock + KEY_TTL_MS,
      });
      await redis.quit();
    }
    const runs = routes.runs.counted;
    const held = await post('/test/idem/counted', { n: 4 }, key);
    expect(codesOf(held)).toEqual([CommonCodes.idempotencyKeyInProgress]);
    clock += PENDING_LEASE_MS;
    const taken = await post('/test/idem/counted', { n: 4 }, key);
    expect(taken.statusCode, taken.body).toBe(201);
    expect(routes.runs.counted).toBe(runs + 1);
    expect((await post('/test/idem/counted', { n: 4 }, key)).headers['idempotent-replayed']).toBe('true');
  });
});

describe('every POST of the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: NO_RATE_LIMITS });
  });
  afterAll(() => t?.close());

  it('reads the key (an empty one is refused before the handler runs)', async () => {
    const posts = endpoints.filter((e) => e.method === 'POST');
    expect(posts.length).toBeGreaterThan(5);
    for (const e of posts) {
      const params = Object.fromEntries([...e.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], 'X-1']));
      const res = await t.call('POST', pathOf(e, params), { raw: '{}', headers: { 'idempotency-key': '' } });
      expect(res.statusCode, `${e.id}: ${res.body}`).toBe(400);
      expect(codesOf(res), e.id).toEqual([CommonCodes.idempotencyKeyInvalid]);
    }
  });
});

describe('pruning (database store)', () => {
  let t: TestApp;
  const clock = Date.parse('2026-11-28T10:00:00Z');
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: NO_RATE_LIMITS }, { logger: false, now: () => clock });
  });
  afterAll(() => t?.close());

  it('deletes every expired key of every tenant, batch after batch, and nothing else', async () => {
    const expired = PRUNE_BATCH * 2 + 500;
    await sql`
      INSERT INTO idempotency_keys (tenant_id, caller, key, fingerprint, owner, status, locked_until, expires_at)
      SELECT CASE WHEN i % 2 = 0 THEN ${t.tenants.ROOT}::bigint ELSE ${t.tenants.RIVAL}::bigint END,
        'application:1', 'old-' || i, 'f', gen_random_uuid(), 201, ${new Date(clock - 60_000)},
        ${new Date(clock - 1000)}
      FROM generate_series(1, ${expired}) i`.execute(t.db);
    await sql`
      INSERT INTO idempotency_keys (tenant_id, caller, key, fingerprint, owner, locked_until, expires_at)
      VALUES (${t.tenants.ROOT}, 'application:1', 'alive', 'f', gen_random_uuid(), ${new Date(clock)},
        ${new Date(clock + 1000)})`.execute(t.db);
    expect(await routeDepsOf(t.app).idempotency?.prune()).toBe(expired);
    const left = await t.db.selectFrom('idempotency_keys').select('key').execute();
    expect(left).toEqual([{ key: 'alive' }]);
  });
});

describe('Redis down (REDIS_URL on a closed port)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      redisUrl: `redis://127.0.0.1:${await closedPort()}`,
      rateLimits: NO_RATE_LIMITS,
    });
    addRoutes(t);
  });
  afterAll(() => t?.close());

  it('a POST with a key is 503 request.idempotencykey.unavailable at once; one without is served', async () => {
    const started = performance.now();
    const res = await t.call('POST', '/test/idem/counted', {
      body: { n: 1 },
      headers: { 'idempotency-key': 'k' },
    });
    expect(res.statusCode).toBe(503);
    expect(codesOf(res)).toEqual([CommonCodes.idempotencyKeyUnavailable]);
    expect(res.headers['retry-after']).toBe('2');
    expect(performance.now() - started).toBeLessThan(5000);
    expect((await t.call('POST', '/test/idem/counted', { body: { n: 1 } })).statusCode).toBe(201);
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
