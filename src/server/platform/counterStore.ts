import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { errorMessage } from './thrown.ts';

/**
 * Counters of fixed time windows, for the API rate limits (rateLimit.ts) and the failed
 * client authentications of the token endpoint (auth/tokenLimits.ts).
 */
export interface CounterStore {
  /**
   * Atomic: takes the same number of units from every counter, at most `want`, at most the
   * least room left divided by `share` (at least 1: a caller of the rate limiter may hold a
   * part of what is left, never all of it), and none when a counter is at its limit (a
   * refused request does not eat the budget). Answers the units granted and the new counts.
   */
  reserve(
    keys: string[],
    limits: number[],
    ttlMs: number[],
    want?: number,
    share?: number,
  ): Promise<{ granted: number; counts: number[] }>;
  /** Gives back units reserved and not used, to the counters that still exist. */
  release(keys: string[], units: number): Promise<void>;
  /** Current counts, without incrementing. */
  peek(keys: string[]): Promise<number[]>;
  /** Increments every counter (a new one lives ttlMs); returns the new counts. */
  hit(keys: string[], ttlMs: number[]): Promise<number[]>;
  close(): Promise<void>;
}

/** What reserve grants when the least room left across the counters is `room`. */
export const grantOf = (room: number, want: number, share: number) =>
  room <= 0 ? 0 : Math.max(1, Math.min(want, Math.floor(room / share)));

/** One process: a Map of counters, swept of expired windows now and then. */
export function memoryStore(now: () => number = Date.now): CounterStore {
  const counters = new Map<string, { count: number; expiresAt: number }>();
  let nextSweep = 0;
  function entry(key: string, ttlMs: number, t: number) {
    const c = counters.get(key);
    return c && c.expiresAt > t ? c : { count: 0, expiresAt: t + ttlMs };
  }
  function sweep(t: number) {
    if (t < nextSweep) return;
    for (const [k, c] of counters) if (c.expiresAt <= t) counters.delete(k);
    nextSweep = t + 60_000;
  }
  return {
    async reserve(keys, limits, ttlMs, want = 1, share = 1) {
      const t = now();
      sweep(t);
      const entries = keys.map((k, i) => entry(k, ttlMs[i], t));
      const granted = grantOf(Math.min(...entries.map((c, i) => limits[i] - c.count)), want, share);
      if (granted > 0)
        entries.forEach((c, i) => {
          c.count += granted;
          counters.set(keys[i], c);
        });
      return { granted, counts: entries.map((c) => c.count) };
    },
    async release(keys, units) {
      const t = now();
      for (const k of keys) {
        const c = counters.get(k);
        if (c && c.expiresAt > t) c.count = Math.max(0, c.count - units);
      }
    },
    async peek(keys) {
      const t = now();
      return keys.map((k) => entry(k, 0, t).count);
    },
    async hit(keys, ttlMs) {
      const t = now();
      sweep(t);
      return keys.map((k, i) => {
        const c = entry(k, ttlMs[i], t);
        c.count++;
        counters.set(k, c);
        return c.count;
      });
    },
    async close() {
      counters.clear();
    },
  };
}

// Check-then-increment of every window in one script, so it is atomic across instances;
// the grant is grantOf() (ARGV: limit and ttl per key, then want and share).
const RESERVE = `
local counts = {}
local room
for i, key in ipairs(KEYS) do
  counts[i] = tonumber(redis.call('GET', key) or '0')
  local left = tonumber(ARGV[i * 2 - 1]) - counts[i]
  if room == nil or left < room then room = left end
end
local n = #KEYS * 2
local granted = 0
if room > 0 then
  granted = math.max(1, math.min(tonumber(ARGV[n + 1]), math.floor(room / tonumber(ARGV[n + 2]))))
  for i, key in ipairs(KEYS) do
    counts[i] = redis.call('INCRBY', key, granted)
    if counts[i] == granted then redis.call('PEXPIRE', key, ARGV[i * 2]) end
  end
end
table.insert(counts, 1, granted)
return counts`;

// Only counters that still exist: an expired window must not come back without a ttl.
const RELEASE = `
for _, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count > 0 then redis.call('DECRBY', key, math.min(count, tonumber(ARGV[1]))) end
end
return 0`;

const HIT = `
local counts = {}
for i, key in ipairs(KEYS) do
  counts[i] = redis.call('INCR', key)
  if counts[i] == 1 then redis.call('PEXPIRE', key, ARGV[i]) end
end
return counts`;

/** Fail fast: a local Redis answers in well under a millisecond. */
export const REDIS_CONNECT_TIMEOUT_MS = 1000;
export const REDIS_COMMAND_TIMEOUT_MS = 250;
/** While the circuit is open, how often a PING checks whether Redis is back. */
export const REDIS_PROBE_INTERVAL_MS = 2000;

export interface StoreLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const script = (lua: string) => ({ lua, sha: sha1(lua) });
const SCRIPTS = { reserve: script(RESERVE), release: script(RELEASE), hit: script(HIT) };

