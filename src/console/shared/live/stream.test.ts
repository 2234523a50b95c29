import { describe, expect, it } from 'vitest';
import type { ChangeEntry } from './entry.ts';
import { type LiveState, runChangeStream } from './stream.ts';

const entry = (id: string, code = 'C1'): ChangeEntry => ({
  id,
  kind: 'customer',
  code,
  uuid: null,
  officeCode: 'HQ',
  action: 'updated',
  actor: { type: 'webUser', identifier: 'alice' },
  at: '2026-11-28T12:00:00Z',
  fields: [{ name: 'name', before: 'A', after: 'B' }],
});
const frame = (e: ChangeEntry) => `id: ${e.id}\nevent: change\ndata: ${JSON.stringify(e)}\n\n`;

/** A body that sends these chunks, then ends (a drop) or stays open; the fetch's abort errors it (as a browser's does). */
function body(chunks: string[], stayOpen = false, signal?: AbortSignal | null) {
  return new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
      if (!stayOpen) c.close();
      else signal?.addEventListener('abort', () => c.error(new DOMException('aborted', 'AbortError')));
    },
  });
}

function until(check: () => boolean) {
  return new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      if (check()) resolve();
      else if (Date.now() - started > 3000) reject(new Error('timed out'));
      else setTimeout(tick, 5);
    };
    tick();
  });
}

describe('change stream', () => {
  it('delivers entries, resumes after a drop with Last-Event-ID and the token, and says its state', async () => {
    const sent: Headers[] = [];
    const answers = [
      (_s?: AbortSignal | null) =>
        new Response(body([': hi\n\n', frame(entry('41')), frame(entry('42')).slice(0, 20)])),
      (_s?: AbortSignal | null) => new Response(null, { status: 503 }),
      (s?: AbortSignal | null) => new Response(body([frame(entry('43'))], true, s)),
    ];
    const states: LiveState[] = [];
    const got: string[] = [];
    const reconnected: boolean[] = [];
    const stop = new AbortController();
    const run = runChangeStream({
      url: '/stream',
      token: () => 'tok',
      onReconnected: (resumed) => reconnected.push(resumed),
      fetch: (async (_url: string, init: RequestInit) => {
        sent.push(new Headers(init.headers));
        return (answers.shift() ?? answers[0])(init.signal);
      }) as typeof fetch,
      onEntry: (e) => got.push(e.id),
      onState: (s) => states.push(s),
      backoff: () => 1,
      signal: stop.signal,
    });
    await until(() => got.length === 2);
    stop.abort();
    await run;
    expect(got).toEqual(['41', '43']);
    expect(states).toEqual(['connecting', 'live', 'reconnecting', 'reconnecting', 'live']);
    expect(sent[0].get('authorization')).toBe('Bearer tok');
    expect(sent[0].get('last-event-id')).toBeNull();
    // The half-received event 42 never counts: the resume point is the last whole one.
    expect(sent[1].get('last-event-id')).toBe('41');
    expect(sent[2].get('last-event-id')).toBe('41');
    expect(reconnected).toEqual([true]);
  });

  it('takes a silent connection as dropped, and a 401 asks the session before trying again', async () => {
    let calls = 0;
    let refreshed = 0;
    const reconnected: boolean[] = [];
    const states: LiveState[] = [];
    const stop = new AbortController();
    const run = runChangeStream({
      url: '/stream',
      token: () => null,
      fetch: (async (_url: string, init: RequestInit) => {
        calls++;
        if (calls === 1) return new Response(null, { status: 401 });
        // Open but silent.
        return new Response(body([], true, init.signal));
      }) as typeof fetch,
      onEntry: () => {},
      onState: (s) => states.push(s),
      onUnauthorized: () => {
        refreshed++;
      },
      onReconnected: (resumed) => reconnected.push(resumed),
      backoff: () => 1,
      silenceMs: 30,
      signal: stop.signal,
    });
    await until(() => calls >= 3);
    stop.abort();
    await run;
    expect(refreshed).toBe(1);
    // Nothing had come before the drop: no resume point (the console reads its pages again).
    expect(reconnected[0]).toBe(false);
    expect(states.slice(0, 4)).toEqual(['connecting', 'reconnecting', 'live', 'reconnecting']);
  });

  it('says the instance has no stream on a 404', async () => {
    const states: LiveState[] = [];
    const stop = new AbortController();
    const run = runChangeStream({
      url: '/stream',
      token: () => 't',
      fetch: (async () => new Response(null, { status: 404 })) as typeof fetch,
      onEntry: () => {},
      onState: (s) => states.push(s),
      signal: stop.signal,
    });
    await until(() => states.includes('unavailable'));
    stop.abort();
    await run;
    expect(states).toEqual(['connecting', 'unavailable']);
  });

  it('drops the connection when the browser goes offline and tries again as soon as it is back online', async () => {
    const network = new EventTarget();
    const states: LiveState[] = [];
    let calls = 0;
    let online = true;
    const stop = new AbortController();
    const run = runChangeStream({
      url: '/stream',
      token: () => 't',
      fetch: (async (_url: string, init: RequestInit) => {
        calls++;
        if (!online) throw new TypeError('Failed to fetch');
        return new Response(body([], true, init.signal));
      }) as typeof fetch,
      onEntry: () => {},
      onState: (s) => states.push(s),
      backoff: () => 60_000,
      network,
      signal: stop.signal,
    });
    await until(() => states.at(-1) === 'live');
    online = false;
    network.dispatchEvent(new Event('offline'));
    await until(() => states.at(-1) === 'reconnecting');
    // Waiting its backoff (a minute) unless the browser says it is back.
    online = true;
    network.dispatchEvent(new Event('online'));
    await until(() => states.at(-1) === 'live');
    stop.abort();
    await run;
    expect(states).toEqual(['connecting', 'live', 'reconnecting', 'live']);
    expect(calls).toBe(2);
  });
});
