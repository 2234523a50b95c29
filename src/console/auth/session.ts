/**
 * The signed-in session, in memory only: the current tokens, a timer that refreshes them
 * a minute before they expire, and the one refresh in flight (concurrent callers share it).
 * Reloading the page loses the tokens on purpose; the provider's session cookie makes the
 * next sign-in silent.
 */
import { refreshTokens, startSignIn, type TokenSet } from './oauth.ts';

let tokens: TokenSet | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let inFlight: Promise<TokenSet | null> | null = null;
/** Set by a sign-out until the page leaves for the provider (or tokens come back). */
let signingOut = false;
const listeners = new Set<() => void>();

const REFRESH_MARGIN_MS = 60_000;

export const session = {
  get tokens() {
    return tokens;
  },
  accessToken(): string | null {
    return tokens?.accessToken ?? null;
  },
  set(next: TokenSet | null) {
    tokens = next;
    if (next) signingOut = false;
    clearTimeout(timer);
    if (next?.refreshToken) {
      const wait = Math.max(5_000, next.expiresAt - Date.now() - REFRESH_MARGIN_MS);
      timer = setTimeout(() => void session.refresh(), wait);
    }
    for (const l of listeners) l();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** A fresh token set, or null when the sign-in has ended (the caller then signs in). */
  refresh(): Promise<TokenSet | null> {
    const refreshToken = tokens?.refreshToken;
    if (!refreshToken) return Promise.resolve(null);
    inFlight ??= refreshTokens(refreshToken)
      .then((next) => {
        session.set(next);
        return next;
      })
      .catch(() => null)
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  },
  /**
   * Drops the tokens for a sign-out and returns the refresh token to revoke. Until the page
   * leaves for the provider's session end, a request answered 401 for want of a token does
   * not send the user through sign-in instead (a query or the change stream in flight).
   */
  endForSignOut(): string | null {
    const refreshToken = tokens?.refreshToken ?? null;
    signingOut = true;
    session.set(null);
    return refreshToken;
  },
  /** Sends the user through sign-in, back to the page they are on (not while signing out). */
  signInAgain(): Promise<never> {
    if (signingOut) return new Promise<never>(() => {});
    session.set(null);
    const { pathname, search, hash } = window.location;
    return startSignIn(`${pathname}${search}${hash}`);
  },
};
