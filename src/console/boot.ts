/**
 * The console's entry, a few kilobytes: the app itself (main.tsx) is loaded only where it
 * will run. Tokens live in memory, so a page load (a reload, a deep link) has none: it
 * goes straight to the sign-in, replacing the current history entry, and the app is
 * downloaded and started once, on the way back (`/auth/callback`). The signed-out page,
 * and a sign-in that cannot start (the service is unreachable), load the app at once.
 */
import { CALLBACK_PATH, SIGNED_OUT_PATH, startSignIn } from './auth/signIn.ts';

const start = (failure?: unknown) => import('./main.tsx').then((app) => app.startApp(failure));

const { pathname, search, hash } = window.location;
if (pathname === CALLBACK_PATH || pathname === SIGNED_OUT_PATH) void start();
else
  startSignIn(`${pathname}${search}${hash}`).catch((e: unknown) => start(e ?? new Error('sign-in failed')));
