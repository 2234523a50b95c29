/**
 * Idempotency-Key on every POST of the API (issue 29, 5; draft-ietf-httpapi-idempotency-key-header).
 *
 * A POST sent with a key is done once: its first answer (status, body and the headers that
 * describe it) is kept 24 hours for the caller, and the same request sent again with that
 * key within that time gets that answer back (`Idempotent-Replayed: true`) instead of being
 * done again. The same key with another request (method, path or body) is 422
 * `request.idempotencykey.mismatch`; while the first request runs, the key is 409
 * `request.idempotencykey.inprogress`. Keys belong to a caller (tenant + application or
 * user): two callers never meet. A 5xx is not kept: the client may retry with the same key.
 *
 * The key is taken (atomically, in the store) after authentication and once the body is
 * read (routes.ts: preHandler), and the answer recorded before it is sent (onSend, ahead of
 * compression), so a client that retries on receiving it finds it. What is not covered: a
 * process that dies between committing the work and recording the answer leaves the key
 * held until PENDING_LEASE_MS passes; the request may then be done again.
 *
 * Kept in the database (migration 101, the caller's tenant), or in Redis when REDIS_URL is
 * set (every instance shares it). Redis unreachable: a request with a key is 503
 * `request.idempotencykey.unavailable` (retry with the same key), one without is served.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { type Generated, sql } from 'kysely';
import { CommonCodes } from '../../contract/errors.ts';
import type { Db, DbHandle } from '../db/index.ts';
import type { Json, Timestamp } from '../db/schema.ts';
import type { Caller } from './caller.ts';
import { REDIS_COMMAND_TIMEOUT_MS, REDIS_CONNECT_TIMEOUT_MS, type StoreLog } from './counterStore.ts';
import { ApiError } from './errors.ts';
import { tenantOf } from './officeScope.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key and its answer are kept (issue 29: 24 hours). */
export const KEY_TTL_MS = 24 * 3600_000;
export const MAX_KEY_LENGTH = 255;
/** A first request not answered within this time is taken for lost (its process died). */
export const PENDING_LEASE_MS = 5 * 60_000;
/** Expired keys deleted per statement, and statements per pruning round. */
export const PRUNE_BATCH = 1000;
export const PRUNE_ROUNDS = 10;
export const PRUNE_INTERVAL_MS = 60_000;
/**
 * The largest answer kept (a slot search may answer a lot): a larger one gives its key back,
 * and the same request sent again is done again (the POSTs that answer that much only read).
 */
export const MAX_KEPT_BODY = 256 * 1024;
/** Seconds a client is asked to wait before sending a request still running again. */
export const IN_PROGRESS_RETRY_AFTER = 1;

/** The headers of the first answer given again with it; the others are the request's own. */
const KEPT_HEADERS = [
  'content-type',
  'location',
  'content-location',
  'etag',
  'last-modified',
  'deprecation',
  'link',
];

export interface IdempotencyTables {
  idempotency_keys: {
    /** The caller's tenant (migration 090's default: the request's). */
    tenant_id: Generated<string>;
    caller: string;
    key: string;
    fingerprint: string;
    owner: string;
    status: number | null;
    headers: Json<Record<string, string>> | null;
    body: string | null;
    locked_until: Timestamp;
    expires_at: Timestamp;
  };
}

/** A kept answer. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Which key: the caller's tenant, the caller, the key it sent. */
export interface KeyRef {
  tenant: string;
  caller: string;
  key: string;
}

/** What holds a key another request took: its fingerprint and, once answered, its answer. */
export interface Holder {
  fingerprint: string;
  answer: Answer | null;
}

