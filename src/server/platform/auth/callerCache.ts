import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import type { Db, DbHandle } from '../../db/index.ts';
import type { Caller } from '../caller.ts';

/** Channel of the migration 020 triggers: applications, users or offices changed. */
export const CALLERS_CHANNEL = 'fieldwork_callers';

/**
 * A Map bounded to `max` entries, least recently used out first (a hit moves its key to
 * the end of the Map's insertion order).
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(readonly max: number) {}
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: K, value: V) {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size <= this.max) return;
    const oldest = this.map.keys().next();
    if (!oldest.done) this.map.delete(oldest.value);
  }
  delete(key: K) {
    this.map.delete(key);
  }
  clear() {
    this.map.clear();
  }
  get size() {
    return this.map.size;
  }
}

/**
 * The callers resolved from the database (application or user, rights, office path), kept
 * per caller key until the tables they come from change.
 *
 * Invalidation holds across processes: every write to applications, users or offices
 * notifies the channel CALLERS_CHANNEL (migration 020), each process listens on it
 * (PostgreSQL: a dedicated connection; PGlite: its single session, delivered before the
 * writing statement returns) and moves its `generation` on, which makes every entry stale
 * at once. An entry records the generation its query started in, so a query that raced
 * with a change is never kept. While the listening connection is down, nothing is cached:
 * every request reads the database, as without a cache.
 */
export class CallerCache {
  private generation = 0;
  private live = false;
  private readonly entries: Lru<string, { generation: number; caller: Caller | undefined }>;
  private readonly listeners = new Set<() => void>();
  /** Counters, for tests and the log. */
  readonly stats = { hits: 0, misses: 0, invalidations: 0 };

  constructor(max = 10_000) {
    this.entries = new Lru(max);
  }

  /** The listening connection's state: up (notifications arrive) or down. */
  setLive(live: boolean) {
    this.invalidate();
    this.live = live;
  }

  get isLive() {
    return this.live;
  }

  invalidate() {
    this.generation++;
    this.stats.invalidations++;
    this.entries.clear();
    for (const listener of this.listeners) listener();
  }

  /**
   * Calls `listener` whenever callers may have changed (what outlives a request, such as
   * an open change stream, checks its caller again); returns its removal.
   */
  onInvalidate(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The cached caller of `key` (undefined: refused), else `load`'s, kept when still current. */
  async resolve(key: string, load: () => Promise<Caller | undefined>): Promise<Caller | undefined> {
    const entry = this.live ? this.entries.get(key) : undefined;
    if (entry && entry.generation === this.generation) {
      this.stats.hits++;
      return entry.caller;
    }
    this.stats.misses++;
    const generation = this.generation;
    const caller = await load();
    if (this.live && generation === this.generation) this.entries.set(key, { generation, caller });
    return caller;
  }
}

export interface CallerFeedLog {
  warn(msg: string): void;
  info(msg: string): void;
}

/**
 * Connects a CallerCache to the database's notifications (migration 020): registers this
 * process in caller_listeners, drops the cache on each notification of its schema and
 * records the version it has seen, beats every 5 s (PostgreSQL). Returns the cache and its stop.
 */
export async function listenForCallerChanges(dbh: DbHandle, log: CallerFeedLog) {
  const callers = new CallerCache();
  const db = dbh.db;
  const id = `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
  let stopped = false;
  let seen = 0n;
  // Acknowledgements are written one after the other, the highest version last.
  let acking: Promise<unknown> = Promise.resolve();
  // PGlite: one process, notified before the writing statement returns; nothing to confirm.
  const registered = dbh.kind === 'postgres';
  const ack = () => {
    if (!registered) return acking;
    acking = acking
      .then(() =>
        db
          .insertInto('caller_listeners')
          .values({ id, seen: String(seen), beat_at: sql<Date>`now()` })
          .onConflict((oc) => oc.column('id').doUpdateSet({ seen: String(seen), beat_at: sql<Date>`now()` }))
          .execute(),
      )
      .catch((err) => {
        if (!stopped)
          log.warn(`caller listener: cannot record the version seen (${String(err?.message ?? err)})`);
      });
    return acking;
  };
  const current = async () =>
    BigInt((await db.selectFrom('caller_changes').select('version').executeTakeFirstOrThrow()).version);

  const stopListening = await dbh.listen(
    CALLERS_CHANNEL,
    (payload) => {
      const [schema, version] = payload.split(' ');
      if (schema !== dbh.schema) return;
      callers.invalidate();
      const v = BigInt(version ?? '0');
      if (v > seen) seen = v;
      void ack();
    },
    (up) => {
      if (stopped) return;
      if (!up && callers.isLive)
        log.warn('caller notifications lost: reading callers from the database until they resume');
      if (up && !callers.isLive && seen > 0n) log.info('caller notifications resumed');
      callers.setLive(up);
      // Whatever changed while not listening is covered: the cache starts empty.
      if (up)
        void current()
          .then((v) => {
            if (v > seen) seen = v;
            return ack();
          })
          .catch(() => {});
    },
  );
  if (registered)
    // Rows of processes that stopped beating (killed) long ago.
    await db
      .deleteFrom('caller_listeners')
      .where('beat_at', '<', sql<Date>`now() - interval '1 hour'`)
      .execute()
      .catch(() => {});
  if (callers.isLive) {
    const v = await current();
    if (v > seen) seen = v;
    await ack();
  }
  const beat = setInterval(() => void ack(), LISTENER_BEAT_MS);
  beat.unref();
  return {
    callers,
    async stop() {
      stopped = true;
      clearInterval(beat);
      await stopListening();
      await acking;
      if (registered)
        await db
          .deleteFrom('caller_listeners')
          .where('id', '=', id)
          .execute()
          .catch(() => {});
    },
  };
}

export const LISTENER_BEAT_MS = 5_000;
const LISTENER_STALE = '15 seconds';

/**
 * For a writer of applications, users or offices: resolves once every live service
 * process has dropped the callers cached before the writer's change (it has seen the
 * current version), or after `timeoutMs` (false: a process lags; it will still drop them
 * when its notification arrives). A process that stopped beating 15 s ago (killed) does not count.
 */
export async function awaitCallerListeners(db: Db, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const row = await db.selectFrom('caller_changes').select('version').executeTakeFirst();
  if (!row) return true;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    const lagging = await db
      .selectFrom('caller_listeners')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('seen', '<', row.version)
      .where('beat_at', '>', sql<Date>`now() - ${LISTENER_STALE}::interval`)
      .executeTakeFirstOrThrow();
    if (Number(lagging.n) === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, wait));
  }
}
