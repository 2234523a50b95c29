/**
 * The start of the console's sign-in (authorization code + PKCE, oauth4webapi) against the
 * service's own authorization server at `/oauth`: light enough to run from the boot entry
 * before the app is loaded (boot.ts), so that a reload or a deep link sends the browser to
 * sign in without downloading the app first. The PKCE verifier, state and the page to
 * return to sit in sessionStorage during the redirect (oauth.ts reads them back).
 *
 * The redirect replaces the current history entry (`location.replace`): the sign-in round
 * trip stays out of the history, and Back never lands on a page that would start it again.
 */
import * as oauth from 'oauth4webapi';
import { storedLanguage } from '../i18n/language.ts';

export const CLIENT: oauth.Client = { client_id: 'fieldwork-console' };
export const PENDING_KEY = 'fieldwork.auth.pending';
/** After a sign-out the next sign-in shows the form even if a provider session remains. */
export const FORCE_LOGIN_KEY = 'fieldwork.auth.forceLogin';

export const CALLBACK_PATH = '/auth/callback';
export const SIGNED_OUT_PATH = '/auth/signed-out';

/**
 * What the console asks for: every API scope the server advertises (`<domain>:read|write`)
 * and a refresh token. Read from the metadata, so the boot entry loads no domain list.
 */
export const consoleScope = (as: oauth.AuthorizationServer) =>
  [...(as.scopes_supported ?? []).filter((s) => /^\w+:(read|write)$/.test(s)), 'offline_access'].join(' ');

export const origin = () => window.location.origin;
export const redirectUri = () => `${origin()}${CALLBACK_PATH}`;

export interface PendingSignIn {
  verifier: string;
  state: string;
  returnTo: string;
}

let server: Promise<oauth.AuthorizationServer> | undefined;

/**
 * The authorization server's metadata, read from this origin. Its `issuer` is the
 * instance's public URL, which differs from this origin behind vite's dev proxy; the
 * document comes from our own origin, so we take the issuer it declares.
 */
export function authorizationServer(): Promise<oauth.AuthorizationServer> {
  server ??= (async () => {
    const res = await fetch(`${origin()}/oauth/.well-known/openid-configuration`, {
      headers: { accept: 'application/json' },
    });
    const meta = (await res.clone().json()) as { issuer: string };
    return oauth.processDiscoveryResponse(new URL(meta.issuer), res);
  })().catch((e) => {
    server = undefined;
    throw e;
  });
  return server;
}

/**
 * Leaves the page for the sign-in form (in the console's language, `ui_locales`); comes
 * back to `returnTo` after the callback. The current history entry is replaced.
 */
export async function startSignIn(returnTo: string): Promise<never> {
  const as = await authorizationServer();
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const pending: PendingSignIn = { verifier, state, returnTo };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  if (!as.authorization_endpoint) throw new Error('the authorization server names no authorization_endpoint');
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set('client_id', CLIENT.client_id);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', redirectUri());
  url.searchParams.set('scope', consoleScope(as));
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('ui_locales', storedLanguage());
  if (sessionStorage.getItem(FORCE_LOGIN_KEY)) {
    url.searchParams.set('prompt', 'login');
    sessionStorage.removeItem(FORCE_LOGIN_KEY);
  }
  window.location.replace(url.href);
  return new Promise<never>(() => {});
}
