/**
 * Token scopes (RFC 6749 3.3, issue 24, 2): client_credentials gives exactly what was asked
 * when the application holds it all, every scope it holds when nothing was asked, and
 * refuses an unheld or unknown scope; the API checks the token's scopes, intersected with
 * what the application holds at the time of each request.
 */

import { importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../../contract/domains.ts';
import { getCustomer, putCustomer } from '../../../contract/referentials.ts';
import { pathOf } from '../../testing/api.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { awaitCallerListeners } from './callerCache.ts';
import { API_RESOURCE, signingKey } from './provider.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// The tokens are asked for here with their own scopes, not the harness's: sent with inject().
const CUSTOMER = { customerCode: 'SCOPED' };
const BODY = JSON.stringify({ name: 'Scoped', addressDetails: { city: 'Lyon' } });

function tokenRequest(client: 'root' | 'readonly', scope?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client}:${t.secrets[client]}`).toString('base64')}`,
    },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      ...(scope === undefined ? {} : { scope }),
    }).toString(),
  });
}

const put = (token: string) =>
  t.app.inject({
    method: putCustomer.method,
    url: pathOf(putCustomer, CUSTOMER),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: BODY,
  });
const get = (token: string) =>
  t.app.inject({
    method: getCustomer.method,
    url: pathOf(getCustomer, CUSTOMER),
    headers: { authorization: `Bearer ${token}` },
  });

describe('client_credentials scope', () => {
  it('without scope: every scope the application holds, said in the answer', async () => {
    const res = await tokenRequest('readonly');
    expect(res.statusCode).toBe(200);
    expect(res.json().scope.split(' ').sort()).toEqual(ALL_SCOPES.filter((s) => s.endsWith(':read')).sort());
  });

  it('with scope: exactly those; a write outside them is 403 insufficient_scope', async () => {
    const res = await tokenRequest('root', 'referentials:read');
    expect(res.statusCode).toBe(200);
    expect(res.json().scope).toBe('referentials:read');
    const token = res.json().access_token as string;
    const refused = await put(token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].code).toBe('access.forbiden');
    expect(refused.headers['www-authenticate']).toMatch(
      /error="insufficient_scope", scope="referentials:write"/,
    );
    expect([200, 404]).toContain((await get(token)).statusCode);
  });

  it('a scope the application does not hold: 400 invalid_scope, no token', async () => {
    const res = await tokenRequest('readonly', 'referentials:read referentials:write');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_scope');
    expect(res.json().access_token).toBeUndefined();
  });

  it('an unknown scope: 400 invalid_scope', async () => {
    for (const scope of ['referentials:read sideways:write', 'openid', 'offline_access']) {
      const res = await tokenRequest('root', scope);
      expect(res.statusCode, scope).toBe(400);
      expect(res.json().error, scope).toBe('invalid_scope');
    }
  });

  it('a narrowing of the application applies to its tokens on their next request', async () => {
    // As the command line does: every process has dropped its cached callers.
    const setScopes = async (scopes: string[]) => {
      await t.db.updateTable('applications').set({ scopes }).where('client_id', '=', 'root').execute();
      await awaitCallerListeners(t.db);
    };
    const token = (await tokenRequest('root')).json().access_token as string;
    expect((await put(token)).statusCode).toBe(201);
    await setScopes(ALL_SCOPES.filter((s) => s !== 'referentials:write'));
    try {
      const refused = await put(token);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().errors[0].code).toBe('access.forbiden');
      expect(refused.headers['www-authenticate']).toMatch(/error="insufficient_scope"/);
      // Given back: the token's own grant covers it again.
      await setScopes([...ALL_SCOPES]);
      expect((await put(token)).statusCode).toBe(204);
    } finally {
      await setScopes([...ALL_SCOPES]);
    }
  });

  it('a token issued before tokens named their scopes keeps what its application holds', async () => {
    const app = await t.db
      .selectFrom('applications')
      .select(['id', 'token_version'])
      .where('client_id', '=', 'readonly')
      .executeTakeFirstOrThrow();
    const jwk = await signingKey(t.db);
    const token = await new SignJWT({
      client_id: 'readonly',
      fw_app: String(app.id),
      fw_ver: app.token_version,
    })
      .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'at+jwt' })
      .setIssuer('http://localhost/oauth')
      .setAudience(API_RESOURCE)
      .setJti('before-scopes')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(await importJWK(jwk, 'ES256'));
    expect([200, 404]).toContain((await get(token)).statusCode);
    expect((await put(token)).statusCode).toBe(403);
  });
});
