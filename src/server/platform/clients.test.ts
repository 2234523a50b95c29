/**
 * Slow and odd clients (issue 25 §2), over real sockets against a listening service: real
 * bytes trickled, real methods the parser sees, real compressed bodies. Timeouts are short
 * here (FIELDWORK_HEADERS_TIMEOUT_MS 500, FIELDWORK_REQUEST_TIMEOUT_MS 1000) to keep the
 * test fast; the defaults are 10 s and 30 s.
 */
import net from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCustomer, putCustomer } from '../../contract/referentials.ts';
import { pathOf } from '../testing/api.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';

const HEADERS_TIMEOUT = 500;
const REQUEST_TIMEOUT = 1_000;
/** The customer rows' path, for the raw request lines written on the socket. */
const customer = (customerCode: string) => pathOf(getCustomer, { customerCode });
let t: TestApp;
let port: number;
let bearer: string;
beforeAll(async () => {
  t = await createTestApp({ headersTimeoutMs: HEADERS_TIMEOUT, requestTimeoutMs: REQUEST_TIMEOUT });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
  bearer = `Bearer ${await t.token()}`;
});
afterAll(() => t.close());

interface Exchange {
  status: number;
  head: string;
  body: string;
  /** Milliseconds from the first byte sent to the first byte of the answer. */
  answeredAfter: number;
  /** Milliseconds from the first byte sent to the connection closed. */
  closedAfter: number;
  /** Bytes of the request sent when the answer came. */
  sentWhenAnswered: number;
}

/**
 * Writes `first`, then `rest` one piece every `everyMs` until the server answers or closes;
 * resolves when the connection closes (or with what came after `giveUpMs`).
 */
function exchange(first: string | Buffer, rest: (string | Buffer)[] = [], everyMs = 100, giveUpMs = 5_000) {
  return new Promise<Exchange>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const started = performance.now();
    let received = Buffer.alloc(0);
    let answeredAfter = -1;
    let sent = 0;
    let sentWhenAnswered = -1;
    let timer: NodeJS.Timeout | undefined;
    const write = (chunk: string | Buffer) => {
      if (socket.destroyed || answeredAfter >= 0) return;
      socket.write(chunk);
      sent += Buffer.byteLength(chunk);
    };
    const finish = () => {
      clearInterval(timer);
      const text = received.toString('utf8');
      const [head, body = ''] = text.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
        head,
        body,
        answeredAfter,
        closedAfter: performance.now() - started,
        sentWhenAnswered,
      });
    };
    socket.on('data', (d) => {
      if (answeredAfter < 0) {
        answeredAfter = performance.now() - started;
        sentWhenAnswered = sent;
      }
      received = Buffer.concat([received, d as Buffer]);
    });
    socket.on('error', () => {});
    socket.on('close', finish);
    socket.on('connect', () => {
      write(first);
      const queue = [...rest];
      timer = setInterval(() => {
        const next = queue.shift();
        if (next === undefined) return clearInterval(timer);
        write(next);
      }, everyMs);
    });
    setTimeout(() => socket.destroy(), giveUpMs).unref();
  });
}

function expectErrorBody(res: Exchange, status: number, code: string) {
  expect(res.status, res.head + res.body).toBe(status);
  expect(res.head).toMatch(/content-type: application\/json; charset=utf-8/i);
  const body = JSON.parse(res.body);
  expect(body.errors).toEqual([{ code, message: expect.any(String) }]);
  expect(body.errorReference).toEqual(expect.any(String));
}

