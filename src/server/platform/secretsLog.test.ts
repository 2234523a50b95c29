/**
 * Secrets never reach the log (docs/security.md). The service runs with every log line
 * kept (level trace), then is used the way clients use it: client_credentials with the
 * secret in the body and in HTTP Basic, a wrong secret, a secret refused in the query
 * string, bearer calls, webhook subscriptions with a secret and custom headers whose
 * callbacks are delivered (and refused by the receiver, then retried), the console's
 * sign-in form, code exchange, refresh and revocation, sign-out. Then the whole log is
 * searched: no client secret, access or refresh token, authorization code, PKCE verifier,
 * webhook secret or custom header value, password, nor any Authorization header value.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMe } from '../../contract/console.ts';
import { getCustomer, listCustomers, putAsset } from '../../contract/referentials.ts';
import { createSubscription } from '../../contract/webhooks.ts';
import { NO_RATE_LIMITS, type Receiver, startReceiver } from '../domains/webhooks/testReceiver.ts';
import { pathOf as rowPath } from '../testing/api.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { captureLog } from '../testing/logCapture.ts';
import { CONSOLE_CLIENT_ID } from './auth/consoleClient.ts';

let t: TestApp;
let receiver: Receiver;
const log = captureLog();
beforeAll(async () => {
  receiver = await startReceiver((r) => ({ status: r.url.startsWith('/refuse') ? 500 : 200 }));
  t = await createTestApp(
    {
      logLevel: 'trace',
      rateLimits: NO_RATE_LIMITS,
      webhooks: { worker: true, allowPrivate: true, timeScale: 0.02, concurrency: 4 },
    },
    { logger: log.logger },
  );
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const REDIRECT = 'http://localhost/auth/callback';

/** What must not be found in the log, by what it is. */
const secrets = new Map<string, string>();
const keep = (what: string, value: string | undefined) => {
  expect(value, what).toBeTruthy();
  secrets.set(what, value as string);
};

