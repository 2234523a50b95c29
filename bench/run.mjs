#!/usr/bin/env node
// npm run bench: runs every benchmark of this folder in turn (or those named:
// `npm run bench -- referentials`). Each prints its own table.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const all = readdirSync(here)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
  .map((f) => f.replace(/\.mjs$/, ''))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')} (known: ${all.join(', ')})`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length > 0 ? wanted : all) {
  console.log(`\n=== bench/${name}.mjs`);
  const res = spawnSync(process.execPath, [join(here, `${name}.mjs`)], {
    stdio: 'inherit',
    env: process.env,
  });
  if (res.status !== 0) {
    failed++;
    console.error(`bench/${name}.mjs exited with ${res.status ?? res.signal}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
