/**
 * The development addresses of the console (vite's dev server, port 5173) are accepted
 * only when the service runs for development (`npm run dev` sets FIELDWORK_DEV_CONSOLE=1);
 * a production start sends a sign-in back to the instance's own public URL alone.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleScope } from '../../../console/auth/signIn.ts';
import { configFromEnv } from '../../config.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { CONSOLE_CLIENT_ID, CONSOLE_SCOPES, consoleClient, DEV_ORIGINS } from './consoleClient.ts';

let production: TestApp;
let development: TestApp;
beforeAll(async () => {
  production = await createTestApp();
  development = await createTestApp({ devConsole: true });
});
afterAll(async () => {
  await production.close();
  await development.close();
});

function authorize(t: TestApp, redirect: string) {
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const q = new URLSearchParams({
    client_id: CONSOLE_CLIENT_ID,
    response_type: 'code',
    redirect_uri: redirect,
    scope: 'referentials:read',
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return t.app.inject({ method: 'GET', url: `/oauth/auth?${q}` });
}

describe('the console client', () => {
  it("asks for the scopes the server's metadata advertises: every API scope and a refresh token, no openid", async () => {
    const metadata = (await production.app.inject({ url: '/oauth/.well-known/openid-configuration' })).json();
    const asked = consoleScope(metadata).split(' ');
    expect([...asked].sort()).toEqual([...CONSOLE_SCOPES].sort());
    expect(asked).not.toContain('openid');
  });

  it('a production start registers its own public URL alone', () => {
    expect(configFromEnv({}).devConsole).toBe(false);
    expect(configFromEnv({ FIELDWORK_DEV_CONSOLE: '1' }).devConsole).toBe(true);
    const client = consoleClient('https://fieldwork.example.com');
    expect(client.redirect_uris).toEqual(['https://fieldwork.example.com/auth/callback']);
    expect(client.post_logout_redirect_uris).toEqual(['https://fieldwork.example.com/auth/signed-out']);
  });

  for (const origin of DEV_ORIGINS)
    it(`refuses ${origin} in production, takes it for development`, async () => {
      const refused = await authorize(production, `${origin}/auth/callback`);
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('redirect_uri');
      expect((await authorize(development, `${origin}/auth/callback`)).statusCode).toBe(303);
      // The instance's own URL works in both.
      expect((await authorize(production, 'http://localhost/auth/callback')).statusCode).toBe(303);
    });

  it('a browser of a development origin cannot call the token endpoint of a production start', async () => {
    const preflight = (t: TestApp) =>
      t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: {
          origin: DEV_ORIGINS[0],
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: 'x',
          client_id: CONSOLE_CLIENT_ID,
        }).toString(),
      });
    const prod = await preflight(production);
    expect(prod.headers['access-control-allow-origin']).toBeUndefined();
    expect(prod.statusCode).toBe(400);
    expect(prod.json().error).toBe('invalid_request');
    const dev = await preflight(development);
    expect(dev.headers['access-control-allow-origin']).toBe(DEV_ORIGINS[0]);
  });
});
