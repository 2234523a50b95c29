#!/usr/bin/env node
// npm run bench: runs every benchmark of this folder in turn (or those named:
// `npm run bench -- referentials`). Each prints its own table. Arguments from the first
// `--option` on are passed to each benchmark run: `npm run bench -- soak --minutes 1`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const all = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
  .map((f) => f.replace(/\.mjs$/, ''))
  .sort();
const argv = process.argv.slice(2);
const firstOption = argv.findIndex((a) => a.startsWith('--'));
const wanted = firstOption < 0 ? argv : argv.slice(0, firstOption);
const passed = firstOption < 0 ? [] : argv.slice(firstOption);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')} (known: ${all.join(', ')})`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length > 0 ? wanted : all) {
  console.log(`\n=== bench/${name}.mjs`);
  const res = spawnSync(process.execPath, [join(here, `${name}.mjs`), ...passed], {
    stdio: 'inherit',
    env: process.env,
  });
  if (res.status !== 0) {
    failed++;
    console.error(`bench/${name}.mjs exited with ${res.status ?? res.signal}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
