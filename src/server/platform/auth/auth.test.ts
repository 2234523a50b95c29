import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('POST /oauth/token (client_credentials)', () => {
  it('issues a bearer token with HTTP Basic credentials', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic('root', t.secrets.root),
      },
      payload: 'grant_type=client_credentials',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(3600);
    expect(body.access_token.split('.')).toHaveLength(3);
  });

  it('issues a token with credentials in the form body, read once (no "already parsed" warning)', async () => {
    const warn = vi.spyOn(console, 'warn');
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=client_credentials&client_id=north&client_secret=${t.secrets.north}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().access_token).toBeTruthy();
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('refuses a wrong secret with invalid_client (RFC 6749 5.2)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic('root', 'nope') },
      payload: 'grant_type=client_credentials',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_client');
  });

  it('refuses an unknown client with invalid_client', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic('ghost', 'x') },
      payload: 'grant_type=client_credentials',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_client');
  });

  it('stores application secrets hashed, never in clear', async () => {
    const rows = await t.db.selectFrom('applications').select(['client_id', 'secret_hash']).execute();
    for (const row of rows) {
      expect(row.secret_hash).toMatch(/^scrypt\$/);
      expect(row.secret_hash).not.toContain(t.secrets[row.client_id as keyof typeof t.secrets]);
    }
  });
});

describe('browser origins (clientBasedCORS)', () => {
  const revoke = (origin: string, client = 'fieldwork-console') =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      payload: `client_id=${client}&token=not-a-token`,
    });

  it("lets the console's own origin call the revocation endpoint", async () => {
    const res = await revoke('http://localhost');
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost');
  });

  it('refuses another origin for the console, and any origin for an integration', async () => {
    const foreign = await revoke('https://evil.example');
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error).toBe('invalid_request');
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic('root', t.secrets.root),
        origin: 'http://localhost',
      },
      payload: 'grant_type=client_credentials',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });
});
