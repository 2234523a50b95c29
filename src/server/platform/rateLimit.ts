import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Endpoint, RateRange } from '../../contract/endpoint.ts';
import { CommonCodes } from '../../contract/errors.ts';
import { isRecord } from '../../contract/guards.ts';
import type { Caller } from './caller.ts';
import { type CounterStore, memoryStore } from './counterStore.ts';
import { ApiError } from './errors.ts';
import { errorMessage } from './thrown.ts';

type Figures = { perMinute: number; perHour: number };
/** The spec's three ranges; `interactive` (not the spec's) takes its default when not given. */
export type RateLimitFigures = Record<Exclude<RateRange, 'interactive'>, Figures> & { interactive?: Figures };

/** gaps.md: the stricter per-minute statement is the default. */
export const DEFAULT_RATE_LIMITS: Required<RateLimitFigures> = {
  high: { perMinute: 110, perHour: 4000 },
  standard: { perMinute: 55, perHour: 2000 },
  low: { perMinute: 30, perHour: 1000 },
  /** Not the spec's: the console's search (one call per pause in typing, about 4 a second at most). */
  interactive: { perMinute: 240, perHour: 6000 },
};

const ENV = 'FIELDWORK_RATE_LIMITS';

/**
 * Reads FIELDWORK_RATE_LIMITS, e.g. `{"standard":{"perMinute":5,"perHour":1000}}`; missing
 * keys keep their default. Anything else is a startup error naming the variable.
 */
export function parseRateLimits(text: string | undefined): Required<RateLimitFigures> {
  const figures = structuredClone(DEFAULT_RATE_LIMITS);
  if (!text?.trim()) return figures;
  const fail = (why: string) =>
    new Error(`${ENV}: ${why}. Expected JSON like {"standard":{"perMinute":55,"perHour":2000}}`);
  let given: unknown;
  try {
    given = JSON.parse(text);
  } catch (e) {
    throw fail(`not valid JSON (${errorMessage(e)})`);
  }
  if (!isRecord(given)) throw fail('must be a JSON object');
  for (const [range, value] of Object.entries(given)) {
    if (!Object.hasOwn(figures, range))
      throw fail(`unknown range "${range}" (high, standard, low, interactive)`);
    if (!isRecord(value)) throw fail(`"${range}" must be an object`);
    for (const [key, n] of Object.entries(value)) {
      if (key !== 'perMinute' && key !== 'perHour')
        throw fail(`unknown figure "${range}.${key}" (perMinute, perHour)`);
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0)
        throw fail(`"${range}.${key}" must be a positive integer, got ${JSON.stringify(n)}`);
      figures[range as RateRange][key] = n;
    }
  }
  return figures;
}

export interface RateLimiterOptions {
  /** Clock in milliseconds (tests). */
  now?: () => number;
  /** Key prefix in the store: `fieldwork:<instance id>:rl:` (app.ts). */
  prefix?: string;
  /** Where the counters live (counterStore.ts); this process's memory by default. */
  store?: CounterStore;
}

/**
 * A process takes a budget from the store in leases: at most LEASE_MAX requests, and at most
 * 1/LEASE_SHARE of what is left (so with the default figures, or near any limit, every
 * request asks the store). A lease serves its window only; what it did not use is given
 * back when its window ends. So a limit is never exceeded, and with high limits most
 * requests make no round trip to Redis; the cost: another process may be refused while
 * this one holds the last units of a lease (at most 1/LEASE_SHARE of what was left).
 */
export const LEASE_MAX = 32;
export const LEASE_SHARE = 64;

interface Lease {
  mi: number;
  hi: number;
  keys: string[];
  /** Units granted and not handed out yet. */
  left: number;
  /** The counts once the lease was granted: a request's count is `counts - left`. */
  counts: number[];
  /** Set while the store is asked: the requests that find it wait for that answer. */
  pending?: Promise<unknown>;
}

/**
 * Per application (caller.rateKey) and per range, a one-minute and a one-hour window.
 *
 * Fixed windows (aligned on the clock's minute and hour): one counter per window, taken
 * from in leases (above) by one script in Redis, an exact `reset` to announce, and the
 * same answer on every instance. The known cost, a burst of up to twice the per-minute
 * figure across a minute boundary, is bounded by the hour window; a sliding log would
 * cost memory per request and a sliding estimate could not announce an exact reset.
 */
