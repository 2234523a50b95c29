import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness.ts';

let t: TestApp;
let dir: string;
const BIG = `export const words = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `word${i % 50}`))};`;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Fieldwork</title><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'main-AbC123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets', 'app-Big123.js'), BIG);
  writeFileSync(join(dir, 'assets', 'app-Big123.js.br'), brotliCompressSync(BIG));
  writeFileSync(join(dir, 'assets', 'app-Big123.js.gz'), gzipSync(BIG));
  writeFileSync(join(dir, 'assets', 'app-Big123.js.map'), '{"version":3,"sources":["secret.ts"]}');
  writeFileSync(join(dir, 'favicon.svg'), '<svg/>');
  t = await createTestApp({ consoleDir: dir });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('console at /', () => {
  it('serves index.html at / and for deep links that ask for HTML', async () => {
    for (const url of ['/', '/referentials/customers/C1/edit?x=1']) {
      const res = await t.app.inject({ method: 'GET', url, headers: HTML });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('caches hashed assets for a year', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/main-AbC123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('serves the console at / whatever the Accept header (curl)', async () => {
    for (const accept of ['*/*', 'application/json', undefined]) {
      const res = await t.app.inject({ method: 'GET', url: '/', headers: accept ? { accept } : {} });
      expect(res.statusCode, String(accept)).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
    }
  });

  it('sends the precompressed brotli or gzip file the client accepts', async () => {
    const br = await t.app.inject({
      method: 'GET',
      url: '/assets/app-Big123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBe(brotliCompressSync(BIG).length);
    expect(br.headers['content-type']).toMatch(/javascript/);
    const gz = await t.app.inject({
      method: 'GET',
      url: '/assets/app-Big123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.length).toBe(gzipSync(BIG).length);
    const plain = await t.app.inject({
      method: 'GET',
      url: '/assets/app-Big123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG);
  });

  it('does not serve source maps', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-Big123.js.map' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('secret.ts');
  });

  it('keeps the error body on API prefixes and non-HTML requests', async () => {
    // Paths no row or asset describes: one under the API prefix, one like it, one asset.
    for (const url of ['/eTech/rest/ws/nothing', '/rest/x', '/assets/missing.js']) {
      const res = await t.app.inject({ method: 'GET', url, headers: url.startsWith('/assets') ? {} : HTML });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().errors[0].code, url).toBe('route.not.found');
      expect(res.json().errorReference).toBeTruthy();
    }
    // Counted like any unknown path, not as the console's fallback route.
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(
      /fieldwork_http_requests_total\{[^}]*route="unmatched"[^}]*status="4xx"[^}]*\} [1-9]/,
    );
    expect(metrics).not.toContain('route="/*",status="4xx"');
  });
});
