import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCustomer, putCustomer } from '../../contract/referentials.ts';
import { MAX_HEADER_SIZE } from '../app.ts';
import { pathOf } from '../testing/api.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { captureLog } from '../testing/logCapture.ts';

/**
 * What Node's HTTP parser answers before any route, over a real socket (inject bypasses
 * the parser): the spec's error body, and a 10,000-character code accepted in the path.
 */
let t: TestApp;
let port: number;
const log = captureLog();
beforeAll(async () => {
  t = await createTestApp({ logLevel: 'info' }, { logger: log.logger });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

/** Sends raw bytes; resolves with everything the server sent until it closed. */
function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => {
      received += d.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, body = ''] = received.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body });
    });
    socket.write(request);
  });
}

function expectErrorBody(
  res: { status: number; headers: string; body: string },
  status: number,
  code: string,
) {
  expect(res.status).toBe(status);
  expect(res.headers).toMatch(/content-type: application\/json; charset=utf-8/i);
  const body = JSON.parse(res.body);
  expect(body.errors).toEqual([{ code, message: expect.any(String) }]);
  expect(body.errorReference).toMatch(/^[0-9a-f-]{36}$/);
  // The reference is on the log line of the refusal.
  expect(log.lines().some((l) => l.errorReference === body.errorReference)).toBe(true);
}

describe('requests refused by the HTTP parser', () => {
  it('431 request.headers.toolarge for a request line and headers over the limit', async () => {
    const path = pathOf(getCustomer, { customerCode: 'A'.repeat(MAX_HEADER_SIZE) });
    expectErrorBody(await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`), 431, 'request.headers.toolarge');
  });

  it('400 request.malformed for a request the parser cannot read', async () => {
    expectErrorBody(
      await raw('GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n'),
      400,
      'request.malformed',
    );
    expectErrorBody(await raw('NOT HTTP AT ALL\r\n\r\n'), 400, 'request.malformed');
  });
});

describe('codes of 10,000 characters in the path (spec: Referentials, codes 1..10000)', () => {
  /** The customer's URL on the listening service, for fetch (over the real parser). */
  const urlOf = (customerCode: string) => `http://127.0.0.1:${port}${pathOf(getCustomer, { customerCode })}`;
  const everyByte = (s: string) =>
    [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

  it('ASCII, every character percent-encoded (30,000 characters)', async () => {
    const code = 'k'.repeat(10_000);
    const put = await t.api(putCustomer, {
      params: { customerCode: everyByte(code) },
      body: { name: 'Long', addressDetails: { city: 'Lyon' } },
    });
    expect(put.statusCode).toBe(201);
    const res = await fetch(urlOf(everyByte(code)), {
      headers: { authorization: `Bearer ${await t.token()}` },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).customerCode).toBe(code.toUpperCase());
  });

  // Codes are ASCII (contract/common.ts): the parser lets the longest non-ASCII spelling
  // through, and the code rule refuses it with the error body, not the parser's answer.
  it.each([
    ['a two-byte letter, percent-encoded (60,000 characters)', 'É'],
    ['a four-byte letter, percent-encoded (120,000 characters)', '𠀀'],
  ])('%s: 400 customercode.invalid', async (_label, letter) => {
    const res = await fetch(urlOf(everyByte(letter.repeat(10_000))), {
      headers: { authorization: `Bearer ${await t.token()}` },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { code: string }[]; errorReference: string };
    expect(body.errors.map((e) => e.code)).toEqual(['referentials.customer.customercode.invalid']);
    expect(body.errorReference).toBeTruthy();
  });
});
