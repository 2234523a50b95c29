/**
 * The live stream (issue 29, 3): server-sent events of the change log, in every process.
 *
 * One hub per process reads the new entries of each tenant that has streams open: at once
 * after a commit of this process (writeTransaction says so) or another process's
 * notification (signal.ts: LISTEN/NOTIFY on PostgreSQL), and every `pollMs` for what no
 * notification announces (the writes outside a writeTransaction, a
 * notification lost with its connection). The log is the bus: nothing is lost between
 * processes, and a commit pays nothing for the streams (a NOTIFY inside each commit took
 * PostgreSQL's global notify lock through the commit's disk flush, migration 103). The hub reads a tenant's new entries
 * once, at most every MIN_GAP_MS, keeps the last RING of them in memory, and each stream of
 * the tenant takes from there what its caller sees (its office tree, its kinds): a commit
 * costs one query per process, not one per stream. A stream that is behind the memory (a
 * resumption with Last-Event-ID, a burst) reads the log itself, page by page, until it
 * catches up.
 */
import type { FastifyReply } from 'fastify';
import { CHANGE_KINDS, FEED_PAGE_SIZE } from '../../../contract/changes.ts';
import type { Db } from '../../db/index.ts';
import { onCommitted } from '../../events/changes.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import * as q from './queries.ts';
import { toEntry, visible } from './service.ts';

/** The event text of an entry, made once for all the streams it goes to. */
const eventTexts = new WeakMap<q.EntryRow, string>();

/** Entries of a tenant kept in memory for its streams. */
const RING = 1000;
/** Between two reads of a tenant's entries: a burst of commits costs one read per gap. */
const MIN_GAP_MS = 50;
/** Other processes' commits reach a stream within this (issue 29: within 1 s). */
const POLL_MS = 250;

interface Stream {
  path: string;
  kinds: readonly string[];
  /** The last entry id this stream has passed (sent, or not its caller's). */
  cursor: string;
  write(chunk: string): void;
  /** Ends the response (the client reconnects with Last-Event-ID). */
  end(): void;
  busy: boolean;
  again: boolean;
  closed: boolean;
}

interface TenantState {
  /** The last entry id read into `ring`. */
  last: string;
  /** `ring` holds every entry of the tenant after this id (ids have gaps: other tenants'). */
  ringFrom: string;
  ring: q.EntryRow[];
  streams: Set<Stream>;
  busy: boolean;
  again: boolean;
  /** When its entries were last read (ms). */
  readAt: number;
}

export interface ChangeHubOptions {
  /** The requests' handle bound to a tenant: the hub's reads run inside it (row-level security). */
  dbFor: (tenant: string) => Db;
  /** Between two reads of the log for the commits of other processes (default POLL_MS). */
  pollMs?: number;
  heartbeatMs: number;
  /**
   * A stream ends after this long; the client reconnects with Last-Event-ID, and with its
   * current token: a stream does not outlive its caller's rights by more than this.
   */
  maxStreamMs: number;
  onError: (err: unknown) => void;
}

