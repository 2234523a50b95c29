/**
 * What the app does when it starts (boot.ts loads it only for these pages, every other
 * page load goes through sign-in first):
 * - on `/auth/callback`: finish the sign-in and show the page asked for (the callback's
 *   history entry is replaced by it);
 * - on `/auth/signed-out`: the signed-out page;
 * - when boot could not start the sign-in: the sign-in failed page.
 */
import { CALLBACK_PATH, completeSignIn, SIGNED_OUT_PATH } from './oauth.ts';
import { session } from './session.ts';

export type Boot = { kind: 'ready' } | { kind: 'signedOut' } | { kind: 'failed'; error: Error };

const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));

export async function bootstrapAuth(failure?: unknown): Promise<Boot> {
  if (failure !== undefined) return { kind: 'failed', error: asError(failure) };
  const { pathname } = window.location;
  if (pathname === SIGNED_OUT_PATH) return { kind: 'signedOut' };
  if (pathname === CALLBACK_PATH) {
    try {
      const { tokens, returnTo } = await completeSignIn(new URL(window.location.href));
      session.set(tokens);
      window.history.replaceState(null, '', returnTo);
      return { kind: 'ready' };
    } catch (e) {
      window.history.replaceState(null, '', '/');
      return { kind: 'failed', error: asError(e) };
    }
  }
  return session.tokens ? { kind: 'ready' } : { kind: 'failed', error: new Error('Not signed in.') };
}
