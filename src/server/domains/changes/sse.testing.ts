/** Reading a server-sent events answer in tests: the events as they arrive. */
import http from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { CHANGES_STREAM_PATH, type ChangeEntry } from '../../../contract/changes.ts';

export interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

export interface OpenStream {
  status: number;
  headers: Record<string, unknown>;
  body: string;
  /** The next event matching `pred` (comments included), or a rejection after `ms`. */
  next(pred: (e: SseEvent) => boolean, ms?: number): Promise<SseEvent>;
  /** The change events received so far. */
  changes(): ChangeEntry[];
  /** Settles when the service ends the response. */
  ended: Promise<void>;
  close(): void;
}

async function connect(
  app: FastifyInstance | string,
  opts: { token?: string; headers?: Record<string, string>; query?: string },
): Promise<{ statusCode: number; headers: Record<string, unknown>; stream: Readable }> {
  const url = `${CHANGES_STREAM_PATH}${opts.query ? `?${opts.query}` : ''}`;
  const headers = { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers };
  if (typeof app === 'string')
    return new Promise((resolve, reject) =>
      http
        .get(`${app}${url}`, { headers }, (m) =>
          resolve({ statusCode: m.statusCode ?? 0, headers: m.headers, stream: m }),
        )
        .on('error', reject),
    );
  const injected = await app.inject({ method: 'GET', url, headers, payloadAsStream: true });
  return { statusCode: injected.statusCode, headers: injected.headers, stream: injected.stream() };
}

/**
 * Opens the change stream, with `headers` and `query`: on `app` (inject), or over HTTP at
 * `app` when it is a base URL (a service in another process).
 */
export async function openStream(
  app: FastifyInstance | string,
  opts: { token?: string; headers?: Record<string, string>; query?: string },
): Promise<OpenStream> {
  const res = await connect(app, opts);
  const stream = res.stream;
  const events: SseEvent[] = [];
  let buffer = '';
  let body = '';
  const waiters = new Set<() => void>();
  stream.on('data', (chunk: Buffer) => {
    body += String(chunk);
    buffer += String(chunk);
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: SseEvent = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) event.comment = line.slice(1).trim();
        else {
          const i = line.indexOf(':');
          const key = line.slice(0, i) as 'id' | 'event' | 'data';
          if (key === 'id' || key === 'event' || key === 'data') event[key] = line.slice(i + 1).trimStart();
        }
      }
      events.push(event);
      end = buffer.indexOf('\n\n');
    }
    for (const w of waiters) w();
  });
  stream.on('error', () => {});
  const ended = new Promise<void>((resolve) => stream.on('end', () => resolve()));
  let seen = 0;
  return {
    status: res.statusCode,
    headers: res.headers,
    get body() {
      return body;
    },
    next(pred, ms = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          while (seen < events.length) {
            const e = events[seen++];
            if (pred(e)) {
              waiters.delete(check);
              clearTimeout(timer);
              resolve(e);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such event within ${ms} ms; received: ${body.slice(-2000)}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    changes: () =>
      events.filter((e) => e.event === 'change').map((e) => JSON.parse(e.data ?? '') as ChangeEntry),
    ended,
    close: () => stream.destroy(),
  };
}

/** The next change event of `code`. */
export const changeOf = (code: string) => (e: SseEvent) =>
  e.event === 'change' && (JSON.parse(e.data ?? '{}') as ChangeEntry).code === code;
