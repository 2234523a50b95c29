/**
 * The console's sign-in, end to end in-process: authorization request, sign-in form,
 * code, token with the PKCE verifier, API call as the user, refresh rotation, revocation.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getItem, putItem } from '../../../contract/businessOrganization.ts';
import { getMe } from '../../../contract/console.ts';
import { listSkills, putSkill } from '../../../contract/staff.ts';
import { urlOf } from '../../testing/api.ts';
import { CONSOLE_REDIRECT, FORM, form, Jar, pathOf } from '../../testing/consoleSignIn.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { CONSOLE_CLIENT_ID } from './consoleClient.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser('north.user', 'correct horse', 'NORTH', ['planner']);
  await t.createUser('root.user', 'correct horse', 'ROOT', ['admin']);
});
afterAll(() => t.close());

const REDIRECT = CONSOLE_REDIRECT;
const SCOPE = 'referentials:read referentials:write offline_access';

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

function authorizeUrl(extra: Record<string, string> = {}) {
  const q = new URLSearchParams({
    client_id: CONSOLE_CLIENT_ID,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: SCOPE,
    state: 'st4te',
    ...extra,
  });
  return `/oauth/auth?${q}`;
}

/** Follows the flow up to the sign-in form; returns the form's action. */
async function openLoginForm(jar: Jar, challenge: string, scope = SCOPE) {
  const auth = jar.take(
    await t.app.inject({
      method: 'GET',
      url: authorizeUrl({ code_challenge: challenge, code_challenge_method: 'S256', scope }),
    }),
  );
  expect(auth.statusCode).toBe(303);
  const interaction = pathOf(auth.headers.location as string);
  expect(interaction).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
  const page = jar.take(
    await t.app.inject({ method: 'GET', url: interaction, headers: { cookie: jar.header() } }),
  );
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toMatch(/text\/html/);
  expect(page.body).toContain(`action="${interaction}"`);
  return interaction;
}

/** Signs in and exchanges the code: the tokens the console would hold. */
async function signIn(login = 'north.user', password = 'correct horse', scope = SCOPE) {
  const jar = new Jar();
  const { verifier, challenge } = pkce();
  const action = await openLoginForm(jar, challenge, scope);
  const post = jar.take(
    await t.app.inject({
      method: 'POST',
      url: action,
      headers: { ...FORM, cookie: jar.header() },
      payload: form({ login, password }),
    }),
  );
  expect(post.statusCode).toBe(303);
  const resume = jar.take(
    await t.app.inject({
      method: 'GET',
      url: pathOf(post.headers.location as string),
      headers: { cookie: jar.header() },
    }),
  );
  expect(resume.statusCode, resume.body).toBe(303);
  const callback = new URL(resume.headers.location as string);
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
  expect(callback.searchParams.get('state')).toBe('st4te');
  const code = callback.searchParams.get('code') as string;
  expect(code).toBeTruthy();
  const token = await t.app.inject({
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
  expect(token.statusCode).toBe(200);
  return {
    jar,
    tokens: token.json() as {
      access_token: string;
      refresh_token: string;
      expires_in: number;
      scope: string;
    },
  };
}

const refresh = (refreshToken: string) =>
  t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: FORM,
    payload: form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: CONSOLE_CLIENT_ID }),
  });

const me = (accessToken: string) =>
  t.app.inject({ method: 'GET', url: getMe.path, headers: { authorization: `Bearer ${accessToken}` } });

