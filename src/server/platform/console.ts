/**
 * Serves the built console (dist/console) at `/`: its files, long-cached when their name
 * is hashed, and index.html at `/` (whatever the Accept header) and for any other GET that
 * asks for HTML, so that deep links of the single-page app work. The API's own prefixes
 * keep the error body on unknown paths.
 *
 * Files are sent precompressed when the build made `.br` / `.gz` siblings (vite.config.ts)
 * and the client accepts them; source maps stay on disk (the build's size report reads
 * them) but are not served.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const API_PREFIXES = ['/eTech', '/rest', '/oauth', '/openapi.json', '/docs'];

/** `<repo>/dist/console` when it was built. */
export function defaultConsoleDir(): string | undefined {
  const dir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../dist/console');
  return existsSync(join(dir, 'index.html')) ? dir : undefined;
}

const isApiPath = (url: string) =>
  API_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`));

const wantsHtml = (request: FastifyRequest) => /\btext\/html\b/.test(String(request.headers.accept ?? ''));

export async function registerConsole(app: FastifyInstance, consoleDir: string | undefined) {
  const dir = consoleDir ?? defaultConsoleDir();
  if (!dir || !existsSync(join(dir, 'index.html'))) return false;
  const index = join(dir, 'index.html');

  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    // One route per file present at start, so that other paths reach the fallback below.
    wildcard: false,
    index: false,
    // x.js.br / x.js.gz next to x.js, by Accept-Encoding (brotli first).
    preCompressed: true,
    allowedPath: (pathName: string) => !pathName.endsWith('.map'),
    // @fastify/static 10 hands the Fastify reply here.
    setHeaders(reply: { header(k: string, v: string): unknown }, path: string) {
      // Vite names bundles by content hash: they never change under the same name.
      const hashed = /[/\\]assets[/\\]/.test(path);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0];
    // Not the console's: the service's 404, counted as an unmatched route in the metrics
    // like any other unknown path (callNotFound moves the request to the 404 context).
    if (isApiPath(path) || (path !== '/' && !wantsHtml(request)) || path.endsWith('.map'))
      return reply.callNotFound();
    const html = await readFile(index);
    const headers = consoleHeaders(html.toString('utf8'));
    for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  });
  return true;
}

/** `'sha256-…'` of each inline script of a page (`<script>` without `src`), in order. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\ssrc\s*=/i.test(m[1])) continue;
    hashes.push(`'sha256-${createHash('sha256').update(m[2], 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * Security headers of the console's page (docs/security.md). Scripts: the console's own
 * files and, by hash, the inline script of index.html that sets the theme before the
 * first paint; no 'unsafe-inline', no eval. Styles may be inline (Mantine writes its CSS
 * variables in a <style> element). The layout worker of the project graph is a file of
 * the console. The page cannot be framed (clickjacking) and sends no Referer with the
 * URL of a record to another site.
 */
export function consoleHeaders(html: string): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${inlineScriptHashes(html).join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
}
