import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const refreshTokens = vi.fn();
const startSignIn = vi.fn();
vi.mock('./oauth.ts', () => ({
  refreshTokens: (t: string) => refreshTokens(t),
  startSignIn: (back: string) => startSignIn(back),
}));
const { session } = await import('./session.ts');

const set = (refreshToken: string | null, inMs = 900_000) =>
  session.set({ accessToken: `a-${refreshToken}`, refreshToken, expiresAt: Date.now() + inMs });

describe('console session (tokens in memory)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    refreshTokens.mockReset();
    startSignIn.mockReset();
  });
  afterEach(() => {
    session.set(null);
    vi.useRealTimers();
  });

  it('refreshes a minute before the access token expires, with the rotated refresh token', async () => {
    refreshTokens.mockImplementation(async (rt: string) => ({
      accessToken: `a-${rt}-next`,
      refreshToken: `${rt}-next`,
      expiresAt: Date.now() + 900_000,
    }));
    set('r1');
    await vi.advanceTimersByTimeAsync(839_000);
    expect(refreshTokens).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(refreshTokens).toHaveBeenCalledWith('r1');
    expect(session.accessToken()).toBe('a-r1-next');
    await vi.advanceTimersByTimeAsync(841_000);
    expect(refreshTokens).toHaveBeenLastCalledWith('r1-next');
  });

  it('shares one refresh between concurrent callers', async () => {
    let resolve!: (v: unknown) => void;
    refreshTokens.mockReturnValue(new Promise((r) => (resolve = r)));
    set('r1');
    const a = session.refresh();
    const b = session.refresh();
    resolve({ accessToken: 'x', refreshToken: 'r2', expiresAt: Date.now() + 900_000 });
    expect(await a).toEqual(await b);
    expect(refreshTokens).toHaveBeenCalledTimes(1);
  });

  it('answers null when the refresh is refused (the caller then signs in again)', async () => {
    refreshTokens.mockRejectedValue(new Error('invalid_grant'));
    set('r1');
    expect(await session.refresh()).toBeNull();
    session.set(null);
    expect(await session.refresh()).toBeNull();
    expect(session.accessToken()).toBeNull();
  });

  it('a sign-out in progress does not send the user through sign-in when a request fails for want of a token', () => {
    set('r1');
    expect(session.endForSignOut()).toBe('r1');
    expect(session.accessToken()).toBeNull();
    void session.signInAgain();
    expect(startSignIn).not.toHaveBeenCalled();
    // Signed in again (tokens back): a 401 sends the user through sign-in as before.
    vi.stubGlobal('window', { location: { pathname: '/referentials/customers', search: '?q=A', hash: '' } });
    set('r2');
    void session.signInAgain();
    expect(startSignIn).toHaveBeenCalledWith('/referentials/customers?q=A');
    vi.unstubAllGlobals();
  });
});