export function createRateLimiter(given: RateLimitFigures, options: RateLimiterOptions = {}) {
  const figures: Required<RateLimitFigures> = {
    ...given,
    interactive: given.interactive ?? DEFAULT_RATE_LIMITS.interactive,
  };
  const now = options.now ?? Date.now;
  const prefix = options.prefix ?? 'fieldwork:rl:';
  const store = options.store ?? memoryStore(now);

  // Per range, what does not change from one request to the next: the windows, their
  // limits, the policy header and the key suffixes (the hot path builds only the counts).
  const plans = Object.fromEntries(
    (Object.keys(figures) as RateRange[]).map((range) => {
      const windows = [
        { name: `${range}-minute`, seconds: 60, ms: 60_000, limit: figures[range].perMinute },
        { name: `${range}-hour`, seconds: 3600, ms: 3_600_000, limit: figures[range].perHour },
      ];
      return [
        range,
        {
          windows,
          limits: windows.map((w) => w.limit),
          ttlMs: windows.map((w) => w.ms + 1000),
          policy: windows.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(', '),
        },
      ];
    }),
  ) as Record<
    RateRange,
    {
      windows: { name: string; seconds: number; ms: number; limit: number }[];
      limits: number[];
      ttlMs: number[];
      policy: string;
    }
  >;

  // Per caller and range, the lease this process holds.
  const leases = new Map<string, Lease>();

  /** One unit of the budget: from this process's lease, else a new lease from the store. */
  async function take(tag: string, range: RateRange, mi: number, hi: number) {
    for (;;) {
      const lease = leases.get(tag);
      if (lease?.pending) {
        await lease.pending;
        continue;
      }
      if (lease && lease.mi === mi && lease.hi === hi && lease.left > 0) {
        lease.left--;
        return { allowed: true, counts: lease.counts.map((c) => c - lease.left) };
      }
      // A window ended: its unused units go back (the hour's counter outlives the minute),
      // before the next lease is asked for, so that its counts are net of them. In order by
      // promise, not by the connection's order: on a Redis that does not hold the release
      // script yet (NOSCRIPT), it is sent again after a reserve sent meanwhile.
      const released = lease && lease.left > 0 ? store.release(lease.keys, lease.left) : undefined;
      const next: Lease = { mi, hi, keys: [`${tag}60:${mi}`, `${tag}3600:${hi}`], left: 0, counts: [] };
      const { limits, ttlMs } = plans[range];
      const reserve = () => store.reserve(next.keys, limits, ttlMs, LEASE_MAX, LEASE_SHARE);
      let granted = 0;
      next.pending = (released ? released.then(reserve, reserve) : reserve())
        .then((answer) => {
          granted = next.left = answer.granted;
          next.counts = answer.counts;
        })
        .finally(() => {
          next.pending = undefined;
        });
      leases.set(tag, next);
      await next.pending;
      if (granted === 0) return { allowed: false, counts: next.counts };
    }
  }

  async function check(_request: FastifyRequest, reply: FastifyReply, caller: Caller, endpoint: Endpoint) {
    const range = endpoint.range;
    const plan = plans[range];
    const t = now();
    const [minute, hour] = plan.windows;
    const mi = Math.floor(t / minute.ms);
    const hi = Math.floor(t / hour.ms);
    // The hash tag keeps both windows of a caller on one Redis Cluster slot.
    const tag = `${prefix}{${caller.rateKey}:${range}}:`;
    const resets = [
      Math.max(1, Math.ceil(((mi + 1) * minute.ms - t) / 1000)),
      Math.max(1, Math.ceil(((hi + 1) * hour.ms - t) / 1000)),
    ];
    // A store that is down answers from its local fallback at once (counterStore.ts).
    const result = await take(tag, range, mi, hi);
    // draft-ietf-httpapi-ratelimit-headers (structured fields): a policy item per window.
    const remaining =
      `"${minute.name}";r=${Math.max(0, minute.limit - result.counts[0])};t=${resets[0]}, ` +
      `"${hour.name}";r=${Math.max(0, hour.limit - result.counts[1])};t=${resets[1]}`;
    if (!result.allowed) {
      const retryAfter = Math.max(...resets.filter((_r, i) => result.counts[i] >= plan.limits[i]));
      throw new ApiError(
        429,
        CommonCodes.tooManyRequests,
        `Rate limit of the ${range} range reached; retry in ${retryAfter} s`,
        { 'RateLimit-Policy': plan.policy, RateLimit: remaining, 'Retry-After': String(retryAfter) },
      );
    }
    reply.headers({ 'RateLimit-Policy': plan.policy, RateLimit: remaining });
  }

  return { check };
}
