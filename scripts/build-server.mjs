#!/usr/bin/env node
// npm run build:server: the service compiled to JavaScript in dist/server (what production
// runs: `node dist/server/main.js`), with esbuild (installed with tsx and vite).
//
// One bundle of our code (packages stay in node_modules), split in chunks that all sit in
// dist/server. A module that finds files beside itself (`new URL('./migrations/',
// import.meta.url)`) gets the URL its source would have in dist/server, and those files
// (the SQL migrations, the demo dataset) are copied there, so the compiled service reads
// the same tree as the TypeScript one. Source maps keep stack traces and CPU profiles in
// terms of src/.
//
// `node scripts/build-server.mjs --if-stale` builds only when a source is newer than the
// build (npm start uses it).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverSrc = join(root, 'src/server');
const out = join(root, 'dist/server');
const entries = { main: join(serverSrc, 'main.ts') };
// Evaluated before oidc-provider (it filters a warning that package prints when imported):
// a bundle hoists the imports of packages above its own code, so this module stays a file
// of its own, imported first.
const OIDC_RUNTIME = 'platform/auth/oidcRuntime';
const say = (line) => process.stderr.write(`[build:server] ${line}\n`);

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** Whether a source of the service (src/server, src/contract) is newer than the build. */
export function serverBuildIsStale() {
  const built = join(out, 'main.js');
  if (!existsSync(built)) return true;
  const at = statSync(built).mtimeMs;
  for (const dir of ['src/server', 'src/contract'])
    for (const file of walk(join(root, dir))) if (statSync(file).mtimeMs > at) return true;
  return false;
}

/** Each module of src/server sees import.meta.url as if it were compiled in place. */
const importMetaUrl = {
  name: 'fieldwork-import-meta-url',
  setup(b) {
    b.onResolve({ filter: /[\\/]oidcRuntime\.ts$/ }, () => ({
      path: `./${OIDC_RUNTIME}.js`,
      external: true,
    }));
    b.onLoad({ filter: /[\\/]src[\\/]server[\\/].*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const rel = `./${relative(serverSrc, args.path).split('\\').join('/').replace(/\.ts$/, '.js')}`;
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`),
        loader: 'ts',
      };
    });
  },
};

export async function buildServer() {
  const started = Date.now();
  rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: entries,
    outdir: out,
    bundle: true,
    splitting: true,
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [importMetaUrl],
  });
  await build({
    entryPoints: [join(serverSrc, `${OIDC_RUNTIME}.ts`)],
    outfile: join(out, `${OIDC_RUNTIME}.js`),
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    logLevel: 'warning',
  });
  // The files the modules read beside themselves.
  let copied = 0;
  for (const file of walk(serverSrc)) {
    const rel = relative(serverSrc, file);
    if (/[\\/]migrations[\\/]\d{3}_.*\.sql$/.test(file) || rel === join('cli', 'demo.json')) {
      mkdirSync(dirname(join(out, rel)), { recursive: true });
      cpSync(file, join(out, rel));
      copied++;
    }
  }
  say(`dist/server built in ${Date.now() - started} ms (${copied} data files copied)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale') && !serverBuildIsStale()) say('dist/server is up to date');
  else await buildServer();
}
