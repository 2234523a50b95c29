/**
 * An integrator's view of the authorization server (issue 25, 3), with openid-client (an
 * OpenID-certified client): discovery at every advertised address, client_credentials by
 * each advertised client authentication method, scope narrowing, revocation of access and
 * refresh tokens, the console's authorization code flow with PKCE; and the metadata lists
 * nothing that does not work. openid-client's requests are routed to the service
 * in-process (its `customFetch`).
 */
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMe } from '../../../contract/console.ts';
import { listCustomers } from '../../../contract/referentials.ts';
import { urlOf } from '../../testing/api.ts';
import { CONSOLE_REDIRECT, FORM, form, Jar, pathOf } from '../../testing/consoleSignIn.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { CONSOLE_CLIENT_ID } from './consoleClient.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser('integrator.user', 'pw-integrator', 'NORTH', ['planner']);
});
afterAll(() => t.close());

const ISSUER = new URL('http://localhost/oauth');

/** fetch, answered by the service in-process. */
const inProcess: oidc.CustomFetch = async (url, options) => {
  const u = new URL(url);
  const res = await t.app.inject({
    method: options.method as 'GET',
    url: u.pathname + u.search,
    headers: options.headers,
    payload: options.body === undefined || options.body === null ? undefined : String(options.body),
  });
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : String(v));
  return new Response(
    res.statusCode === 204 || res.statusCode === 304 ? null : new Uint8Array(res.rawPayload),
    {
      status: res.statusCode,
      headers,
    },
  );
};

async function discover(
  clientId: string,
  auth: oidc.ClientAuth,
  algorithm: 'oidc' | 'oauth2' = 'oauth2',
): Promise<oidc.Configuration> {
  const config = await oidc.discovery(ISSUER, clientId, undefined, auth, {
    algorithm,
    execute: [oidc.allowInsecureRequests],
    [oidc.customFetch]: inProcess,
  });
  config[oidc.customFetch] = inProcess;
  return config;
}

/** The OAuth error code of a refusal (in the body, or in a WWW-Authenticate challenge). */
function errorOf(e: unknown): string | undefined {
  const err = e as { error?: string; cause?: { parameters?: { error?: string } }[] };
  return err.error ?? err.cause?.[0]?.parameters?.error;
}

/** A GET with a token openid-client obtained (not a test client's). */
const callApi = (token: string, url = urlOf(listCustomers)) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

describe('discovery', () => {
  it('RFC 8414 and OpenID metadata, at the root and under the issuer, are one document', async () => {
    const bodies = [];
    for (const path of [
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-authorization-server/oauth',
      '/.well-known/openid-configuration',
      '/oauth/.well-known/openid-configuration',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(/^application\/json/);
      bodies.push(res.json());
    }
    for (const b of bodies) expect(b).toEqual(bodies[3]);
    expect(bodies[0].issuer).toBe(ISSUER.href.replace(/\/$/, ''));
    expect(bodies[0].token_endpoint).toBe('http://localhost/oauth/token');
  });

  it('advertises only what works: no implicit, no id_token, no DPoP, no JWT client authentication', async () => {
    const meta = (
      await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })
    ).json();
    expect(meta.grant_types_supported.sort()).toEqual([
      'authorization_code',
      'client_credentials',
      'refresh_token',
    ]);
    expect(meta.response_types_supported).toEqual(['code']);
    expect(meta.token_endpoint_auth_methods_supported.sort()).toEqual([
      'client_secret_basic',
      'client_secret_post',
      'none',
    ]);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
    expect(meta.dpop_signing_alg_values_supported).toBeUndefined();
    expect(meta.pushed_authorization_request_endpoint).toBeUndefined();
    expect(meta.userinfo_endpoint).toBeUndefined();
    expect(meta.revocation_endpoint).toBe('http://localhost/oauth/revoke');
  });

  it('openid-client discovers by either algorithm', async () => {
    for (const algorithm of ['oauth2', 'oidc'] as const) {
      const config = await discover('root', oidc.ClientSecretBasic(t.secrets.root), algorithm);
      expect(config.serverMetadata().issuer).toBe('http://localhost/oauth');
    }
  });
});

