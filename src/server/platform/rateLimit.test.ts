import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Endpoint, endpoint, type RateRange } from '../../contract/endpoint.ts';
import { CommonCodes } from '../../contract/errors.ts';
import { createTestApp, routeDepsOf, type TestApp } from '../testing/harness.ts';
import { captureLog } from '../testing/logCapture.ts';
import type { Caller } from './caller.ts';
import { type CounterStore, memoryStore, redisStore } from './counterStore.ts';
import { ApiError } from './errors.ts';
import {
  createRateLimiter,
  DEFAULT_RATE_LIMITS,
  LEASE_MAX,
  parseRateLimits,
  type RateLimitFigures,
} from './rateLimit.ts';
import { implement, registerRoutes } from './routes.ts';

// Redis is part of this machine kind (and of CI): the Redis variant always runs.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('FIELDWORK_RATE_LIMITS', () => {
  it('keeps the defaults for missing keys', () => {
    const figures = parseRateLimits('{"standard":{"perMinute":5}}');
    expect(figures.standard).toEqual({ perMinute: 5, perHour: 2000 });
    expect(figures.high).toEqual(DEFAULT_RATE_LIMITS.high);
    expect(parseRateLimits(undefined)).toEqual(DEFAULT_RATE_LIMITS);
  });

  it.each([
    '{nope',
    '[]',
    '{"standard":{"perMinute":0}}',
    '{"low":{"perHour":-3}}',
    '{"low":{"perHour":"5"}}',
    '{"medium":{"perHour":5}}',
    '{"low":{"perDay":5}}',
  ])('refuses %s with an error naming the variable', (text) => {
    expect(() => parseRateLimits(text)).toThrow(/FIELDWORK_RATE_LIMITS/);
  });
});

const figures: RateLimitFigures = {
  high: { perMinute: 4, perHour: 100 },
  standard: { perMinute: 2, perHour: 3 },
  low: { perMinute: 1, perHour: 100 },
};
const caller = (rateKey: string) => ({ rateKey }) as Caller;
const row = (range: RateRange) => ({ range }) as Endpoint;
const request = { log: { warn() {} } } as unknown as FastifyRequest;

function fakeReply() {
  const headers: Record<string, string> = {};
  const reply = { headers: (h: Record<string, string>) => Object.assign(headers, h) };
  return { reply: reply as unknown as FastifyReply, headers };
}

const stores = {
  memory: (now: () => number) => ({ store: memoryStore(now) }),
  redis: () => ({ store: redisStore(REDIS_URL) }),
};

describe.each(Object.keys(stores) as (keyof typeof stores)[])('limiter with the %s store', (kind) => {
  // 10:00:30 on some day: 30 s left in the minute, 30 min 30 s... of the hour.
  let clock = Date.UTC(2026, 0, 1, 10, 0, 30);
  const { store } = stores[kind](() => clock);
  const limiter = createRateLimiter(figures, {
    store,
    now: () => clock,
    prefix: `test:${randomBytes(6).toString('hex')}:`,
  });
  afterAll(() => store.close());

  async function hit(who: string, range: RateRange) {
    const { reply, headers } = fakeReply();
    try {
      await limiter.check(request, reply, caller(who), row(range));
      return { status: 200, headers };
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return { status: e.status, headers: e.headers, code: e.errors[0].code };
    }
  }

  it('counts down in RateLimit headers, then refuses with 429 and Retry-After', async () => {
    const first = await hit('a', 'standard');
    expect(first.status).toBe(200);
    expect(first.headers['RateLimit-Policy']).toBe('"standard-minute";q=2;w=60, "standard-hour";q=3;w=3600');
    expect(first.headers.RateLimit).toBe('"standard-minute";r=1;t=30, "standard-hour";r=2;t=3570');
    expect((await hit('a', 'standard')).status).toBe(200);
    const refused = await hit('a', 'standard');
    expect(refused).toMatchObject({ status: 429, code: CommonCodes.tooManyRequests });
    expect(refused.headers['Retry-After']).toBe('30');
    expect(refused.headers.RateLimit).toBe('"standard-minute";r=0;t=30, "standard-hour";r=1;t=3570');
  });

  it('keeps separate budgets per application and per range', async () => {
    expect((await hit('b', 'standard')).status).toBe(200);
    expect((await hit('a', 'high')).status).toBe(200);
    expect((await hit('a', 'standard')).status).toBe(429);
  });

  it('honours the hour window', async () => {
    clock += 31_000; // next minute: the minute budget is back, one request left in the hour
    expect((await hit('a', 'standard')).status).toBe(200);
    const refused = await hit('a', 'standard');
    expect(refused.status).toBe(429);
    expect(refused.headers['Retry-After']).toBe(String(3600 - 61));
    clock += 3600_000; // next hour
    expect((await hit('a', 'standard')).status).toBe(200);
  });
});

