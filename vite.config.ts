/**
 * Console build (`npx vite build` -> dist/console) and dev server (`npm run dev`): the dev
 * server proxies the service's paths to it, so the console always calls its own origin.
 *
 * The build writes, next to each text file of 1 KiB or more, its brotli (quality 11) and
 * gzip (level 9) forms, which the service sends as they are (src/server/platform/console.ts);
 * source maps are written for the size report but not referenced nor served.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const service = process.env.FIELDWORK_SERVICE_URL ?? 'http://127.0.0.1:8080';
const proxied = ['/eTech', '/rest', '/oauth', '/openapi.json', '/docs'];

/**
 * `x.js` -> `x.js.br`, `x.js.gz` for the text files of the build, from the files as written
 * (after every plugin's last change to them, e.g. Vite's preload lists).
 */
function precompress(): Plugin {
  return {
    name: 'fieldwork-precompress',
    apply: 'build',
    enforce: 'post',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist/console';
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(fileName) || fileName.startsWith('.vite/')) continue;
        const file = join(dir, fileName);
        const source = readFileSync(file);
        if (source.length < 1024) continue;
        const brotli = brotliCompressSync(source, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        });
        writeFileSync(`${file}.br`, brotli);
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  publicDir: 'public',
  build: {
    outDir: 'dist/console',
    emptyOutDir: true,
    // For scripts/bundle-report.mjs; no sourceMappingURL in the files, the service does not serve them.
    sourcemap: 'hidden',
    // The import graph, read by scripts/bundle-report.mjs.
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    // Host header kept: the service builds its OAuth URLs from it (the dev origin's redirect URIs are registered).
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: service, changeOrigin: false, xfwd: true }])),
  },
});
