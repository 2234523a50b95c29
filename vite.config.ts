/**
 * Console build (`npx vite build` -> dist/console) and dev server (`npm run dev`): the dev
 * server proxies the service's paths to it, so the console always calls its own origin.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const service = process.env.FIELDWORK_SERVICE_URL ?? 'http://127.0.0.1:8080';
const proxied = ['/eTech', '/rest', '/oauth', '/openapi.json', '/docs'];

export default defineConfig({
  plugins: [react()],
  publicDir: 'public',
  build: {
    outDir: 'dist/console',
    emptyOutDir: true,
    sourcemap: true,
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
