import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { captureLog } from '../../testing/logCapture.ts';
import { DEFAULT_TOKEN_LIMITS, parseTokenLimits } from './tokenLimits.ts';

const OIDC_MODULE = fileURLToPath(new URL('./oidc.ts', import.meta.url));

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function tokenRequest(t: TestApp, auth: { id: string; secret: string }, address = '203.0.113.1') {
  return t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic(auth.id, auth.secret),
      // The test service trusts its loopback peer's X-Forwarded-For (FIELDWORK_TRUST_PROXY).
      'x-forwarded-for': address,
    },
    payload: 'grant_type=client_credentials',
  });
}

describe.each([
  ['memory', undefined],
  ['redis', REDIS_URL],
])('failed client authentications are limited (%s store)', (_kind, redisUrl) => {
  let t: TestApp;
  let clock = Date.UTC(2026, 0, 1, 10, 0, 15);
  beforeAll(async () => {
    t = await createTestApp(
      {
        redisUrl,
        instanceId: `test-${randomBytes(6).toString('hex')}`,
        tokenLimits: { perAddress: { failures: 5, windowSeconds: 60 } },
      },
      { logger: false, now: () => clock },
    );
  });
  afterAll(() => t.close());
  const wrong = (id: string) => ({ id, secret: 'not-the-secret' });

  it('no lockout per client id: 12 wrong secrets from 12 addresses leave the real client working', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await tokenRequest(t, wrong('root'), `198.51.100.${i}`);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('invalid_client');
    }
    expect((await tokenRequest(t, { id: 'root', secret: t.secrets.root }, '198.51.100.99')).statusCode).toBe(
      200,
    );
  });

  it('per address: failures across client ids, unknown ones included, count; 429 with Retry-After', async () => {
    clock += 60_000;
    for (const id of ['south', 'ghost-1', 'ghost-2', 'ghost-3', 'northA'])
      expect((await tokenRequest(t, wrong(id), '192.0.2.7')).statusCode).toBe(401);
    const refused = await tokenRequest(t, { id: 'readonly', secret: t.secrets.readonly }, '192.0.2.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'invalid_client' });
    expect(refused.json().error_description).toMatch(/too many failed client authentications/);
    expect(refused.headers['retry-after']).toBe('45');
    // The same client from another address.
    expect(
      (await tokenRequest(t, { id: 'readonly', secret: t.secrets.readonly }, '192.0.2.8')).statusCode,
    ).toBe(200);
  });

  it('a secret in the form body (client_secret_post) counts the same as HTTP Basic', async () => {
    clock += 60_000;
    const post = (secret: string, address: string) =>
      t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
        payload: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: 'northA',
          client_secret: secret,
        }).toString(),
      });
    for (let i = 0; i < 5; i++) expect((await post('guess', '198.18.0.1')).statusCode).toBe(401);
    const refused = await post(t.secrets.northA, '198.18.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('invalid_client');
    // The same client from another address.
    expect((await post(t.secrets.northA, '198.18.0.2')).statusCode).toBe(200);
  });

  it('a burst of concurrent wrong secrets gets no more checks than the figure', async () => {
    clock += 60_000;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => tokenRequest(t, wrong(i % 2 ? 'root' : 'south'), '192.0.2.99')),
    );
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(5);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(7);
  });

  it('successful authentications do not count', async () => {
    clock += 60_000;
    for (let i = 0; i < 8; i++)
      expect((await tokenRequest(t, { id: 'south', secret: t.secrets.south }, '192.0.2.50')).statusCode).toBe(
        200,
      );
  });
});

describe('timing does not reveal which client ids exist', () => {
  let t: TestApp;
  beforeAll(async () => {
    const many = { failures: 1_000_000, windowSeconds: 60 };
    t = await createTestApp({ tokenLimits: { perAddress: many } });
  });
  afterAll(() => t.close());

  async function timed(id: string) {
    const started = performance.now();
    const res = await tokenRequest(t, { id, secret: 'not-the-secret' });
    expect(res.statusCode).toBe(401);
    return performance.now() - started;
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

  it('an unknown client id answers in about the time of a known one with a wrong secret', async () => {
    await timed('root');
    await timed('ghost');
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 9; i++) {
      known.push(await timed('root'));
      unknown.push(await timed(`ghost-${i}`));
    }
    // Without the dummy hash the unknown id answers in a small fraction of the time.
    const ratio = median(unknown) / median(known);
    expect(ratio, `known ${median(known)} ms, unknown ${median(unknown)} ms`).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});

describe('client credentials in the query string', () => {
  let t: TestApp;
  const log = captureLog();
  beforeAll(async () => {
    t = await createTestApp({ logLevel: 'info' }, { logger: log.logger });
  });
  afterAll(() => t.close());

  it('are refused with 400 invalid_request and never logged', async () => {
    const secret = `leak-${randomBytes(12).toString('hex')}`;
    const post = await t.app.inject({
      method: 'POST',
      url: `/oauth/token?client_id=root&client_secret=${secret}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    expect(post.statusCode).toBe(400);
    expect(post.json()).toMatchObject({ error: 'invalid_request' });
    const get = await t.app.inject({
      method: 'GET',
      url: `/oauth/auth?client_secret=${secret}&client_id=root`,
    });
    expect(get.statusCode).toBe(400);
    expect(get.json().error).toBe('invalid_request');
    // The requests are on the log (redacted), the secret is not.
    expect(
      log.lines().some((l) => String((l.req as { url?: string })?.url).includes('client_secret=[redacted]')),
    ).toBe(true);
    expect(log.text()).not.toContain(secret);
  });
});

describe('oidc-provider warnings', () => {
  it('the "Unsupported runtime" line of Node 20 is not printed when oidc-provider loads', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `await import(${JSON.stringify(OIDC_MODULE)}); console.warn('other warnings pass');`,
      ],
      { encoding: 'utf8' },
    );
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('other warnings pass');
    expect(run.stderr).not.toContain('Unsupported runtime');
  });
});

describe('FIELDWORK_TOKEN_LIMITS', () => {
  it('keeps the defaults for missing keys', () => {
    expect(parseTokenLimits(undefined)).toEqual(DEFAULT_TOKEN_LIMITS);
    expect(parseTokenLimits('{"perAddress":{"failures":100}}')).toEqual({
      perAddress: { failures: 100, windowSeconds: DEFAULT_TOKEN_LIMITS.perAddress.windowSeconds },
    });
  });

  it.each([
    '{nope',
    '[]',
    '{"perAddress":{"failures":0}}',
    '{"perUser":{}}',
    '{"perAddress":{"tries":3}}',
    '{"perClient":{}}',
  ])('refuses %s with an error naming the variable', (text) => {
    expect(() => parseTokenLimits(text)).toThrow(/^FIELDWORK_TOKEN_LIMITS: /);
  });
});
