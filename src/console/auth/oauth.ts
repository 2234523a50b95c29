/**
 * The console's OAuth 2.0 client (authorization code + PKCE, oauth4webapi) against the
 * service's own authorization server at `/oauth`. Tokens live in memory only (session.ts);
 * the PKCE verifier, state and the page to return to sit in sessionStorage during the
 * redirect, and are removed as soon as the callback reads them.
 */
import * as oauth from 'oauth4webapi';
import { ALL_SCOPES } from '../../contract/endpoint.ts';

export const CLIENT: oauth.Client = { client_id: 'fieldwork-console' };
const SCOPE = [...ALL_SCOPES, 'offline_access'].join(' ');
const PENDING_KEY = 'fieldwork.auth.pending';
/** After a sign-out the next sign-in shows the form even if a provider session remains. */
const FORCE_LOGIN_KEY = 'fieldwork.auth.forceLogin';

export const CALLBACK_PATH = '/auth/callback';
export const SIGNED_OUT_PATH = '/auth/signed-out';

const origin = () => window.location.origin;
const redirectUri = () => `${origin()}${CALLBACK_PATH}`;
// Plain http is refused by oauth4webapi unless allowed: local instances and tests use it.
const insecure = () => (window.location.protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {});

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** ms since epoch */
  expiresAt: number;
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

/** Leaves the page for the sign-in form; comes back to `returnTo` after the callback. */
export async function startSignIn(returnTo: string): Promise<never> {
  const as = await authorizationServer();
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state, returnTo }));
  const url = new URL(as.authorization_endpoint as string);
  url.searchParams.set('client_id', CLIENT.client_id);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', redirectUri());
  url.searchParams.set('scope', SCOPE);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  if (sessionStorage.getItem(FORCE_LOGIN_KEY)) {
    url.searchParams.set('prompt', 'login');
    sessionStorage.removeItem(FORCE_LOGIN_KEY);
  }
  window.location.assign(url.href);
  return new Promise<never>(() => {});
}

function toTokenSet(r: oauth.TokenEndpointResponse): TokenSet {
  return {
    accessToken: r.access_token,
    refreshToken: r.refresh_token ?? null,
    expiresAt: Date.now() + (r.expires_in ?? 300) * 1000,
  };
}

/** The callback: checks state, exchanges the code with the PKCE verifier. */
export async function completeSignIn(currentUrl: URL): Promise<{ tokens: TokenSet; returnTo: string }> {
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  if (!raw) throw new Error('No sign-in in progress in this tab.');
  const pending = JSON.parse(raw) as { verifier: string; state: string; returnTo: string };
  const as = await authorizationServer();
  const params = oauth.validateAuthResponse(as, CLIENT, currentUrl, pending.state);
  const res = await oauth.authorizationCodeGrantRequest(
    as,
    CLIENT,
    oauth.None(),
    params,
    redirectUri(),
    pending.verifier,
    insecure(),
  );
  const body = await oauth.processAuthorizationCodeResponse(as, CLIENT, res);
  const returnTo =
    pending.returnTo.startsWith('/') && !pending.returnTo.startsWith('//') ? pending.returnTo : '/';
  return { tokens: toTokenSet(body), returnTo };
}

/** Trades the (rotating) refresh token for a new token set. */
export async function refreshTokens(refreshToken: string): Promise<TokenSet> {
  const as = await authorizationServer();
  const res = await oauth.refreshTokenGrantRequest(as, CLIENT, oauth.None(), refreshToken, insecure());
  const body = await oauth.processRefreshTokenResponse(as, CLIENT, res);
  return toTokenSet(body);
}

/** Revokes the refresh token (and with it the grant), then ends the provider session. */
export async function signOutEverywhere(refreshToken: string | null): Promise<never> {
  const as = await authorizationServer();
  if (refreshToken) {
    try {
      const res = await oauth.revocationRequest(as, CLIENT, oauth.None(), refreshToken, {
        ...insecure(),
        additionalParameters: { token_type_hint: 'refresh_token' },
      });
      await oauth.processRevocationResponse(res);
    } catch {
      // The provider session end below still signs the user out.
    }
  }
  sessionStorage.setItem(FORCE_LOGIN_KEY, '1');
  const end = new URL((as.end_session_endpoint as string | undefined) ?? `${origin()}/oauth/session/end`);
  end.searchParams.set('client_id', CLIENT.client_id);
  end.searchParams.set('post_logout_redirect_uri', `${origin()}${SIGNED_OUT_PATH}`);
  window.location.assign(end.href);
  return new Promise<never>(() => {});
}