/** Counters in Redis, shared by every instance of the service; the scripts keep them atomic. */
function redisCounters(redis: Redis): CounterStore {
  // A script is sent by its SHA-1 (EVALSHA, a few bytes a request) and in full only when
  // Redis does not hold it yet (NOSCRIPT: first call, or after a restart of Redis).
  async function run(script: { lua: string; sha: string }, keys: string[], args: (string | number)[]) {
    try {
      return await redis.evalsha(script.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!errorMessage(err).startsWith('NOSCRIPT')) throw err;
      return redis.eval(script.lua, keys.length, ...keys, ...args);
    }
  }
  return {
    async reserve(keys, limits, ttlMs, want = 1, share = 1) {
      const args = [...keys.flatMap((_k, i) => [limits[i], ttlMs[i]]), want, share];
      const [granted, ...counts] = (await run(SCRIPTS.reserve, keys, args)) as number[];
      return { granted, counts };
    },
    async release(keys, units) {
      await run(SCRIPTS.release, keys, [units]);
    },
    async peek(keys) {
      return (await redis.mget(...keys)).map((v) => Number(v ?? 0));
    },
    async hit(keys, ttlMs) {
      return (await run(SCRIPTS.hit, keys, ttlMs)) as number[];
    },
    async close() {},
  };
}

/**
 * Redis behind a circuit breaker (REDIS_URL). Redis down must not slow every request: the
 * connection and each command have short timeouts, nothing is queued while disconnected,
 * and after a failure the circuit opens: no request calls Redis any more, a PING every
 * REDIS_PROBE_INTERVAL_MS (and ioredis's own reconnection) closes it again. Each change of
 * state is logged once.
 *
 * While the circuit is open the counters live in this process (`fallback`): every instance
 * still enforces each limit on the requests it serves, so a caller gets at most the limit
 * times the number of instances. Refusing every request while Redis is down (fail-closed)
 * would turn an outage of a counter cache into an outage of the API; serving without
 * counting at all would lift the limits, the brute-force one of the token endpoint too.
 */
export function redisStore(
  url: string,
  options: { log?: StoreLog; fallback?: CounterStore } = {},
): CounterStore & { state(): 'connecting' | 'closed' | 'open' } {
  const log = options.log ?? { warn() {}, info() {} };
  const fallback = options.fallback ?? memoryStore();
  const redis = new Redis(url, {
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(times * 250, 5000),
  });
  const primary = redisCounters(redis);
  const where = redactUrl(url);
  let state: 'connecting' | 'closed' | 'open' = 'connecting';
  let probe: NodeJS.Timeout | undefined;
  let closing = false;

  function open(err: unknown) {
    if (state === 'open' || closing) return;
    state = 'open';
    log.warn(
      { redis: where, err: errorMessage(err) },
      'rate-limit store unavailable: counting in this process until it answers again',
    );
    probe = setInterval(() => {
      redis.ping().then(closeCircuit, () => {});
    }, REDIS_PROBE_INTERVAL_MS);
    probe.unref();
  }
  function closeCircuit() {
    if (state === 'closed' || closing) return;
    const was = state;
    state = 'closed';
    if (probe) clearInterval(probe);
    probe = undefined;
    if (was === 'open') log.info({ redis: where }, 'rate-limit store answers again');
  }
  // The first connection decides the initial state; until then requests wait for it (at
  // most the connect timeout: a refused connection fails at once).
  const firstOutcome = new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      open(new Error(`no connection within ${REDIS_CONNECT_TIMEOUT_MS} ms`));
      resolve();
    }, REDIS_CONNECT_TIMEOUT_MS);
    timer.unref();
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
    redis.once('error', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  redis.on('ready', closeCircuit);
  redis.on('error', open);
  redis.on('end', () => open(new Error('connection closed')));

  async function guarded<T>(run: (s: CounterStore) => Promise<T>): Promise<T> {
    if (state === 'connecting') await firstOutcome;
    if (state === 'open') return run(fallback);
    try {
      return await run(primary);
    } catch (err) {
      open(err);
      return run(fallback);
    }
  }

  return {
    reserve: (keys, limits, ttlMs, want, share) =>
      guarded((s) => s.reserve(keys, limits, ttlMs, want, share)),
    release: (keys, units) => guarded((s) => s.release(keys, units)),
    peek: (keys) => guarded((s) => s.peek(keys)),
    hit: (keys, ttlMs) => guarded((s) => s.hit(keys, ttlMs)),
    state: () => state,
    async close() {
      closing = true;
      if (probe) clearInterval(probe);
      await fallback.close();
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

/** The URL without its password, for the log. */
function redactUrl(url: string) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'REDIS_URL';
  }
}

/** Redis when a URL is given, else this process's memory. */
export function createCounterStore(options: { redisUrl?: string; log?: StoreLog; now?: () => number }) {
  return options.redisUrl
    ? redisStore(options.redisUrl, { log: options.log, fallback: memoryStore(options.now) })
    : memoryStore(options.now);
}
