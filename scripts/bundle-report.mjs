#!/usr/bin/env node
/**
 * After `vite build`: every chunk of dist/console with its raw, gzip and brotli size, then
 * what a user downloads, and the budgets:
 *
 * - boot: the entry (src/console/boot.ts) and its static imports, what every page load
 *   fetches before the sign-in redirect;
 * - to reach Home: index.html, the boot, the app (main.tsx) and the Home page's chunks,
 *   with their CSS; the app's JS must stay under BUDGET_KB of gzip;
 * - each page (a route's lazily loaded chunk) with what it adds; the pages that only show
 *   (lists, record pages, Home) must not load the form code (react-hook-form,
 *   @mantine/dates), told by the modules in each chunk's source map.
 *
 * - the precompressed siblings the service sends (`x.js.br`, `x.js.gz`, vite.config.ts) are
 *   the files as written, byte for byte.
 *
 * `node scripts/bundle-report.mjs [dir] [--json]`: the figures as JSON on the last line too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const DIR = args.find((a) => !a.startsWith('--')) ?? 'dist/console';
const JSON_OUT = args.includes('--json');
const BUDGET_KB = 250;
const BOOT_BUDGET_KB = 12;
const FORM_MODULES = /node_modules\/(react-hook-form|@hookform|@mantine\/dates|dayjs)\//;
/**
 * Pages that show records without editing them: they must not load the form code. The crews,
 * the board and a technician's day are not here: their period is picked in a calendar.
 */
const NO_FORMS = [
  'src/console/routes/pages/HomePage.tsx',
  'src/console/features/referentials/pages/ListPage.tsx',
  'src/console/features/referentials/pages/DetailPage.tsx',
  'src/console/features/catalog/pages/ItemsPage.tsx',
  'src/console/features/catalog/pages/ItemDetailPage.tsx',
  'src/console/features/catalog/pages/SkillsPage.tsx',
  'src/console/features/catalog/pages/CharacteristicsPage.tsx',
  'src/console/features/projects/pages/ProjectsPage.tsx',
  'src/console/features/projects/pages/ServiceOrdersPage.tsx',
  'src/console/features/projects/pages/ProjectLinkerPage.tsx',
  'src/console/features/projects/pages/ServiceOrderLinkerPage.tsx',
  'src/console/features/webhooks/pages/SubscriptionsPage.tsx',
  'src/console/features/webhooks/pages/SubscriptionPage.tsx',
];

const manifest = JSON.parse(readFileSync(join(DIR, '.vite/manifest.json'), 'utf8'));
const byKey = new Map(Object.entries(manifest).map(([src, c]) => [src, { src, ...c }]));
const chunks = [...byKey.values()];

const sizes = new Map();
function sizeOf(file) {
  if (!sizes.has(file)) {
    const buf = readFileSync(join(DIR, file));
    sizes.set(file, {
      raw: buf.length,
      gzip: gzipSync(buf, { level: 9 }).length,
      brotli: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    });
  }
  return sizes.get(file);
}
const sum = (files) =>
  [...files].reduce(
    (t, f) => {
      const s = sizeOf(f);
      return { raw: t.raw + s.raw, gzip: t.gzip + s.gzip, brotli: t.brotli + s.brotli };
    },
    { raw: 0, gzip: 0, brotli: 0 },
  );
const kb = (n) => `${(n / 1024).toFixed(1).padStart(7)} kB`;
const line = (label, s) => `${label.padEnd(44)} ${kb(s.raw)} ${kb(s.gzip)} ${kb(s.brotli)}`;

/** A chunk and its static imports, transitively (keys of the manifest). */
function closure(key, seen = new Set()) {
  if (seen.has(key) || !byKey.has(key)) return seen;
  seen.add(key);
  for (const dep of byKey.get(key).imports ?? []) closure(dep, seen);
  return seen;
}
const filesOf = (keys) => {
  const out = new Set();
  for (const k of keys) {
    const c = byKey.get(k);
    out.add(c.file);
    for (const css of c.css ?? []) out.add(css);
  }
  return out;
};
const jsOf = (files) => new Set([...files].filter((f) => f.endsWith('.js')));

const sourcesCache = new Map();
function sourcesOf(file) {
  if (!sourcesCache.has(file)) {
    let sources = [];
    try {
      sources = JSON.parse(readFileSync(join(DIR, `${file}.map`), 'utf8')).sources ?? [];
    } catch {
      // no source map: nothing known about the chunk's modules
    }
    sourcesCache.set(file, sources);
  }
  return sourcesCache.get(file);
}

