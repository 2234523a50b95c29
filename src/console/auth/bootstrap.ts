/**
 * What the console does when the page loads, before anything renders:
 * - on `/auth/callback`: finish the sign-in and go back to the page asked for;
 * - on `/auth/signed-out`: show the signed-out page;
 * - otherwise, without tokens (always, after a load): go through sign-in.
 */
import { CALLBACK_PATH, completeSignIn, SIGNED_OUT_PATH, startSignIn } from './oauth.ts';
import { session } from './session.ts';

export type Boot = { kind: 'ready' } | { kind: 'signedOut' } | { kind: 'failed'; error: Error };

export async function bootstrapAuth(): Promise<Boot> {
  const { pathname, search, hash } = window.location;
  if (pathname === SIGNED_OUT_PATH) return { kind: 'signedOut' };
  if (pathname === CALLBACK_PATH) {
    try {
      const { tokens, returnTo } = await completeSignIn(new URL(window.location.href));
      session.set(tokens);
      window.history.replaceState(null, '', returnTo);
      return { kind: 'ready' };
    } catch (e) {
      window.history.replaceState(null, '', '/');
      return { kind: 'failed', error: e instanceof Error ? e : new Error(String(e)) };
    }
  }
  if (!session.tokens) {
    try {
      return await startSignIn(`${pathname}${search}${hash}`);
    } catch (e) {
      return { kind: 'failed', error: e instanceof Error ? e : new Error(String(e)) };
    }
  }
  return { kind: 'ready' };
}