/** Where keys are kept. `now` is the service's clock (tests move it). */
export interface KeyStore {
  /** Takes the key for `owner`, or answers what holds it (unexpired and not lost). */
  begin(ref: KeyRef, fingerprint: string, owner: string, now: number): Promise<Holder | 'taken'>;
  /** Records the answer of `owner`'s request (nothing when another owner took the key since). */
  finish(ref: KeyRef, owner: string, answer: Answer): Promise<void>;
  /** Gives the key back (its request answered 5xx, or could not be kept). */
  release(ref: KeyRef, owner: string): Promise<void>;
  /** Deletes expired keys in bounded batches; answers how many. */
  prune(now: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * The key of a request: a Structured Field String (`"…"`, as the draft has it) or, as
 * most clients send it, the bare text; printable ASCII, 1 to 255 characters.
 */
export function parseKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const refuse = (why: string) =>
    new ApiError(400, CommonCodes.idempotencyKeyInvalid, `Idempotency-Key ${why}`);
  if (Array.isArray(header)) throw refuse('must be sent once');
  let key = header.trim();
  if (key.startsWith('"')) {
    const m = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(key);
    if (!m) throw refuse('is not a valid string (RFC 8941)');
    key = m[1].replace(/\\(["\\])/g, '$1');
  } else if (!/^[\x21-\x7e]*$/.test(key)) {
    throw refuse('holds characters other than printable ASCII');
  }
  if (key.length === 0) throw refuse('is empty');
  if (key.length > MAX_KEY_LENGTH) throw refuse(`is longer than ${MAX_KEY_LENGTH} characters`);
  return key;
}

/** Method, path with its query, and body: the same request, byte for byte. */
export function fingerprintOf(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n`)
    .update(typeof body === 'string' ? body : '')
    .digest('hex');
}

/** The database (migration 101): statements of a request run inside the caller's tenant. */
export function databaseKeys(tenantDbFor: DbHandle['tenantDbFor'], ownerDb: Db): KeyStore {
  // The keys' writes are not in the change log: no actor.
  const inTenant = <T>(ref: KeyRef, fn: (tenantDb: Db) => Promise<T>) => fn(tenantDbFor(ref.tenant, ''));
  const rows = (ref: KeyRef) => (db: Db) =>
    db.selectFrom('idempotency_keys').where('caller', '=', ref.caller).where('key', '=', ref.key);
  return {
    begin: (ref, fingerprint, owner, now) =>
      inTenant(ref, async (tenantDb) => {
        const at = new Date(now);
        // Up to three tries: the key may be given back between the insert and the read.
        for (let attempt = 0; attempt < 3; attempt++) {
          const took = await tenantDb
            .insertInto('idempotency_keys')
            .values({
              caller: ref.caller,
              key: ref.key,
              fingerprint,
              owner,
              locked_until: new Date(now + PENDING_LEASE_MS),
              expires_at: new Date(now + KEY_TTL_MS),
            })
            // An expired key, or one whose first request was lost, is taken over.
            .onConflict((oc) =>
              oc
                .columns(['tenant_id', 'caller', 'key'])
                .doUpdateSet((eb) => ({
                  fingerprint: eb.ref('excluded.fingerprint'),
                  owner: eb.ref('excluded.owner'),
                  status: null,
                  headers: null,
                  body: null,
                  locked_until: eb.ref('excluded.locked_until'),
                  expires_at: eb.ref('excluded.expires_at'),
                }))
                .where((eb) =>
                  eb.or([
                    eb('idempotency_keys.expires_at', '<=', at),
                    eb.and([
                      eb('idempotency_keys.status', 'is', null),
                      eb('idempotency_keys.locked_until', '<=', at),
                    ]),
                  ]),
                ),
            )
            .returning('owner')
            .executeTakeFirst();
          if (took) return 'taken';
          const held = await rows(ref)(tenantDb)
            .select(['fingerprint', 'status', 'headers', 'body'])
            .executeTakeFirst();
          if (held)
            return {
              fingerprint: held.fingerprint,
              answer:
                held.status === null
                  ? null
                  : { status: held.status, headers: held.headers ?? {}, body: held.body ?? '' },
            };
        }
        throw new Error('idempotency key: taken and given back three times in a row');
      }),
    finish: (ref, owner, answer) =>
      inTenant(ref, async (tenantDb) => {
        await tenantDb
          .updateTable('idempotency_keys')
          .set({ status: answer.status, headers: JSON.stringify(answer.headers), body: answer.body })
          .where('caller', '=', ref.caller)
          .where('key', '=', ref.key)
          .where('owner', '=', owner)
          .execute();
      }),
    release: (ref, owner) =>
      inTenant(ref, async (tenantDb) => {
        await tenantDb
          .deleteFrom('idempotency_keys')
          .where('caller', '=', ref.caller)
          .where('key', '=', ref.key)
          .where('owner', '=', owner)
          .execute();
      }),
    // Every tenant's keys: as the tables' owner, in batches that each hold few locks.
    async prune(now) {
      let total = 0;
      for (let round = 0; round < PRUNE_ROUNDS; round++) {
        const { numAffectedRows } = await sql`
          DELETE FROM idempotency_keys k USING (
            SELECT tenant_id, caller, key FROM idempotency_keys
            WHERE expires_at <= ${new Date(now)} ORDER BY expires_at LIMIT ${PRUNE_BATCH}
            FOR UPDATE SKIP LOCKED) x
          WHERE (k.tenant_id, k.caller, k.key) = (x.tenant_id, x.caller, x.key)`.execute(ownerDb);
        const n = Number(numAffectedRows ?? 0);
        total += n;
        if (n < PRUNE_BATCH) break;
      }
      return total;
    },
    async close() {},
  };
}

// Redis: one hash per key; its fields compared with the service's clock (ARGV) so that
// the expiry rules are the database's; the hash's own TTL frees the memory.
// BEGIN: KEYS[1]; ARGV: now, fingerprint, owner, lockedUntil, expiresAt, ttlMs.
const BEGIN = `
local v = redis.call('HMGET', KEYS[1], 'fingerprint', 'status', 'headers', 'body', 'lockedUntil', 'expiresAt')
local now = tonumber(ARGV[1])
local free = not v[1] or tonumber(v[6]) <= now or (not v[2] and tonumber(v[5]) <= now)
if free then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'fingerprint', ARGV[2], 'owner', ARGV[3], 'lockedUntil', ARGV[4], 'expiresAt', ARGV[5])
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  return {'taken'}
end
return {'held', v[1], v[2] or '', v[3] or '', v[4] or ''}`;
// FINISH: KEYS[1]; ARGV: owner, status, headers, body.
const FINISH = `
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'status', ARGV[2], 'headers', ARGV[3], 'body', ARGV[4])
end
return 0`;
// RELEASE: KEYS[1]; ARGV: owner.
const RELEASE = `
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * Redis (REDIS_URL): fail fast like the rate limiter's store (short timeouts, nothing
 * queued while disconnected); a failure is the request's 503, never a wait.
 */
export function redisKeys(url: string, prefix: string): KeyStore {
  const redis = new Redis(url, {
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(times * 250, 5000),
  });
  // Errors are the requests' (503): without a listener ioredis would print each one.
  redis.on('error', () => {});
  // The hash tag keeps a tenant's keys on one Redis Cluster slot.
  const keyOf = (ref: KeyRef) => `${prefix}{${ref.tenant}}:${ref.caller}:${ref.key}`;
  async function run(lua: string, key: string, args: (string | number)[]) {
    // The first requests wait for the first connection (at most the connect timeout).
    if (redis.status === 'wait' || redis.status === 'connecting')
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          redis.off('ready', done);
          resolve();
        };
        const timer = setTimeout(done, REDIS_CONNECT_TIMEOUT_MS);
        redis.once('ready', done);
      });
    try {
      return await redis.eval(lua, 1, key, ...args);
    } catch {
      throw new ApiError(
        503,
        CommonCodes.idempotencyKeyUnavailable,
        'The store of idempotency keys is unavailable; retry with the same key shortly',
        { 'retry-after': '2' },
      );
    }
  }
  return {
    async begin(ref, fingerprint, owner, now) {
      const found = (await run(BEGIN, keyOf(ref), [
        now,
        fingerprint,
        owner,
        now + PENDING_LEASE_MS,
        now + KEY_TTL_MS,
        KEY_TTL_MS,
      ])) as string[];
      if (found[0] === 'taken') return 'taken';
      const [, held, status, headers, body] = found;
      return {
        fingerprint: held,
        answer: status ? { status: Number(status), headers: JSON.parse(headers), body } : null,
      };
    },
    async finish(ref, owner, answer) {
      await run(FINISH, keyOf(ref), [owner, answer.status, JSON.stringify(answer.headers), answer.body]);
    },
    async release(ref, owner) {
      await run(RELEASE, keyOf(ref), [owner]);
    },
    // Redis forgets a key at its TTL.
    async prune() {
      return 0;
    },
    async close() {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

/** A request that took a key: what its answer is recorded under. */
interface Attempt {
  ref: KeyRef;
  owner: string;
  done: boolean;
}

export interface Idempotency {
  /** preHandler of a POST: takes the key, or answers (replay, 409, 422) without the handler. */
  begin(request: FastifyRequest, reply: FastifyReply, caller: Caller): Promise<FastifyReply | undefined>;
  /** onSend of a POST: records the answer (a 5xx gives the key back) before it is sent. */
  record(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
  /** onResponse of a POST: a key still held by an answered request is given back. */
  settle(request: FastifyRequest): Promise<void>;
  /** One pruning round now (the timer runs them every PRUNE_INTERVAL_MS). */
  prune(): Promise<number>;
  close(): Promise<void>;
}

export function createIdempotency(options: {
  store: KeyStore;
  now?: () => number;
  log: StoreLog;
}): Idempotency {
  const { store, log } = options;
  const now = options.now ?? Date.now;
  const attempts = new WeakMap<FastifyRequest, Attempt>();

  async function giveBack(attempt: Attempt) {
    try {
      await store.release(attempt.ref, attempt.owner);
    } catch (err) {
      // The key stays held until PENDING_LEASE_MS passes.
      log.warn({ err: String(err) }, 'idempotency key not given back');
    }
  }

  let pruning: Promise<number> | undefined;
  const prune = () => {
    pruning ??= store.prune(now()).finally(() => {
      pruning = undefined;
    });
    return pruning;
  };
  const timer = setInterval(() => {
    prune().catch((err) => log.warn({ err: String(err) }, 'expired idempotency keys not pruned'));
  }, PRUNE_INTERVAL_MS);
  timer.unref();

  return {
    async begin(request, reply, caller) {
      const key = parseKey(request.headers[IDEMPOTENCY_HEADER]);
      if (key === undefined) return undefined;
      const ref: KeyRef = {
        tenant: tenantOf(caller.scope) ?? '',
        caller: `${caller.kind}:${caller.id}`,
        key,
      };
      const fingerprint = fingerprintOf(request.method, request.url, request.body);
      const owner = randomUUID();
      const held = await store.begin(ref, fingerprint, owner, now());
      if (held === 'taken') {
        attempts.set(request, { ref, owner, done: false });
        return undefined;
      }
      if (held.fingerprint !== fingerprint)
        throw new ApiError(
          422,
          CommonCodes.idempotencyKeyMismatch,
          'This Idempotency-Key was used for another request (method, path or body); use a new key',
        );
      if (!held.answer)
        throw new ApiError(
          409,
          CommonCodes.idempotencyKeyInProgress,
          'A request with this Idempotency-Key is still running; retry once it has answered',
          { 'retry-after': String(IN_PROGRESS_RETRY_AFTER) },
        );
      const { status, headers, body } = held.answer;
      reply.status(status).headers(headers).header('idempotent-replayed', 'true');
      return reply.send(body === '' ? undefined : body);
    },
    async record(request, reply, payload) {
      const attempt = attempts.get(request);
      if (!attempt || attempt.done) return payload;
      attempt.done = true;
      const body =
        payload == null
          ? ''
          : typeof payload === 'string' || Buffer.isBuffer(payload)
            ? String(payload)
            : undefined;
      if (reply.statusCode >= 500 || body === undefined || body.length > MAX_KEPT_BODY) {
        await giveBack(attempt);
        return payload;
      }
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      try {
        await store.finish(attempt.ref, attempt.owner, { status: reply.statusCode, headers, body });
      } catch (err) {
        // The work is done: its answer is sent anyway; a retry within PENDING_LEASE_MS is a 409.
        log.warn({ err: String(err) }, 'idempotency key: answer not recorded');
      }
      return payload;
    },
    async settle(request) {
      const attempt = attempts.get(request);
      if (!attempt || attempt.done) return;
      attempt.done = true;
      await giveBack(attempt);
    },
    prune,
    async close() {
      clearInterval(timer);
      await pruning?.catch(() => 0);
      await store.close();
    },
  };
}
