/**
 * Failed console sign-ins are limited per login and per client address
 * (FIELDWORK_LOGIN_LIMITS, issue 24, 3): past the figure the form answers 429 with
 * Retry-After and says when to try again in the page's language; the password is not
 * checked while limited (no scrypt); a success does not count; the next window resets.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSignInForm, postSignIn } from '../../testing/consoleSignIn.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import * as passwords from './passwords.ts';
import { DEFAULT_LOGIN_LIMITS, parseLoginLimits } from './tokenLimits.ts';

// Counts the password checks (scrypt) the sign-in makes.
vi.mock('./passwords.ts', async (original) => {
  const real = await original<typeof import('./passwords.ts')>();
  return { ...real, verifySecretOrDummy: vi.fn(real.verifySecretOrDummy) };
});
const checks = vi.mocked(passwords.verifySecretOrDummy);

let t: TestApp;
let clock = Date.UTC(2026, 0, 1, 10, 0, 20);
beforeAll(async () => {
  t = await createTestApp(
    {
      loginLimits: {
        perLogin: { failures: 3, windowSeconds: 60 },
        perAddress: { failures: 5, windowSeconds: 60 },
      },
    },
    { logger: false, now: () => clock },
  );
  await t.createUser('limited', 'right password', 'NORTH');
  await t.createUser('other', 'right password', 'NORTH');
});
afterAll(() => t.close());
beforeEach(() => {
  clock += 60_000;
  checks.mockClear();
});

/** A sign-in attempt from `address` (the test service trusts its loopback proxy). */
async function attempt(
  login: string,
  password: string,
  address: string,
  headers: Record<string, string> = {},
) {
  const f = await openSignInForm(t.app, {
    headers: { 'accept-language': headers['accept-language'] ?? 'en' },
  });
  return postSignIn(t.app, f, login, password, { 'x-forwarded-for': address, ...headers });
}

describe('failed console sign-ins are limited', () => {
  it('per login: 401 for each wrong password, then 429 with Retry-After without checking, even the right one', async () => {
    for (let i = 0; i < 3; i++)
      expect((await attempt('limited', 'guess', `198.51.100.${i}`)).statusCode).toBe(401);
    expect(checks).toHaveBeenCalledTimes(3);
    const refused = await attempt('limited', 'right password', '198.51.100.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('40');
    expect(refused.headers['content-type']).toMatch(/text\/html/);
    expect(refused.body).toContain('Too many failed sign-ins. Try again in 40 seconds.');
    expect(refused.body).toContain('role="alert"');
    // Refused before the password is read: no scrypt.
    expect(checks).toHaveBeenCalledTimes(3);
    // Another login is not affected.
    expect((await attempt('other', 'right password', '198.51.100.9')).statusCode).toBe(303);
    // The next window.
    clock += 60_000;
    expect((await attempt('limited', 'right password', '198.51.100.9')).statusCode).toBe(303);
  });

  it('per address: failures across logins, unknown ones included, count', async () => {
    for (const login of ['other', 'ghost-1', 'ghost-2', 'ghost-3', 'limited'])
      expect((await attempt(login, 'guess', '192.0.2.7')).statusCode).toBe(401);
    const refused = await attempt('other', 'right password', '192.0.2.7');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await attempt('other', 'right password', '192.0.2.8')).statusCode).toBe(303);
  });

  it("says when to try again in the page's language, and to the form's script as JSON", async () => {
    for (let i = 0; i < 3; i++) await attempt('limited', 'guess', `203.0.113.${i}`);
    const fr = await attempt('limited', 'guess', '203.0.113.9', { 'accept-language': 'fr-FR,fr;q=0.9' });
    expect(fr.statusCode).toBe(429);
    expect(fr.body).toContain('<html lang="fr">');
    expect(fr.body).toContain('Trop de connexions échouées. Réessayez dans 40 secondes.');
    const json = await attempt('limited', 'guess', '203.0.113.9', { accept: 'application/json' });
    expect(json.statusCode).toBe(429);
    expect(json.headers['retry-after']).toBe('40');
    expect(json.json()).toEqual({
      error: 'Too many failed sign-ins. Try again in 40 seconds.',
      retryAfter: 40,
    });
  });

  it('a burst of concurrent guesses gets no more checks than the figure', async () => {
    const forms = await Promise.all(Array.from({ length: 10 }, () => openSignInForm(t.app)));
    const answers = await Promise.all(
      forms.map((f, i) =>
        postSignIn(t.app, f, 'limited', `burst-${i}`, { 'x-forwarded-for': `198.51.100.${100 + i}` }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(3);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(7);
    expect(checks).toHaveBeenCalledTimes(3);
  });

  it('successful sign-ins do not count', async () => {
    for (let i = 0; i < 8; i++)
      expect((await attempt('other', 'right password', '192.0.2.50')).statusCode).toBe(303);
  });
});

describe('FIELDWORK_LOGIN_LIMITS', () => {
  it('defaults to 5 failures a minute per login and 20 per address; missing keys keep theirs', () => {
    expect(DEFAULT_LOGIN_LIMITS).toEqual({
      perLogin: { failures: 5, windowSeconds: 60 },
      perAddress: { failures: 20, windowSeconds: 60 },
    });
    expect(parseLoginLimits(undefined)).toEqual(DEFAULT_LOGIN_LIMITS);
    expect(parseLoginLimits('{"perLogin":{"failures":2}}')).toEqual({
      perLogin: { failures: 2, windowSeconds: 60 },
      perAddress: DEFAULT_LOGIN_LIMITS.perAddress,
    });
  });

  it.each(['{nope', '{"perLogin":{"failures":0}}', '{"perClient":{}}'])('refuses %s at start', (text) => {
    expect(() => parseLoginLimits(text)).toThrow(/^FIELDWORK_LOGIN_LIMITS: /);
  });
});
