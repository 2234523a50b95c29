import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type CounterStore, memoryStore, REDIS_PROBE_INTERVAL_MS, redisStore } from './counterStore.ts';

const REDIS = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

/** A TCP relay to the real Redis that the test can cut and restore on the same port. */
async function relay() {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const up = () =>
    new Promise<void>((resolve) => {
      server = net
        .createServer((client) => {
          const upstream = net.connect(Number(REDIS.port || 6379), REDIS.hostname);
          for (const s of [client, upstream]) {
            sockets.add(s);
            s.on('error', () => {});
            s.on('close', () => sockets.delete(s));
          }
          client.pipe(upstream).pipe(client);
        })
        .listen(port, '127.0.0.1', () => resolve());
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server?.close(() => resolve());
    });
  await up();
  return { url: `redis://127.0.0.1:${port}`, up, down };
}

function logCollector() {
  const lines: { level: string; msg: string }[] = [];
  return {
    lines,
    log: {
      warn: (_o: object, msg: string) => lines.push({ level: 'warn', msg }),
      info: (_o: object, msg: string) => lines.push({ level: 'info', msg }),
    },
  };
}

const stores: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

const key = () => `test:store:${randomBytes(6).toString('hex')}`;
const until = async (check: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
};

describe('the Redis counter store behind its circuit', () => {
  it('counts in Redis while it answers', async () => {
    const store = redisStore(REDIS.toString());
    stores.push(store);
    const k = key();
    expect(await store.hit([k], [60_000])).toEqual([1]);
    expect(await store.peek([k])).toEqual([1]);
    expect(store.state()).toBe('closed');
  });

  it('stays exact when the checks of two processes arrive together', async () => {
    const [a, b] = [redisStore(REDIS.toString()), redisStore(REDIS.toString())];
    stores.push(a, b);
    const keys = [key(), key()];
    // 2 x 60 checks issued at once: 50 fit the first window; none of the refused ones counts.
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) => (i % 2 ? a : b).reserve(keys, [50, 1000], [60_000, 60_000])),
    );
    expect(results.filter((r) => r.granted === 1)).toHaveLength(50);
    expect(results.filter((r) => r.granted === 0)).toHaveLength(70);
    expect(
      results
        .filter((r) => r.granted)
        .map((r) => r.counts[0])
        .sort((x, y) => x - y),
    ).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await a.peek(keys)).toEqual([50, 50]);
  });

  it('on a closed port: the first call answers at once from this process, and the outage is logged once', async () => {
    const { lines, log } = logCollector();
    const cut = await relay();
    await cut.down();
    const store = redisStore(cut.url, { log });
    stores.push(store);
    const k = key();
    const started = performance.now();
    for (let i = 1; i <= 20; i++) expect((await store.reserve([k], [100], [60_000])).counts).toEqual([i]);
    expect(performance.now() - started).toBeLessThan(500);
    expect(store.state()).toBe('open');
    expect(lines).toEqual([{ level: 'warn', msg: expect.stringMatching(/^rate-limit store unavailable/) }]);
  });

  it('opens when Redis goes away, and closes again in the background when it is back', async () => {
    const { lines, log } = logCollector();
    const cut = await relay();
    const store = redisStore(cut.url, { log });
    stores.push(store);
    const k = key();
    expect(await store.hit([k], [60_000])).toEqual([1]);
    await cut.down();
    const started = performance.now();
    // Served from the fallback while Redis is away (its count starts afresh).
    expect(await store.hit([k], [60_000])).toEqual([1]);
    expect(await store.hit([k], [60_000])).toEqual([2]);
    expect(performance.now() - started).toBeLessThan(500);
    expect(store.state()).toBe('open');
    await cut.up();
    expect(await until(() => store.state() === 'closed', REDIS_PROBE_INTERVAL_MS * 4)).toBe(true);
    // Back to the shared counter kept in Redis.
    expect(await store.hit([k], [60_000])).toEqual([2]);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info']);
  }, 30_000);
});

// The rate limiter's leases (rateLimit.ts): the same answers from both stores.
describe.each([
  ['memory', () => memoryStore()],
  ['Redis', () => redisStore(REDIS.toString())],
] as [string, () => CounterStore][])('reserve and release (%s store)', (_kind, make) => {
  const ttl = [60_000, 60_000];

  it('grants at most `want`, at most the least room left divided by `share`, at least 1', async () => {
    const store = make();
    stores.push(store);
    const keys = [key(), key()];
    // Least room 1000 (the first counter): 1000 / 64 = 15.
    expect(await store.reserve(keys, [1000, 5000], ttl, 32, 64)).toEqual({ granted: 15, counts: [15, 15] });
    // Room 985 then 970...: never more than `want`.
    expect(await store.reserve(keys, [1000, 5000], ttl, 10, 64)).toEqual({ granted: 10, counts: [25, 25] });
    // Near the limit, one at a time.
    expect(await store.reserve(keys, [30, 5000], ttl, 32, 64)).toEqual({ granted: 1, counts: [26, 26] });
    expect((await store.reserve([key()], [1e9], [60_000], 32, 64)).granted).toBe(32);
  });

  it('grants nothing and counts nothing once a counter is at its limit', async () => {
    const store = make();
    stores.push(store);
    const keys = [key(), key()];
    expect(await store.reserve(keys, [1000, 3], ttl, 32, 1)).toEqual({ granted: 3, counts: [3, 3] });
    expect(await store.reserve(keys, [1000, 3], ttl, 32, 1)).toEqual({ granted: 0, counts: [3, 3] });
    expect(await store.peek(keys)).toEqual([3, 3]);
  });

  it('gives back unused units, and never brings back a counter that is gone', async () => {
    const store = make();
    stores.push(store);
    const keys = [key(), key()];
    await store.reserve(keys, [1000, 1000], ttl, 32, 64);
    await store.release(keys, 5);
    expect(await store.peek(keys)).toEqual([10, 10]);
    const gone = key();
    await store.release([gone], 5);
    expect(await store.peek([gone])).toEqual([0]);
    expect((await store.reserve([gone], [10], [60_000])).counts).toEqual([1]);
  });

  it('two processes leasing at once never grant more than the limit', async () => {
    const [a, b] = [make(), make()];
    stores.push(a, b);
    // The memory store is one process's: both "processes" share it.
    const second = _kind === 'memory' ? a : b;
    const keys = [key(), key()];
    const results = await Promise.all(
      Array.from({ length: 400 }, (_, i) => (i % 2 ? a : second).reserve(keys, [1000, 5000], ttl, 32, 64)),
    );
    expect(results.reduce((sum, r) => sum + r.granted, 0)).toBe(1000);
    expect(await a.peek(keys)).toEqual([1000, 1000]);
  });
});
