/**
 * A callback receiver for tests: a real HTTP server on loopback that records every request
 * and answers as the test tells it (status, delay).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the payload freely
  json: any;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface Answer {
  status?: number;
  /** Milliseconds before answering. */
  delayMs?: number;
}
export type Responder = (request: Received, index: number) => Answer | undefined;

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  respond(responder: Responder): void;
  /** Resolves with the requests matching `filter` once there are at least `count`. */
  waitFor(count: number, filter?: (r: Received) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(responder: Responder = () => undefined): Promise<Receiver> {
  const received: Received[] = [];
  let respond = responder;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const entry: Received = { url: req.url ?? '', headers: req.headers, body, json, at: Date.now() };
      received.push(entry);
      const answer = respond(entry, received.length - 1) ?? {};
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain' });
        res.end('ok');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    respond(next) {
      respond = next;
    },
    async waitFor(count, filter = () => true, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const matching = received.filter(filter);
        if (matching.length >= count) return matching;
        if (Date.now() > deadline)
          throw new Error(
            `receiver: ${matching.length} of ${count} expected callbacks after ${timeoutMs} ms`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Rate limits out of the way of tests that make many calls. */
export { NO_RATE_LIMITS } from '../../testing/harness.ts';