const putHead = (code: string, headers: Record<string, string | number>) =>
  `PUT ${pathOf(putCustomer, { customerCode: code })} HTTP/1.1\r\nHost: x\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
const bytes = (text: string) => text.split('');

describe('a client slow to send its request', () => {
  it('headers trickled past the headers timeout: 408 request.timeout with the error body, connection closed', async () => {
    const res = await exchange(`GET ${customer('X')} HTTP/1.1\r\n`, bytes('Host: x\r\nAccept: */*\r\n'), 100);
    expectErrorBody(res, 408, 'request.timeout');
    expect(res.answeredAfter).toBeGreaterThanOrEqual(HEADERS_TIMEOUT - 20);
    expect(res.answeredAfter).toBeLessThan(HEADERS_TIMEOUT + 1_000);
    expect(res.closedAfter).toBeLessThan(HEADERS_TIMEOUT + 3_000);
  });

  it('a connection that sends nothing is closed after the headers timeout', async () => {
    const res = await exchange('');
    expect(res.status).toBe(408);
    expect(res.closedAfter).toBeLessThan(HEADERS_TIMEOUT + 3_000);
  });

  it('an authenticated body trickled past the request timeout: 408 request.timeout, nothing written', async () => {
    const body = JSON.stringify({ name: 'Slow', addressDetails: { city: 'Lyon' } });
    const head = putHead('SLOW', {
      authorization: bearer,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    const res = await exchange(head, bytes(body), 200);
    expectErrorBody(res, 408, 'request.timeout');
    expect(res.answeredAfter).toBeGreaterThanOrEqual(REQUEST_TIMEOUT - 20);
    expect(res.answeredAfter).toBeLessThan(REQUEST_TIMEOUT + 1_000);
    expect(res.sentWhenAnswered).toBeLessThan(head.length + body.length);
    expect((await t.api(getCustomer, { params: { customerCode: 'SLOW' } })).statusCode).toBe(404);
  });

  it('a body sent at a normal pace within the timeout is served', async () => {
    const body = JSON.stringify({ name: 'Steady', addressDetails: { city: 'Lyon' } });
    const head = putHead('STEADY', {
      authorization: bearer,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    const res = await exchange(head, [body.slice(0, 10), body.slice(10)], 200);
    expect(res.status, res.body).toBe(201);
  });
});

describe('refused before the body is read', () => {
  const announced = (headers: Record<string, string>) =>
    putHead('NEVER', { 'content-type': 'application/json', 'content-length': 100_000, ...headers });

  it('no token: 401 unauthorized.nocredentials at once, the body unread, the connection closed', async () => {
    const res = await exchange(announced({}), bytes('{"name":"x"'), 300);
    expectErrorBody(res, 401, 'unauthorized.nocredentials');
    expect(res.head).toMatch(/^connection: close$/im);
    expect(res.answeredAfter).toBeLessThan(REQUEST_TIMEOUT);
    expect(res.closedAfter).toBeLessThan(REQUEST_TIMEOUT + 1_000);
  });

  it('a bad token: 401 unauthorized.badcredentials, same; a missing scope: 403, same', async () => {
    const bad = await exchange(announced({ authorization: 'Bearer not-a-token' }), bytes('{"na'), 300);
    expectErrorBody(bad, 401, 'unauthorized.badcredentials');
    expect(bad.head).toMatch(/^connection: close$/im);
    const readonly = `Bearer ${await t.token('readonly')}`;
    const forbidden = await exchange(announced({ authorization: readonly }), bytes('{"na'), 300);
    expectErrorBody(forbidden, 403, 'access.forbiden');
    expect(forbidden.closedAfter).toBeLessThan(REQUEST_TIMEOUT + 1_000);
  });
});

describe('methods', () => {
  it('CONNECT: 501 request.method.notimplemented with the error body (not a closed connection)', async () => {
    const res = await exchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectErrorBody(res, 501, 'request.method.notimplemented');
  });

  it('a method HTTP does not define: 501; a request line that is not HTTP: 400', async () => {
    expectErrorBody(
      // A row's path under a method HTTP does not define (the method is the point).
      await exchange(`BREW ${customer('X')} HTTP/1.1\r\nHost: x\r\n\r\n`),
      501,
      'request.method.notimplemented',
    );
    expectErrorBody(await exchange('NOT HTTP AT ALL\r\n\r\n'), 400, 'request.malformed');
  });

  it('a method the path does not take: 405 with Allow', async () => {
    // The customer row's path (GET, HEAD, PUT) under a method no row gives it.
    const res = await exchange(
      `POST ${customer('X')} HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
    expectErrorBody(res, 405, 'route.method.notallowed');
    expect(res.head).toMatch(/^allow: GET, HEAD, PUT$/im);
  });
});

describe('Content-Encoding of a request body', () => {
  const json = JSON.stringify({ name: 'Packed', addressDetails: { city: 'Lyon' } });
  const send = (code: string, encoding: string, body: Buffer) =>
    exchange(
      Buffer.concat([
        Buffer.from(
          putHead(code, {
            authorization: bearer,
            'content-type': 'application/json',
            'content-encoding': encoding,
            'content-length': body.length,
            connection: 'close',
          }),
        ),
        body,
      ]),
    );

  it('gzip, deflate and br are decoded; identity is the body itself', async () => {
    expect((await send('GZ', 'gzip', gzipSync(json))).status).toBe(201);
    expect((await send('DF', 'deflate', deflateSync(json))).status).toBe(201);
    expect((await send('BR', 'br', brotliCompressSync(json))).status).toBe(201);
    expect((await send('ID', 'identity', Buffer.from(json))).status).toBe(201);
    const read = await t.api(getCustomer, { params: { customerCode: 'BR' } });
    expect(read.json().name).toBe('Packed');
  });

  it('a bomb (64 MiB of zeros in 64 KiB of gzip): 413 request.payload.toolarge once 1 MiB is decoded', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const started = performance.now();
    const res = await send('BOMB', 'gzip', bomb);
    expectErrorBody(res, 413, 'request.payload.toolarge');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect((await t.api(getCustomer, { params: { customerCode: 'BOMB' } })).statusCode).toBe(404);
  });

  it('another coding, or several: 415 request.encoding.unsupported; bytes that do not decode: 400', async () => {
    expectErrorBody(await send('Z1', 'zstd', Buffer.from(json)), 415, 'request.encoding.unsupported');
    expectErrorBody(await send('Z2', 'gzip, br', gzipSync(json)), 415, 'request.encoding.unsupported');
    expectErrorBody(await send('Z3', 'gzip', Buffer.from(json)), 400, 'request.encoding.invalid');
  });
});