// Leases: with high limits a process asks the store for a lease of units, not for each request.
describe.each(Object.keys(stores) as (keyof typeof stores)[])('leases with the %s store', (kind) => {
  let clock = Date.UTC(2026, 0, 1, 10, 0, 30);
  const opened: CounterStore[] = [];
  afterAll(() => Promise.all(opened.map((s) => s.close())));
  /** A limiter on its own store (a process), counting the store's reservations. */
  function limiter(
    perMinute: number,
    perHour: number,
    prefix = `test:${randomBytes(6).toString('hex')}:`,
    store = stores[kind](() => clock).store,
  ) {
    opened.push(store);
    let asked = 0;
    const counted: CounterStore = {
      ...store,
      reserve: (...args) => {
        asked++;
        return store.reserve(...args);
      },
    };
    const figures = { ...DEFAULT_RATE_LIMITS, standard: { perMinute, perHour } };
    const l = createRateLimiter(figures, { store: counted, now: () => clock, prefix });
    return {
      asked: () => asked,
      async hit(who = 'a') {
        const { reply, headers } = fakeReply();
        try {
          await l.check(request, reply, caller(who), row('standard'));
          return { status: 200, remaining: headers.RateLimit };
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          return { status: e.status, remaining: e.headers?.RateLimit };
        }
      },
    };
  }
  const minuteLeft = (header?: string) => Number(/"standard-minute";r=(\d+)/.exec(header ?? '')?.[1]);
  const hourLeft = (header?: string) => Number(/"standard-hour";r=(\d+)/.exec(header ?? '')?.[1]);

  it('asks the store once per lease, and still counts down by one per request', async () => {
    const l = limiter(100_000, 1_000_000);
    for (let i = 1; i <= 100; i++) {
      const { status, remaining } = await l.hit();
      expect(status).toBe(200);
      expect(minuteLeft(remaining)).toBe(100_000 - i);
    }
    expect(l.asked()).toBe(Math.ceil(100 / LEASE_MAX));
  });

  it('asks for each request near the limit, and never lets one more through', async () => {
    const l = limiter(300, 1000);
    const statuses = [];
    for (let i = 0; i < 310; i++) statuses.push((await l.hit()).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(300);
    expect(statuses.slice(300)).toEqual(Array(10).fill(429));
  });

  it('gives the unused units of a lease back when its minute ends', async () => {
    // As after a restart of Redis: the release script is sent again (NOSCRIPT) after a
    // first try, and must still come before the next lease.
    if (kind === 'redis') {
      const admin = new Redis(REDIS_URL);
      await admin.script('FLUSH');
      await admin.quit();
    }
    const l = limiter(100_000, 1_000_000);
    for (let i = 0; i < 10; i++) await l.hit('b');
    clock += 60_000;
    // 11 requests this hour; without the release the lease's 22 unused units would count.
    expect(hourLeft((await l.hit('b')).remaining)).toBe(1_000_000 - 11);
    expect(minuteLeft((await l.hit('b')).remaining)).toBe(100_000 - 2);
  });

  it('serves requests that arrive together exactly up to the limit', async () => {
    const l = limiter(100, 1000);
    const results = await Promise.all(Array.from({ length: 150 }, () => l.hit('c')));
    const allowed = results.filter((r) => r.status === 200);
    expect(allowed).toHaveLength(100);
    expect(allowed.map((r) => minuteLeft(r.remaining)).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 100 }, (_, i) => i),
    );
  });

  it('two processes sharing the budget never exceed it', async () => {
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    // Two Redis connections; in memory, two limiters on one store.
    const shared = kind === 'memory' ? stores.memory(() => clock).store : undefined;
    const [a, b] = [limiter(1000, 100_000, prefix, shared), limiter(1000, 100_000, prefix, shared)];
    const allowed = { a: 0, b: 0 };
    const refused = { a: false, b: false };
    // Alternate until each has been refused: the last units of a lease are used, none more.
    while (!refused.a || !refused.b)
      for (const [name, l] of Object.entries({ a, b }) as ['a' | 'b', typeof a][]) {
        const { status } = await l.hit('d');
        if (status === 200) allowed[name]++;
        else refused[name] = true;
      }
    expect(allowed.a + allowed.b).toBe(1000);
    expect(allowed.a).toBeGreaterThan(400);
    expect(allowed.b).toBeGreaterThan(400);
  });
});