class Jar {
  private cookies = new Map<string, string>();
  take(res: LightMyRequestResponse) {
    for (const line of ([] as string[]).concat(res.headers['set-cookie'] ?? [])) {
      const [pair] = line.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}
const pathOf = (location: string) => {
  const u = new URL(location, 'http://localhost');
  return u.pathname + u.search;
};

describe('the log', () => {
  it('holds no secret, token, password or Authorization value after a session of use', async () => {
    // client_credentials: Basic, body, a wrong secret, a secret in the query string.
    for (const client of ['root', 'north', 'south'] as const)
      keep(`${client} client secret`, t.secrets[client]);
    const viaBasic = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { ...FORM, authorization: basic('root', t.secrets.root) },
      payload: 'grant_type=client_credentials',
    });
    expect(viaBasic.statusCode).toBe(200);
    keep('access token (Basic)', viaBasic.json().access_token);
    keep('Basic header', basic('root', t.secrets.root).slice(6));
    const viaBody = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: FORM,
      payload: form({ grant_type: 'client_credentials', client_id: 'north', client_secret: t.secrets.north }),
    });
    expect(viaBody.statusCode).toBe(200);
    keep('access token (body)', viaBody.json().access_token);
    const wrong = `wrong-${randomBytes(8).toString('hex')}`;
    keep('wrong secret', wrong);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: FORM,
      payload: form({ grant_type: 'client_credentials', client_id: 'north', client_secret: wrong }),
    });
    expect(refused.statusCode).toBe(401);
    const wrongBasic = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { ...FORM, authorization: basic('south', wrong) },
      payload: 'grant_type=client_credentials',
    });
    expect(wrongBasic.statusCode).toBe(401);
    keep('wrong Basic header', basic('south', wrong).slice(6));
    const inQuery = await t.app.inject({
      method: 'POST',
      url: `/oauth/token?client_id=south&client_secret=${encodeURIComponent(t.secrets.south)}`,
      headers: FORM,
      payload: 'grant_type=client_credentials',
    });
    expect(inQuery.statusCode).toBe(400);
    expect(inQuery.json().error).toBe('invalid_request');

    // Bearer calls: accepted, refused (a forged token), and a token in the wrong place.
    const bearer = viaBasic.json().access_token as string;
    const ok = await t.app.inject({
      method: 'GET',
      url: rowPath(getCustomer, { customerCode: 'NOPE' }),
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(ok.statusCode).toBe(404);
    const forged = `${bearer.slice(0, -4)}AAAA`;
    keep('forged token', forged);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: rowPath(getCustomer, { customerCode: 'NOPE' }),
          headers: { authorization: `Bearer ${forged}` },
        })
      ).statusCode,
    ).toBe(401);
    await t.app.inject({
      method: 'GET',
      // A query parameter no row takes: the token in the wrong place.
      url: `${rowPath(listCustomers)}?access_token=${bearer}`,
    });

    // Webhooks: a secret and custom headers, callbacks delivered and refused (retried).
    const hookSecret = `whsec_${randomBytes(32).toString('base64')}`;
    const apiKey = `key-${randomBytes(12).toString('hex')}`;
    keep('webhook secret', hookSecret);
    keep('webhook secret key bytes', hookSecret.slice(6));
    keep('custom header value', apiKey);
    for (const path of ['/accept', '/refuse']) {
      const sub = await t.app.inject({
        method: 'POST',
        url: rowPath(createSubscription),
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        payload: JSON.stringify({
          eventTypes: ['asset.upsert'],
          callbackUrl: `${receiver.url}${path}`,
          secret: hookSecret,
          headers: { 'X-Api-Key': apiKey, Authorization: `Bearer ${apiKey}` },
        }),
      });
      expect(sub.statusCode, sub.body).toBe(201);
    }
    // A refused subscription echoes nothing of its secret either.
    const badSub = await t.app.inject({
      method: 'POST',
      url: rowPath(createSubscription),
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ eventTypes: ['nope'], callbackUrl: 'ftp://x', secret: hookSecret }),
    });
    expect(badSub.statusCode).toBe(400);
    const asset = await t.app.inject({
      method: 'PUT',
      url: rowPath(putAsset, { assetCode: 'LOG-A1' }),
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Pump', officeCode: 'ROOT' }),
    });
    expect(asset.statusCode, asset.body).toBeLessThan(300);
    await receiver.waitFor(1, (r) => r.url.startsWith('/accept'), 10_000);
    await receiver.waitFor(2, (r) => r.url.startsWith('/refuse'), 10_000);
    const delivered = receiver.received.find((r) => r.url.startsWith('/accept'));
    expect(delivered?.headers['x-api-key']).toBe(apiKey);
    keep('signature', String(delivered?.headers['webhook-signature']).split(',')[1]);

    // The console: sign-in form, code, token, refresh, revocation, sign-out.
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const wrongPassword = `nope-${randomBytes(8).toString('hex')}`;
    keep('password', password);
    keep('wrong password', wrongPassword);
    await t.createUser('log.user', password, 'NORTH', ['planner']);
    const jar = new Jar();
    const verifier = randomBytes(32).toString('base64url');
    keep('PKCE verifier', verifier);
    const auth = jar.take(
      await t.app.inject({
        method: 'GET',
        url: `/oauth/auth?${new URLSearchParams({
          client_id: CONSOLE_CLIENT_ID,
          response_type: 'code',
          redirect_uri: REDIRECT,
          scope: 'referentials:read offline_access',
          state: 'st4te-of-the-art',
          code_challenge: createHash('sha256').update(verifier).digest('base64url'),
          code_challenge_method: 'S256',
        })}`,
      }),
    );
    expect(auth.statusCode).toBe(303);
    const action = pathOf(String(auth.headers.location));
    jar.take(await t.app.inject({ method: 'GET', url: action, headers: { cookie: jar.header() } }));
    const bad = await t.app.inject({
      method: 'POST',
      url: action,
      headers: { ...FORM, cookie: jar.header() },
      payload: form({ login: 'log.user', password: wrongPassword }),
    });
    expect(bad.statusCode, `${action} ${bad.body}`).toBe(401);
    const post = jar.take(
      await t.app.inject({
        method: 'POST',
        url: action,
        headers: { ...FORM, cookie: jar.header() },
        payload: form({ login: 'log.user', password }),
      }),
    );
    expect(post.statusCode).toBe(303);
    const resume = jar.take(
      await t.app.inject({
        method: 'GET',
        url: pathOf(String(post.headers.location)),
        headers: { cookie: jar.header() },
      }),
    );
    expect(resume.statusCode).toBe(303);
    const callback = new URL(String(resume.headers.location));
    const code = callback.searchParams.get('code') ?? '';
    keep('authorization code', code);
    // The browser brings the code back to the console's page (served by the service).
    await t.app.inject({ method: 'GET', url: pathOf(callback.href), headers: { accept: 'text/html' } });
    const tokens = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: FORM,
      payload: form({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: CONSOLE_CLIENT_ID,
        code_verifier: verifier,
      }),
    });
    expect(tokens.statusCode, tokens.body).toBe(200);
    keep('user access token', tokens.json().access_token);
    keep('refresh token', tokens.json().refresh_token);
    for (const c of jar.header().split('; ')) {
      const [name, value] = c.split('=');
      // The interaction cookies hold the interaction's uid, which is its URL's path (logged);
      // what proves them is their signature (.sig), and the session cookie is a credential.
      if (value && (name === '_session' || name.endsWith('.sig'))) keep(`cookie ${name}`, value);
    }
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: FORM,
      payload: form({
        grant_type: 'refresh_token',
        refresh_token: tokens.json().refresh_token,
        client_id: CONSOLE_CLIENT_ID,
      }),
    });
    expect(refreshed.statusCode).toBe(200);
    keep('refreshed access token', refreshed.json().access_token);
    keep('rotated refresh token', refreshed.json().refresh_token);
    const me = await t.app.inject({
      method: 'GET',
      url: rowPath(getMe),
      headers: { authorization: `Bearer ${refreshed.json().access_token}` },
    });
    expect(me.statusCode).toBeLessThan(500);
    const revoke = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: FORM,
      payload: form({ token: refreshed.json().refresh_token, client_id: CONSOLE_CLIENT_ID }),
    });
    expect(revoke.statusCode).toBe(200);
    const signOut = await t.app.inject({
      method: 'GET',
      url: `/oauth/session/end?${new URLSearchParams({
        client_id: CONSOLE_CLIENT_ID,
      })}`,
      headers: { cookie: jar.header() },
    });
    expect(signOut.statusCode).toBeLessThan(500);

    // Everything was logged: the requests are there, with their URLs.
    const lines = log.lines();
    expect(lines.filter((l) => l.msg === 'request completed').length).toBeGreaterThan(20);
    expect(log.text()).toContain('client_secret=[redacted]');
    expect(log.text()).toContain('code=[redacted]');

    const text = log.text();
    const found = [...secrets].filter(([, value]) => value.length >= 8 && text.includes(value));
    expect(
      found.map(([what]) => what),
      'secrets found in the log',
    ).toEqual([]);
    // Whatever its value, an Authorization header is never logged.
    expect(text).not.toMatch(/"authorization"\s*:\s*"(?!\[Redacted\])/i);
    expect(text).not.toMatch(/Bearer ey/);
    expect(text).not.toMatch(/Basic [A-Za-z0-9+/]{8,}/);
    console.log(`secrets log: ${lines.length} log lines searched for ${secrets.size} secrets`);
  }, 60_000);
});