describe('client_credentials, by each advertised method', () => {
  const methods = {
    client_secret_basic: () => oidc.ClientSecretBasic(t.secrets.root),
    client_secret_post: () => oidc.ClientSecretPost(t.secrets.root),
  };
  for (const [name, auth] of Object.entries(methods))
    it(`${name}: a token that calls the API; a wrong secret is invalid_client`, async () => {
      const config = await discover('root', auth());
      const token = await oidc.clientCredentialsGrant(config);
      expect(token.token_type.toLowerCase()).toBe('bearer');
      expect((await callApi(token.access_token)).statusCode).toBe(200);
      const wrong = await discover(
        'root',
        name === 'client_secret_basic' ? oidc.ClientSecretBasic('wrong') : oidc.ClientSecretPost('wrong'),
      );
      expect(errorOf(await oidc.clientCredentialsGrant(wrong).catch((e) => e))).toBe('invalid_client');
    });

  it('DPoP is not offered: a proof is ignored, the token is a plain bearer token, not bound', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const proof = await new SignJWT({ htm: 'POST', htu: 'http://localhost/oauth/token', jti: 'p1' })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await exportJWK(publicKey) })
      .setIssuedAt()
      .sign(privateKey);
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`root:${t.secrets.root}`).toString('base64')}`,
        dpop: proof,
      },
      payload: 'grant_type=client_credentials',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().token_type).toBe('Bearer');
    expect(decodeJwt(res.json().access_token).cnf).toBeUndefined();
  });

  it('client_secret_jwt is not offered: refused', async () => {
    const config = await discover('root', oidc.ClientSecretJwt(t.secrets.root));
    expect(errorOf(await oidc.clientCredentialsGrant(config).catch((e) => e))).toBe('invalid_client');
  });

  it('scope narrowing: the token has exactly the scopes asked; an unheld or unknown one is invalid_scope', async () => {
    const config = await discover('readonly', oidc.ClientSecretBasic(t.secrets.readonly));
    const token = await oidc.clientCredentialsGrant(config, { scope: 'referentials:read' });
    expect(token.scope).toBe('referentials:read');
    const me = (await callApi(token.access_token, getMe.path)).json();
    expect(me.scopes).toEqual(['referentials:read']);
    await expect(oidc.clientCredentialsGrant(config, { scope: 'referentials:write' })).rejects.toMatchObject({
      error: 'invalid_scope',
    });
    await expect(oidc.clientCredentialsGrant(config, { scope: 'everything:write' })).rejects.toMatchObject({
      error: 'invalid_scope',
    });
  });
});

describe('revocation (RFC 7009)', () => {
  it("an application's access token is refused from the next request", async () => {
    const config = await discover('north', oidc.ClientSecretBasic(t.secrets.north));
    const { access_token } = await oidc.clientCredentialsGrant(config);
    const other = (await oidc.clientCredentialsGrant(config)).access_token;
    expect((await callApi(access_token)).statusCode).toBe(200);
    await oidc.tokenRevocation(config, access_token, { token_type_hint: 'access_token' });
    const refused = await callApi(access_token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors[0].code).toBe('unauthorized.badcredentials');
    expect(refused.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    // Only that token: another of the same application still works.
    expect((await callApi(other)).statusCode).toBe(200);
    // Revoking again, or revoking garbage, is not an error (RFC 7009 2.2), and writes
    // nothing: the cached callers of every process are not dropped for it.
    const stats = t.app.fieldwork.auth?.callers.stats;
    const invalidations = stats?.invalidations;
    await oidc.tokenRevocation(config, access_token);
    await oidc.tokenRevocation(config, 'not-a-token');
    expect(stats?.invalidations).toBe(invalidations);
  });

  it("another client's token is not revoked: invalid_request for a confidential client", async () => {
    const south = await discover('south', oidc.ClientSecretBasic(t.secrets.south));
    const north = await discover('north', oidc.ClientSecretBasic(t.secrets.north));
    const { access_token } = await oidc.clientCredentialsGrant(north);
    await expect(oidc.tokenRevocation(south, access_token)).rejects.toMatchObject({
      error: 'invalid_request',
    });
    expect((await callApi(access_token)).statusCode).toBe(200);
  });
});

describe("the console's flow: authorization code + PKCE, refresh, revocation", () => {
  it('signs in, refreshes, and revokes both tokens', async () => {
    const config = await discover(CONSOLE_CLIENT_ID, oidc.None());
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: CONSOLE_REDIRECT,
      scope: 'referentials:read webhooks:write offline_access',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    // The browser: the authorization request, the sign-in form, back to the console.
    const jar = new Jar();
    const auth = jar.take(await t.app.inject({ method: 'GET', url: url.pathname + url.search }));
    expect(auth.statusCode).toBe(303);
    const action = pathOf(auth.headers.location as string);
    const post = jar.take(
      await t.app.inject({
        method: 'POST',
        url: action,
        headers: { ...FORM, cookie: jar.header() },
        payload: form({ login: 'integrator.user', password: 'pw-integrator' }),
      }),
    );
    const resume = await t.app.inject({
      method: 'GET',
      url: pathOf(post.headers.location as string),
      headers: { cookie: jar.header() },
    });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(resume.headers.location as string), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    // A planner does not hold webhooks:write: narrowed, and the answer says so.
    expect(tokens.scope).toBe('referentials:read');
    expect(tokens.refresh_token).toBeTruthy();
    expect((await callApi(tokens.access_token)).statusCode).toBe(200);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
    expect((await callApi(refreshed.access_token)).statusCode).toBe(200);
    await oidc.tokenRevocation(config, refreshed.access_token);
    expect((await callApi(refreshed.access_token)).statusCode).toBe(401);
    await oidc.tokenRevocation(config, refreshed.refresh_token as string);
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('the implicit flow and id_token responses are refused', async () => {
    for (const responseType of ['token', 'id_token', 'code id_token']) {
      const q = new URLSearchParams({
        client_id: CONSOLE_CLIENT_ID,
        response_type: responseType,
        redirect_uri: CONSOLE_REDIRECT,
        scope: 'openid',
        state: 's',
        nonce: 'n',
      });
      const res = await t.app.inject({ method: 'GET', url: `/oauth/auth?${q}` });
      const back = res.headers.location ? new URL(res.headers.location as string) : undefined;
      const error =
        back?.searchParams.get('error') ??
        new URLSearchParams(back?.hash.slice(1)).get('error') ??
        res.statusCode;
      expect(['unsupported_response_type', 'invalid_request', 400], responseType).toContain(error);
      expect(back?.searchParams.get('code') ?? null).toBeNull();
    }
    const implicit = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: FORM,
      payload: form({ grant_type: 'implicit', client_id: CONSOLE_CLIENT_ID }),
    });
    expect(implicit.statusCode).toBe(400);
    expect(implicit.json().error).toBe('unsupported_grant_type');
  });
});