describe('console sign-in (authorization code + PKCE)', () => {
  it('signs in and calls the API as the user, scoped to the user office', async () => {
    const { tokens } = await signIn();
    expect(tokens.access_token.split('.')).toHaveLength(3);
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.expires_in).toBeLessThanOrEqual(900);
    const res = await me(tokens.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      login: 'north.user',
      kind: 'user',
      officeCode: 'NORTH',
      officeName: 'North',
      roles: ['planner'],
    });
    // A planner does not hold referentials:write: the grant is narrowed, and the answer says so.
    expect(tokens.scope).toBe('referentials:read');
    expect(res.json().scopes).toEqual(['referentials:read']);
  });

  it('the catalog: a user of a non-root office reads it but cannot write it (403); a root user can', async () => {
    const scope = 'staff:read staff:write businessOrganization:read businessOrganization:write';
    // The tokens are a console user's, not a test client's: the rows' URLs, sent with inject().
    const skill = urlOf(putSkill, { params: { skillCode: 'USER-SKILL' } });
    const item = urlOf(putItem, { params: { itemCode: 'USER-ITEM' } });
    const readItem = urlOf(getItem, { params: { itemCode: 'USER-ITEM' } });
    const call = (token: string, method: string, url: string) =>
      t.app.inject({
        method: method as 'GET',
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(method === 'PUT' ? { payload: '{"name":"x"}' } : {}),
      });
    const north = (await signIn('north.user', 'correct horse', scope)).tokens.access_token;
    for (const url of [skill, item]) {
      const res = await call(north, 'PUT', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().errors.map((e: { code: string }) => e.code)).toEqual(['access.forbiden']);
    }
    expect((await call(north, 'GET', urlOf(listSkills))).json().data).toEqual([]);
    expect((await call(north, 'GET', readItem)).statusCode).toBe(404);
    const root = (await signIn('root.user', 'correct horse', scope)).tokens.access_token;
    for (const url of [skill, item]) expect((await call(root, 'PUT', url)).statusCode, url).toBe(201);
    expect((await call(north, 'GET', readItem)).statusCode).toBe(200);
  });

  it('rotates refresh tokens: the used one is refused afterwards', async () => {
    const { tokens } = await signIn();
    const first = await refresh(tokens.refresh_token);
    expect(first.statusCode).toBe(200);
    const next = first.json();
    expect(next.refresh_token).toBeTruthy();
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect((await me(next.access_token)).statusCode).toBe(200);
    const replay = await refresh(tokens.refresh_token);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('invalid_grant');
  });

  it('revokes a refresh token', async () => {
    const { tokens } = await signIn();
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: FORM,
      payload: form({
        token: tokens.refresh_token,
        token_type_hint: 'refresh_token',
        client_id: CONSOLE_CLIENT_ID,
      }),
    });
    expect(res.statusCode).toBe(200);
    expect((await refresh(tokens.refresh_token)).statusCode).toBe(400);
  });

  it('shows an inline error on a bad password, the same as on an unknown login', async () => {
    const bodies: string[] = [];
    for (const [login, password] of [
      ['north.user', 'wrong'],
      ['nobody', 'wrong'],
    ]) {
      const jar = new Jar();
      const action = await openLoginForm(jar, pkce().challenge);
      const res = await t.app.inject({
        method: 'POST',
        url: action,
        headers: { ...FORM, cookie: jar.header() },
        payload: form({ login, password }),
      });
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain('role="alert"');
      expect(res.body).toContain('Login or password is incorrect.');
      bodies.push(res.body.replace(new RegExp(login, 'g'), 'X').replace(/interaction\/[\w-]+/g, 'I'));
    }
    expect(bodies[0]).toBe(bodies[1]);
  });

  it("shows the sign-in form in the language the console asks for, else the browser's", async () => {
    const formIn = async (extra: Record<string, string>, acceptLanguage?: string) => {
      const jar = new Jar();
      const { challenge } = pkce();
      const auth = jar.take(
        await t.app.inject({
          method: 'GET',
          url: authorizeUrl({ code_challenge: challenge, code_challenge_method: 'S256', ...extra }),
          headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
        }),
      );
      expect(auth.statusCode).toBe(303);
      const page = await t.app.inject({
        method: 'GET',
        url: pathOf(auth.headers.location as string),
        headers: { cookie: jar.header(), ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
      });
      expect(page.statusCode).toBe(200);
      return { jar, action: pathOf(auth.headers.location as string), body: page.body };
    };
    // The console sends ui_locales (its language), which wins over the browser's.
    const fr = await formIn({ ui_locales: 'fr' }, 'en-US,en;q=0.9');
    expect(fr.body).toContain('<html lang="fr">');
    expect(fr.body).toContain('<label for="password">Mot de passe</label>');
    // Without ui_locales: the browser's language.
    const browser = await formIn({}, 'fr-CA,fr;q=0.9,en;q=0.5');
    expect(browser.body).toContain('<h1>Connexion</h1>');
    const en = await formIn({ ui_locales: 'de en' });
    expect(en.body).toContain('<html lang="en">');
    expect(en.body).toContain('<label for="password">Password</label>');
    // A refused attempt answers in the same language.
    const refused = await t.app.inject({
      method: 'POST',
      url: fr.action,
      headers: { ...FORM, cookie: fr.jar.header() },
      payload: form({ login: 'north.user', password: 'wrong' }),
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.body).toContain('Identifiant ou mot de passe incorrect.');
  });

  it("the form's script posts for JSON: the next URL to replace the page with, or the refusal", async () => {
    const jar = new Jar();
    const { challenge } = pkce();
    const action = await openLoginForm(jar, challenge);
    // The page allows its one inline script by hash, and nothing else.
    const page = await t.app.inject({ method: 'GET', url: action, headers: { cookie: jar.header() } });
    const script = /<script>([\s\S]*?)<\/script>/.exec(page.body)?.[1] ?? '';
    const hash = createHash('sha256').update(script).digest('base64');
    expect(page.headers['content-security-policy']).toContain(`script-src 'sha256-${hash}'`);
    const scriptSrc = String(page.headers['content-security-policy'])
      .split(';')
      .find((d) => d.trim().startsWith('script-src'));
    expect(scriptSrc?.trim()).toBe(`script-src 'sha256-${hash}'`);

    const json = { ...FORM, accept: 'application/json', cookie: jar.header() };
    const refused = await t.app.inject({
      method: 'POST',
      url: action,
      headers: json,
      payload: form({ login: 'north.user', password: 'wrong' }),
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ error: 'Login or password is incorrect.' });
    const ok = jar.take(
      await t.app.inject({
        method: 'POST',
        url: action,
        headers: json,
        payload: form({ login: 'north.user', password: 'correct horse' }),
      }),
    );
    expect(ok.statusCode).toBe(200);
    const { location } = ok.json() as { location: string };
    // Where the browser goes next (location.replace): the authorization's resume, then the callback.
    const resume = await t.app.inject({
      method: 'GET',
      url: pathOf(location),
      headers: { cookie: jar.header() },
    });
    expect(resume.statusCode).toBe(303);
    expect(new URL(resume.headers.location as string).searchParams.get('code')).toBeTruthy();
  });

  it('refuses a sign-in posted without the interaction cookie', async () => {
    const jar = new Jar();
    const action = await openLoginForm(jar, pkce().challenge);
    const res = await t.app.inject({
      method: 'POST',
      url: action,
      headers: FORM,
      payload: form({ login: 'north.user', password: 'correct horse' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('expired');
  });

  it('refuses an authorization request without PKCE', async () => {
    const res = await t.app.inject({ method: 'GET', url: authorizeUrl() });
    expect(res.statusCode).toBe(303);
    const back = new URL(res.headers.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('refuses the code with a wrong PKCE verifier', async () => {
    const jar = new Jar();
    const { challenge } = pkce();
    const action = await openLoginForm(jar, challenge);
    const post = jar.take(
      await t.app.inject({
        method: 'POST',
        url: action,
        headers: { ...FORM, cookie: jar.header() },
        payload: form({ login: 'north.user', password: 'correct horse' }),
      }),
    );
    const resume = await t.app.inject({
      method: 'GET',
      url: pathOf(post.headers.location as string),
      headers: { cookie: jar.header() },
    });
    const code = new URL(resume.headers.location as string).searchParams.get('code') as string;
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: FORM,
      payload: form({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: CONSOLE_CLIENT_ID,
        code_verifier: pkce().verifier,
      }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_grant');
  });

  it('refuses a redirect URI that is not registered', async () => {
    const { challenge } = pkce();
    const res = await t.app.inject({
      method: 'GET',
      url: authorizeUrl({
        redirect_uri: 'https://evil.example/cb',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers /me without a token with the error body', async () => {
    const res = await t.app.inject({ method: 'GET', url: getMe.path });
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0].code).toBe('unauthorized.nocredentials');
  });
});
