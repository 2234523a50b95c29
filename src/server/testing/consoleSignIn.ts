/**
 * The console's sign-in as a browser does it, in-process: authorization request with PKCE,
 * the sign-in form, the code, the token. For tests of roles, sessions and limits.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ALL_SCOPES } from '../../contract/domains.ts';
import { CONSOLE_CLIENT_ID } from '../platform/auth/consoleClient.ts';

export const CONSOLE_REDIRECT = 'http://localhost/auth/callback';
/** What the console asks for: every scope, and a refresh token. */
export const CONSOLE_SCOPE = [...ALL_SCOPES, 'offline_access'].join(' ');
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
export const form = (o: Record<string, string>) => new URLSearchParams(o).toString();

/** A browser's cookie jar, enough for oidc-provider's cookies. */
export class Jar {
  private cookies = new Map<string, string>();
  take(res: LightMyRequestResponse) {
    const set = res.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export const pathOf = (location: string) => {
  const u = new URL(location, 'http://localhost');
  return u.pathname + u.search;
};

export interface ConsoleTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
}

/** Opens the sign-in form: the form's action, its verifier and the browser's cookies. */
export async function openSignInForm(
  app: FastifyInstance,
  opts: { scope?: string; headers?: Record<string, string> } = {},
) {
  const jar = new Jar();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const q = new URLSearchParams({
    client_id: CONSOLE_CLIENT_ID,
    response_type: 'code',
    redirect_uri: CONSOLE_REDIRECT,
    scope: opts.scope ?? CONSOLE_SCOPE,
    state: 'st4te',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const auth = jar.take(
    await app.inject({ method: 'GET', url: `/oauth/auth?${q}`, headers: opts.headers ?? {} }),
  );
  if (auth.statusCode !== 303) throw new Error(`authorization: ${auth.statusCode} ${auth.body}`);
  const action = pathOf(auth.headers.location as string);
  jar.take(await app.inject({ method: 'GET', url: action, headers: { cookie: jar.header() } }));
  return { jar, action, verifier };
}

/** Posts the sign-in form (as the browser does without script). */
export function postSignIn(
  app: FastifyInstance,
  signInForm: { jar: Jar; action: string },
  login: string,
  password: string,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: signInForm.action,
    headers: { ...FORM, cookie: signInForm.jar.header(), ...headers },
    payload: form({ login, password }),
  });
}

/** Signs in and exchanges the code: the tokens the console would hold. */
export async function signIn(
  app: FastifyInstance,
  login: string,
  password: string,
  opts: { scope?: string } = {},
): Promise<ConsoleTokens> {
  const f = await openSignInForm(app, opts);
  const post = f.jar.take(await postSignIn(app, f, login, password));
  if (post.statusCode !== 303) throw new Error(`sign-in of ${login}: ${post.statusCode}`);
  const resume = f.jar.take(
    await app.inject({
      method: 'GET',
      url: pathOf(post.headers.location as string),
      headers: { cookie: f.jar.header() },
    }),
  );
  const code = new URL(String(resume.headers.location), 'http://localhost').searchParams.get('code');
  if (!code) throw new Error(`no code for ${login}: ${resume.statusCode} ${resume.headers.location}`);
  const token = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: FORM,
    payload: form({
      grant_type: 'authorization_code',
      code,
      redirect_uri: CONSOLE_REDIRECT,
      client_id: CONSOLE_CLIENT_ID,
      code_verifier: f.verifier,
    }),
  });
  if (token.statusCode !== 200) throw new Error(`token of ${login}: ${token.statusCode} ${token.body}`);
  return token.json() as ConsoleTokens;
}

/** The console's refresh of its tokens. */
export const refreshTokens = (app: FastifyInstance, refreshToken: string) =>
  app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: FORM,
    payload: form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: CONSOLE_CLIENT_ID }),
  });