export class ChangeHub {
  private readonly tenants = new Map<string, TenantState>();
  private stopWatching: (() => void) | undefined;
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly opts: ChangeHubOptions) {}

  async start(): Promise<void> {
    const wakeAll = () => this.wakeAll();
    this.stopWatching = onCommitted(wakeAll);
    this.timers = [
      setInterval(wakeAll, this.opts.pollMs ?? POLL_MS),
      setInterval(() => {
        for (const state of this.tenants.values()) for (const s of state.streams) s.write(': heartbeat\n\n');
      }, this.opts.heartbeatMs),
    ];
    for (const timer of this.timers) timer.unref();
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.stopWatching?.();
    for (const state of this.tenants.values()) for (const s of state.streams) s.closed = true;
    this.tenants.clear();
  }

  /** The log may have new entries (a commit here, another process's notification): read them. */
  wakeAll(): void {
    for (const tenant of this.tenants.keys()) this.wake(tenant);
  }

  /** Ends every open stream: their clients reconnect, and are authenticated again. */
  endAll(): void {
    for (const state of this.tenants.values()) for (const s of state.streams) s.end();
  }

  /** Open streams (metrics, tests). */
  get size(): number {
    let n = 0;
    for (const state of this.tenants.values()) n += state.streams.size;
    return n;
  }

  /**
   * Serves one stream on `reply` until the client goes: the entries after `after` (or
   * from now), then each new one, as server-sent events.
   */
  async open(
    reply: FastifyReply,
    caller: { tenant: string; scope: OfficeScope; kinds: readonly string[]; after: string | undefined },
  ): Promise<void> {
    const state = await this.tenant(caller.tenant);
    const raw = reply.raw;
    const stream: Stream = {
      path: caller.scope.path,
      kinds: caller.kinds,
      cursor: caller.after ?? state.last,
      write: (chunk) => {
        if (!stream.closed) raw.write(chunk);
      },
      end: () => raw.end(),
      busy: false,
      again: false,
      closed: false,
    };
    reply.hijack();
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Proxies (nginx) would buffer the events otherwise.
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    // A reconnecting EventSource waits this long (ms) before trying again.
    raw.write('retry: 2000\n\n');
    // Registered again in case its last stream closed while this one was opening.
    if (!this.tenants.has(caller.tenant)) this.tenants.set(caller.tenant, state);
    state.streams.add(stream);
    const end = setTimeout(stream.end, this.opts.maxStreamMs);
    raw.on('close', () => {
      clearTimeout(end);
      stream.closed = true;
      state.streams.delete(stream);
      if (state.streams.size === 0 && !state.busy) this.tenants.delete(caller.tenant);
    });
    this.pump(caller.tenant, state, stream);
  }

  private async tenant(tenant: string): Promise<TenantState> {
    let state = this.tenants.get(tenant);
    if (!state) {
      const { last } = await q.counters(this.opts.dbFor(tenant), tenant);
      state = this.tenants.get(tenant) ?? {
        last,
        ringFrom: last,
        ring: [],
        streams: new Set(),
        busy: false,
        again: false,
        readAt: 0,
      };
      this.tenants.set(tenant, state);
    }
    return state;
  }

  /** `tenant` may have new entries: read them once, then serve its streams. */
  private wake(tenant: string) {
    const state = this.tenants.get(tenant);
    if (!state) return;
    if (state.busy) {
      state.again = true;
      return;
    }
    state.busy = true;
    void (async () => {
      try {
        do {
          const wait = state.readAt + MIN_GAP_MS - Date.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          state.again = false;
          state.readAt = Date.now();
          const db = this.opts.dbFor(tenant);
          const rows = await q.entriesAfter(db, {
            tenant,
            path: '/',
            after: state.last,
            through: (await q.counters(db, tenant)).last,
            kinds: CHANGE_KINDS,
            limit: FEED_PAGE_SIZE.max,
          });
          if (rows.length > 0) {
            const ring = [...state.ring, ...rows];
            if (ring.length > RING) state.ringFrom = ring[ring.length - RING - 1].id;
            state.ring = ring.slice(-RING);
            state.last = rows[rows.length - 1].id;
            if (rows.length === FEED_PAGE_SIZE.max) state.again = true;
          }
          for (const s of state.streams) this.pump(tenant, state, s);
        } while (state.again);
      } catch (err) {
        this.opts.onError(err);
      } finally {
        state.busy = false;
        if (state.streams.size === 0) this.tenants.delete(tenant);
      }
    })();
  }

  /** Sends `stream` what it has not passed yet: from memory, or from the log when behind it. */
  private pump(tenant: string, state: TenantState, stream: Stream) {
    if (stream.busy) {
      stream.again = true;
      return;
    }
    stream.busy = true;
    void (async () => {
      try {
        do {
          stream.again = false;
          if (stream.closed || BigInt(stream.cursor) >= BigInt(state.last)) break;
          if (BigInt(stream.cursor) >= BigInt(state.ringFrom)) {
            for (const row of state.ring) this.send(stream, row);
          } else {
            const rows = await q.entriesAfter(this.opts.dbFor(tenant), {
              tenant,
              path: stream.path,
              after: stream.cursor,
              through: state.last,
              kinds: stream.kinds,
              limit: FEED_PAGE_SIZE.max,
            });
            for (const row of rows) this.send(stream, row);
            if (rows.length < FEED_PAGE_SIZE.max) stream.cursor = state.last;
            stream.again = true;
          }
        } while (stream.again);
      } catch (err) {
        this.opts.onError(err);
      } finally {
        stream.busy = false;
      }
    })();
  }

  private send(stream: Stream, row: q.EntryRow) {
    if (BigInt(row.id) <= BigInt(stream.cursor)) return;
    stream.cursor = row.id;
    if (!visible(row, stream.path, stream.kinds)) return;
    const entry = toEntry(row, stream.path);
    // One text per entry for every stream that sees it as it is (a tombstone is its own).
    const cached = entry.action === row.action;
    const text =
      (cached ? eventTexts.get(row) : undefined) ??
      `id: ${row.id}\nevent: change\ndata: ${JSON.stringify(entry)}\n\n`;
    if (cached) eventTexts.set(row, text);
    stream.write(text);
  }
}
