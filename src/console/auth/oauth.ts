/**
 * The rest of the console's OAuth 2.0 client (oauth4webapi), once the app is loaded: the
 * callback (state check, code exchange with the PKCE verifier), refresh and sign-out.
 * Tokens live in memory only (session.ts). The start of the sign-in is in signIn.ts.
 */
import * as oauth from 'oauth4webapi';
import {
  authorizationServer,
  CLIENT,
  FORCE_LOGIN_KEY,
  origin,
  PENDING_KEY,
  type PendingSignIn,
  redirectUri,
  SIGNED_OUT_PATH,
} from './signIn.ts';

export { CALLBACK_PATH, SIGNED_OUT_PATH, startSignIn } from './signIn.ts';

// Plain http is refused by oauth4webapi unless allowed: local instances and tests use it.
const insecure = () => (window.location.protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {});

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** ms since epoch */
  expiresAt: number;
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
  const pending = JSON.parse(raw) as PendingSignIn;
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

/**
 * Revokes the refresh token (and with it the grant), then ends the provider session. The
 * page is replaced (Back does not return to a signed-in page that would sign in again).
 */
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
  window.location.replace(end.href);
  return new Promise<never>(() => {});
}
