import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCustomer, listCustomers, putCustomer } from '../../contract/referentials.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';

/** API answers of 1 KiB or more are compressed by Accept-Encoding; small ones are not. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < 30; i++) {
    const res = await t.api(putCustomer, {
      params: { customerCode: `C${String(i).padStart(3, '0')}` },
      body: {
        name: `Customer ${i}`,
        addressDetails: { address: `${i} main street`, city: 'Lyon', country: 'FR' },
      },
    });
    expect(res.statusCode).toBe(201);
  }
});
afterAll(() => t.close());

const acceptEncoding = (encoding?: string): Record<string, string> =>
  encoding ? { 'accept-encoding': encoding } : {};
const list = (encoding?: string) => t.api(listCustomers, { headers: acceptEncoding(encoding) });

describe('compression of API answers', () => {
  it('sends a list page in brotli or gzip as asked, the same JSON once decoded', async () => {
    const plain = await list();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await list('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gzip = await list('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });

  it('leaves answers under 1 KiB and identity requests as they are', async () => {
    const one = await t.api(getCustomer, { params: { customerCode: 'C001' }, headers: acceptEncoding('br') });
    expect(one.statusCode).toBe(200);
    expect(one.rawPayload.length).toBeLessThan(1024);
    expect(one.headers['content-encoding']).toBeUndefined();
    expect((await list('identity')).headers['content-encoding']).toBeUndefined();
  });
});
