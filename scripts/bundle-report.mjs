#!/usr/bin/env node
/**
 * After `vite build`: prints every chunk of dist/console with its raw and gzip size, and
 * checks the budget: the entry chunk and everything it imports statically (what the
 * sign-in and the shell load) stays under 250 kB of gzipped JS, and each domain's pages
 * (the lazily imported route modules) sit in chunks of their own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIR = process.argv[2] ?? 'dist/console';
const BUDGET_KB = 250;
const DOMAIN_MODULES = ['src/console/routes/referentials.tsx', 'src/console/routes/catalog.tsx'];

const manifest = JSON.parse(readFileSync(join(DIR, '.vite/manifest.json'), 'utf8'));
const chunks = Object.entries(manifest).map(([src, c]) => ({ src, ...c }));
const byKey = new Map(chunks.map((c) => [c.src, c]));

const sizes = new Map();
const sizeOf = (file) => {
  if (!sizes.has(file)) {
    const buf = readFileSync(join(DIR, file));
    sizes.set(file, { raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length });
  }
  return sizes.get(file);
};
const kb = (n) => `${(n / 1024).toFixed(1).padStart(7)} kB`;

/** A chunk and its static imports, transitively. */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of byKey.get(key)?.imports ?? []) closure(dep, seen);
  return seen;
}

const entry = chunks.find((c) => c.isEntry);
const initial = closure(entry.src);

console.log('\nchunk                                              raw        gzip   loaded');
const rows = chunks
  .filter((c) => c.file.endsWith('.js'))
  .map((c) => ({ c, ...sizeOf(c.file) }))
  .sort((a, b) => b.gzip - a.gzip);
for (const { c, raw, gzip } of rows) {
  const when = initial.has(c.src) ? 'initial' : c.isDynamicEntry ? 'lazy (route)' : 'lazy (shared)';
  console.log(`${c.file.replace('assets/', '').padEnd(44)} ${kb(raw)} ${kb(gzip)}   ${when}`);
}
const css = [...new Set(chunks.flatMap((c) => c.css ?? []))];
for (const f of css) {
  const { raw, gzip } = sizeOf(f);
  console.log(`${f.replace('assets/', '').padEnd(44)} ${kb(raw)} ${kb(gzip)}   css`);
}

const initialJs = [...initial].map((k) => byKey.get(k).file).filter((f) => f.endsWith('.js'));
const total = initialJs.reduce((n, f) => n + sizeOf(f).gzip, 0);
const totalRaw = initialJs.reduce((n, f) => n + sizeOf(f).raw, 0);
console.log(
  `\nsign-in + shell (entry and its static imports): ${initialJs.length} chunks, ${kb(totalRaw)} raw, ${kb(total)} gzip (budget ${BUDGET_KB} kB gzip)`,
);

let failed = false;
if (total > BUDGET_KB * 1024) {
  console.error(`FAIL: the initial JS is over budget by ${kb(total - BUDGET_KB * 1024)}`);
  failed = true;
}
for (const mod of DOMAIN_MODULES) {
  const c = byKey.get(mod);
  if (!c) {
    console.log(`note: ${mod} is not part of this build`);
    continue;
  }
  if (initial.has(mod) || !c.isDynamicEntry) {
    console.error(`FAIL: ${mod} is loaded with the shell; its pages must be a lazy chunk of their own`);
    failed = true;
  } else console.log(`ok: ${mod} -> ${c.file} (lazy, ${kb(sizeOf(c.file).gzip)} gzip)`);
}
process.exit(failed ? 1 : 0);
