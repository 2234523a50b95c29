/**
 * Security headers (docs/security.md): the console's page, the sign-in, signing-out and
 * error pages of the authorization server carry a CSP whose scripts are the console's
 * files or hashed inline scripts (never 'unsafe-inline' nor 'unsafe-eval'), forbid framing
 * and set a Referrer-Policy; every answer, API included, carries nosniff.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCustomer, putCustomer } from '../../contract/referentials.ts';
import { pathOf } from '../testing/api.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { CONSOLE_CLIENT_ID } from './auth/consoleClient.ts';
import { inlineScriptHashes } from './console.ts';

let t: TestApp;
let dir: string;
const THEME_SCRIPT = "\n  document.documentElement.dataset.x = 'y';\n";
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'console-csp-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><title>Fieldwork</title><script>${THEME_SCRIPT}</script>` +
      '<script type="module" src="/assets/main-AbC123.js"></script><div id="root"></div>',
  );
  writeFileSync(join(dir, 'assets', 'main-AbC123.js'), 'console.log(1)');
  t = await createTestApp({ consoleDir: dir });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** The CSP's directives by name. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = String(res.headers['content-security-policy'] ?? '');
  expect(header, 'Content-Security-Policy').not.toBe('');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );
}

/** What every HTML page of the service must answer. */
function expectPageHeaders(res: LightMyRequestResponse, what: string) {
  expect(res.headers['content-type'], what).toMatch(/^text\/html/);
  const policy = csp(res);
  const scripts = policy.get('script-src') ?? policy.get('default-src') ?? [];
  expect(scripts.length, `${what}: script-src`).toBeGreaterThan(0);
  expect(scripts, what).not.toContain("'unsafe-inline'");
  expect(scripts, what).not.toContain("'unsafe-eval'");
  expect(scripts, what).not.toContain('*');
  expect(policy.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(policy.get('object-src') ?? policy.get('default-src'), what).toEqual(["'none'"]);
  expect(policy.get('base-uri'), what).toEqual(["'none'"]);
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  expect(res.headers['referrer-policy'], what).toMatch(/^(no-referrer|same-origin|strict-origin)/);
  return policy;
}

describe('the console page', () => {
  it('at / and at a deep link: CSP allowing its own files and its inline script by hash only', async () => {
    for (const url of ['/', '/referentials/customers/C1/edit?x=1', '/projects/P1/graph']) {
      const res = await t.app.inject({ method: 'GET', url, headers: HTML });
      expect(res.statusCode, url).toBe(200);
      const policy = expectPageHeaders(res, url);
      expect(policy.get('script-src')).toEqual(["'self'", sha(THEME_SCRIPT)]);
      expect(policy.get('connect-src')).toEqual(["'self'"]);
    }
  });

  it('hashes every inline script, none with a src', () => {
    expect(
      inlineScriptHashes('<script>a</script><script src="/x.js"></script><SCRIPT type="x">b</SCRIPT >'),
    ).toEqual([sha('a'), sha('b')]);
  });

  it('the hash of the real index.html matches its inline script (the theme before first paint)', async () => {
    const { readFileSync } = await import('node:fs');
    const html = readFileSync(join(import.meta.dirname, '../../../index.html'), 'utf8');
    const inline = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(inline).toBeDefined();
    expect(inlineScriptHashes(html)).toEqual([sha(inline ?? '')]);
  });

  it('its files are nosniff too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/main-AbC123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('the authorization server pages', () => {
  it('the sign-in page', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const q = new URLSearchParams({
      client_id: CONSOLE_CLIENT_ID,
      response_type: 'code',
      redirect_uri: 'http://localhost/auth/callback',
      scope: 'referentials:read',
      state: 's',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const auth = await t.app.inject({ method: 'GET', url: `/oauth/auth?${q}` });
    expect(auth.statusCode).toBe(303);
    const cookie = ([] as string[])
      .concat(auth.headers['set-cookie'] ?? [])
      .map((c) => c.split(';')[0])
      .join('; ');
    const page = await t.app.inject({
      method: 'GET',
      url: new URL(String(auth.headers.location), 'http://localhost').pathname,
      headers: { ...HTML, cookie },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form');
    const policy = expectPageHeaders(page, 'sign-in');
    const inline = /<script>([\s\S]*?)<\/script>/.exec(page.body)?.[1] ?? '';
    expect(policy.get('script-src')).toEqual([sha(inline)]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
  });

  it('an expired sign-in link', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/oauth/interaction/nope', headers: HTML });
    expect(res.statusCode).toBe(400);
    expectPageHeaders(res, 'expired sign-in');
  });

  it('the signing-out page allows its one script by hash', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/oauth/session/end', headers: HTML });
    expect(res.statusCode).toBe(200);
    const policy = expectPageHeaders(res, 'signing out');
    const inline = /<script>([\s\S]*?)<\/script>/.exec(res.body)?.[1] ?? '';
    expect(inline).not.toBe('');
    expect(policy.get('script-src')).toEqual([sha(inline)]);
  });

  it('the error page of a refused authorization request', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/oauth/auth?client_id=nobody', headers: HTML });
    expect(res.statusCode).toBe(400);
    const policy = expectPageHeaders(res, 'authorization error');
    expect(policy.get('script-src')).toEqual(["'none'"]);
  });
});

describe('the API', () => {
  it('answers nosniff on success, refusals, unknown routes and the token endpoint', async () => {
    const answers = [
      await t.api(getCustomer, { params: { customerCode: 'NOPE' } }),
      await t.api(putCustomer, {
        params: { customerCode: 'HDR' },
        body: { name: 'x', addressDetails: { city: 'L' } },
      }),
      // No token: app.inject, not t.api.
      await t.app.inject({ method: 'GET', url: pathOf(getCustomer, { customerCode: 'HDR' }) }),
      await t.api(putCustomer, {
        params: { customerCode: 'HDR' },
        headers: { 'content-type': 'text/plain' },
        raw: 'x',
      }),
      // An unknown path (no row).
      await t.app.inject({ method: 'GET', url: '/eTech/nothing' }),
      await t.app.inject({ method: 'GET', url: '/openapi.json' }),
      await t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials&client_id=root&client_secret=wrong',
      }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([404, 201, 401, 415, 404, 200, 401]);
    for (const res of answers) expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