const entry = chunks.find((c) => c.isEntry);
const boot = closure(entry.src);
const app = byKey.get('src/console/main.tsx');
const appKeys = app ? closure(app.src, new Set(boot)) : boot;
const homeKeys = closure('src/console/routes/pages/HomePage.tsx', new Set(appKeys));

console.log('\nchunk                                              raw        gzip     brotli   loaded');
const rows = chunks
  .filter((c) => c.file.endsWith('.js'))
  .map((c) => ({ c, ...sizeOf(c.file) }))
  .sort((a, b) => b.gzip - a.gzip);
for (const { c, raw, gzip, brotli } of rows) {
  const when = boot.has(c.src)
    ? 'boot'
    : appKeys.has(c.src)
      ? 'app'
      : c.isDynamicEntry
        ? 'lazy (page)'
        : 'lazy (shared)';
  console.log(`${line(c.file.replace('assets/', ''), { raw, gzip, brotli })}   ${when}`);
}
for (const f of new Set(chunks.flatMap((c) => c.css ?? [])))
  console.log(`${line(f.replace('assets/', ''), sizeOf(f))}   css`);

const html = sizeOf('index.html');
const bootFiles = filesOf(boot);
const appFiles = filesOf(appKeys);
const homeFiles = new Set([...filesOf(homeKeys), 'index.html']);
const figures = {
  boot: sum(jsOf(bootFiles)),
  app: sum(jsOf(appFiles)),
  home: sum(homeFiles),
  homeFiles: homeFiles.size,
  html,
  pages: {},
};
console.log('\n                                                   raw        gzip     brotli');
console.log(line(`boot (${jsOf(bootFiles).size} JS file(s))`, figures.boot));
console.log(line(`sign-in + shell: boot + app (${jsOf(appFiles).size} JS)`, figures.app));
console.log(line(`to reach Home (${homeFiles.size} files: html, JS, CSS)`, figures.home));

let failed = false;
console.log('\npage (what its first visit adds to the app)         raw        gzip     brotli   forms');
for (const c of chunks.filter((x) => x.isDynamicEntry && /\/pages\//.test(x.src))) {
  const keys = closure(c.src);
  const added = [...filesOf(keys)].filter((f) => !appFiles.has(f));
  const forms = [...jsOf(filesOf(keys))].some((f) => sourcesOf(f).some((s) => FORM_MODULES.test(s)));
  const s = sum(added);
  figures.pages[c.src] = { ...s, forms };
  console.log(`${line(c.src.replace(/^src\/console\//, ''), s)}   ${forms ? 'yes' : 'no'}`);
  if (forms && NO_FORMS.includes(c.src)) {
    console.error(`FAIL: ${c.src} loads the form code (react-hook-form / @mantine/dates)`);
    failed = true;
  }
}
for (const page of NO_FORMS)
  if (!byKey.get(page)?.isDynamicEntry) {
    console.error(`FAIL: ${page} is not a lazily loaded page of its own`);
    failed = true;
  }

/** Files of the build, recursively (relative paths). */
function filesIn(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesIn(dir, join(prefix, d.name)) : [join(prefix, d.name)],
  );
}
let precompressed = 0;
for (const f of filesIn(DIR).filter((x) => /\.(js|css|html|svg|json)$/.test(x))) {
  const raw = readFileSync(join(DIR, f));
  for (const [ext, decode] of [
    ['.br', brotliDecompressSync],
    ['.gz', gunzipSync],
  ]) {
    if (!existsSync(join(DIR, f + ext))) continue;
    precompressed++;
    if (!decode(readFileSync(join(DIR, f + ext))).equals(raw)) {
      console.error(`FAIL: ${f}${ext} is not ${f} as written`);
      failed = true;
    }
  }
}
console.log(`\nprecompressed siblings checked: ${precompressed}`);

if (figures.app.gzip > BUDGET_KB * 1024) {
  console.error(`FAIL: the sign-in + shell JS is over budget by ${kb(figures.app.gzip - BUDGET_KB * 1024)}`);
  failed = true;
}
if (figures.boot.gzip > BOOT_BUDGET_KB * 1024) {
  console.error(
    `FAIL: the boot entry is over its ${BOOT_BUDGET_KB} kB gzip budget (${kb(figures.boot.gzip)})`,
  );
  failed = true;
}
if (!failed)
  console.log(
    `\nok: budgets (app ${BUDGET_KB} kB, boot ${BOOT_BUDGET_KB} kB gzip) and no form code on the pages that only show`,
  );
if (JSON_OUT) console.log(JSON.stringify(figures));
process.exit(failed ? 1 : 0);
