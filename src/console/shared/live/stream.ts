/**
 * The console's one connection to the change stream (`GET .../changes/v1/stream`, SSE):
 * read with `fetch` so it carries the bearer token, parsed by ./sse.ts, resumed after a
 * drop with `Last-Event-ID` (the id of the last entry received) after a backoff. A
 * connection silent for longer than three heartbeats (15 s each), or the browser going
 * offline, drops it; the browser coming back online tries again at once.
 */
import { type ChangeEntry, readEntry } from './entry.ts';
import { createSseParser } from './sse.ts';

export const STREAM_PATH = '/eTech/rest/ws/changes/v1/stream';

/** `live`: connected; `reconnecting`: dropped, trying again; `unavailable`: the instance has no stream. */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'unavailable';

export interface StreamOptions {
  url: string;
  token: () => string | null | undefined;
  onEntry: (entry: ChangeEntry) => void;
  onState: (state: LiveState) => void;
  /**
   * Live again after a drop: `resumed` when the service was given the last entry's id (it
   * sends what was missed), false when none had come yet (what was missed is unknown).
   */
  onReconnected?: (resumed: boolean) => void;
  /** A 401: the token expired (the session refreshes it); the stream tries again after. */
  onUnauthorized?: () => void | Promise<void>;
  signal: AbortSignal;
  fetch?: typeof fetch;
  /** Pause before attempt n (1-based) after a drop. */
  backoff?: (attempt: number) => number;
  /** No byte for this long: the connection is taken as dead. */
  silenceMs?: number;
  /** Where `offline` / `online` are told (the window; tests give their own). */
  network?: EventTarget;
}

/** 0.5 s, 1 s, 2 s... up to 15 s, with a little jitter so consoles do not reconnect in step. */
export const defaultBackoff = (attempt: number) =>
  Math.min(15_000, 500 * 2 ** (attempt - 1)) * (0.8 + Math.random() * 0.4);

/** Waits `ms`, or less: until `signal` aborts or the browser says it is online again. */
const sleep = (ms: number, signal: AbortSignal, network?: EventTarget) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      network?.removeEventListener('online', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
    network?.addEventListener('online', done);
  });

/** Runs until `signal` aborts. */
export async function runChangeStream(o: StreamOptions): Promise<void> {
  const doFetch = o.fetch ?? ((...a: Parameters<typeof fetch>) => globalThis.fetch(...a));
  const backoff = o.backoff ?? defaultBackoff;
  const silenceMs = o.silenceMs ?? 45_000;
  const network = o.network ?? (typeof window === 'undefined' ? undefined : window);
  let lastId: string | null = null;
  let attempt = 0;
  let dropped = false;
  o.onState('connecting');
  while (!o.signal.aborted) {
    const connection = new AbortController();
    const stop = () => connection.abort();
    o.signal.addEventListener('abort', stop);
    // The browser knows it lost the network before a silent connection times out.
    network?.addEventListener('offline', stop);
    let silence: ReturnType<typeof setTimeout> | undefined;
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(stop, silenceMs);
    };
    let status = 0;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      const token = o.token();
      if (token) headers.authorization = `Bearer ${token}`;
      if (lastId) headers['last-event-id'] = lastId;
      heard();
      const res = await doFetch(o.url, { headers, signal: connection.signal, cache: 'no-store' });
      status = res.status;
      if (res.ok && res.body) {
        o.onState('live');
        if (dropped) o.onReconnected?.(lastId !== null);
        attempt = 0;
        const parser = createSseParser();
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          heard();
          for (const ev of parser.push(r.value)) {
            if (ev.id) lastId = ev.id;
            if (ev.event !== 'change') continue;
            const entry = readEntry(ev.data);
            if (entry) o.onEntry(entry);
          }
          // An `id:` alone (the service's position when the stream opens) is a resume point too.
          if (parser.lastEventId) lastId = parser.lastEventId;
        }
      } else {
        await res.body?.cancel();
      }
    } catch {
      // Dropped, refused or aborted: decided below.
    } finally {
      clearTimeout(silence);
      o.signal.removeEventListener('abort', stop);
      network?.removeEventListener('offline', stop);
    }
    if (o.signal.aborted) return;
    if (status === 404) {
      // Not an instance with the change log: say so, and look again now and then.
      o.onState('unavailable');
      await sleep(60_000, o.signal, network);
      continue;
    }
    dropped = true;
    if (status === 401) await o.onUnauthorized?.();
    o.onState('reconnecting');
    attempt += 1;
    await sleep(backoff(attempt), o.signal, network);
  }
}
