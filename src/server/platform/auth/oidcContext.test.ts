import oidcContext from 'oidc-provider/lib/helpers/als.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMe } from '../../../contract/console.ts';
import { pathOf } from '../../testing/api.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';

/** oidc-provider's context store is on only while one of its requests is in flight (auth/index.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const enabled = () => (oidcContext as unknown as { enabled: boolean }).enabled;

/** A client_credentials token of a test application, asked for without the harness's cache. */
async function freshToken(client: 'root' | 'north') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client}:${t.secrets[client]}`).toString('base64')}`,
    },
    payload: 'grant_type=client_credentials',
  });
  expect(res.statusCode).toBe(200);
  return res.json().access_token as string;
}

describe("oidc-provider's request context", () => {
  it('serves concurrent token requests, then is off until the next one', async () => {
    const tokens = await Promise.all(
      Array.from({ length: 6 }, (_, i) => freshToken(i % 2 ? 'root' : 'north')),
    );
    expect(new Set(tokens).size).toBe(6);
    expect(enabled()).toBe(false);
    for (const token of tokens) {
      const me = await t.app.inject({
        method: getMe.method,
        url: pathOf(getMe),
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.statusCode).toBe(200);
    }
    expect(enabled()).toBe(false);
    expect(await freshToken('north')).toMatch(/^ey/);
    expect(enabled()).toBe(false);
  });
});