// End to end: a test-only endpoint on the real app, with each store.
const ping = endpoint({
  id: 'test.ping',
  method: 'GET',
  path: '/test/ping',
  domain: 'referentials',
  range: 'standard',
  summary: 'test',
  errorPrefix: 'test',
  responses: { 200: z.object({ ok: z.boolean() }) },
});
const pingHigh = { ...ping, id: 'test.pingHigh', path: '/test/ping-high', range: 'high' as const };

describe.each([
  ['memory', undefined],
  ['redis', REDIS_URL],
])('GET through the app (%s store)', (_kind, redisUrl) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      redisUrl,
      // Fresh counters in Redis: this run's own key prefix.
      instanceId: `test-${randomBytes(6).toString('hex')}`,
      rateLimits: { ...DEFAULT_RATE_LIMITS, standard: { perMinute: 2, perHour: 50 } },
    });
    addPing(t);
  });
  afterAll(() => t.close());

  it('answers 429 ratelimiter.toomanyrequest once the minute budget is spent, per application and range', async () => {
    const ok = await t.call('GET', '/test/ping');
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['ratelimit-policy']).toBe('"standard-minute";q=2;w=60, "standard-hour";q=50;w=3600');
    expect(ok.headers.ratelimit).toMatch(/^"standard-minute";r=1;t=\d+, "standard-hour";r=49;t=\d+$/);
    expect((await t.call('GET', '/test/ping')).statusCode).toBe(200);
    const refused = await t.call('GET', '/test/ping');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      errors: [{ code: 'ratelimiter.toomanyrequest' }],
      errorReference: expect.any(String),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers.ratelimit).toMatch(/^"standard-minute";r=0;/);
    // Another application, another range: own budgets.
    expect((await t.call('GET', '/test/ping', { as: 'north' })).statusCode).toBe(200);
    expect((await t.call('GET', '/test/ping-high')).statusCode).toBe(200);
  });
});

function addPing(t: TestApp) {
  const handler = async () => ({ status: 200 as const, body: { ok: true } });
  registerRoutes(t.app, [implement(ping, handler), implement(pingHigh, handler)], routeDepsOf(t.app));
}

const tight = { ...DEFAULT_RATE_LIMITS, standard: { perMinute: 2, perHour: 50 } };

describe('deployments sharing one Redis (keys prefixed by the instance id)', () => {
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));
  async function app(instanceId?: string) {
    const t = await createTestApp({ redisUrl: REDIS_URL, instanceId, rateLimits: tight });
    addPing(t);
    apps.push(t);
    return t;
  }
  /**
   * Spends `t`'s minute budget; the assertion after it must fall in the same minute window
   * (windows are aligned on the clock): started within 5 s of a minute's end, it waits for
   * the next one.
   */
  const spend = async (t: TestApp) => {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 5_000) await new Promise((r) => setTimeout(r, left + 50));
    for (let i = 0; i < 2; i++) expect((await t.call('GET', '/test/ping')).statusCode).toBe(200);
    expect((await t.call('GET', '/test/ping')).statusCode).toBe(429);
  };

  // Building a test service takes seconds: four of them, once.
  const id = `shared-${randomBytes(6).toString('hex')}`;
  let own: TestApp[];
  let shared: TestApp[];
  beforeAll(async () => {
    own = [await app(), await app()];
    shared = [await app(id), await app(id)];
  }, 240_000);

  it('two databases (default instance ids, kept in each database) do not share budgets', async () => {
    await spend(own[0]);
    // The same client id (root) on the other deployment has its whole budget.
    expect((await own[1].call('GET', '/test/ping')).statusCode).toBe(200);
  });

  it('one FIELDWORK_INSTANCE_ID (several processes of one deployment) shares them', async () => {
    await spend(shared[0]);
    expect((await shared[1].call('GET', '/test/ping')).statusCode).toBe(429);
  });
});

describe('Redis down (REDIS_URL on a closed port)', () => {
  let t: TestApp;
  const log = captureLog();
  beforeAll(async () => {
    t = await createTestApp(
      { redisUrl: `redis://127.0.0.1:${await closedPort()}`, rateLimits: tight, logLevel: 'info' },
      { logger: log.logger },
    );
    addPing(t);
  });
  afterAll(() => t.close());

  it('answers at once, logs the outage once, and counts in this process meanwhile', async () => {
    const times: number[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      statuses.push((await t.call('GET', '/test/ping', { as: 'north' })).statusCode);
      times.push(performance.now() - started);
    }
    // Before the circuit, each request waited for Redis: about 5 to 10 s.
    expect(times.sort((a, b) => a - b)[2]).toBeLessThan(500);
    // Fail-open to local counters: the limits still hold, per process.
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    const outage = log.lines().filter((l) => l.msg?.startsWith('rate-limit store unavailable'));
    expect(outage).toHaveLength(1);
    expect(outage[0].level).toBe(40);
  });
});

/** A port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
