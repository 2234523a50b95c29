#!/usr/bin/env node
/**
 * Summarizes V8 CPU profiles (`node --cpu-prof`, e.g. `CPU_PROF=/tmp/prof node
 * bench/compare.mjs`): the share of samples by where the time went (idle, garbage
 * collection, our code, each package, Node's internals) and the functions with the most
 * self time.
 *
 *   node bench/support/profile-summary.mjs <file.cpuprofile or folder> [top=25]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [target, topArg] = process.argv.slice(2);
if (!target) {
  console.error('usage: node bench/support/profile-summary.mjs <file.cpuprofile or folder> [top]');
  process.exit(2);
}
const TOP = Number(topArg ?? 25);
const files = statSync(target).isDirectory()
  ? readdirSync(target, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(target, f))
  : [target];

function category(frame) {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(garbage collector)') return 'garbage collector';
    if (functionName === '(program)') return 'V8 and native (program)';
    return `native: ${functionName || '(anonymous)'}`;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node internals';
  if (/\/(?:dist\/server|src)\//.test(url)) return 'fieldwork';
  return url;
}

const byCategory = new Map();
const byFunction = new Map();
let total = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const [id, n] of counts) {
    const frame = nodes.get(id).callFrame;
    total += n;
    const c = category(frame);
    byCategory.set(c, (byCategory.get(c) ?? 0) + n);
    const where = frame.url
      ? `${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(dist|src)\//, '$1/')}:${frame.lineNumber + 1}`
      : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + n);
  }
}
// Shares of the time the process was busy (idle left out): where a request's CPU goes.
const busy = total - (byCategory.get('idle') ?? 0);
byCategory.delete('idle');
byFunction.delete('(idle) ');
const pct = (n) => `${((100 * n) / busy).toFixed(1)} %`;
console.log(
  `${files.length} profile(s), ${total} samples, busy in ${((100 * busy) / total).toFixed(1)} % of them; shares of the busy time:\n`,
);
console.log('| where | share of busy time |\n|---|---|');
for (const [c, n] of [...byCategory].sort((a, b) => b[1] - a[1]).slice(0, 20))
  console.log(`| ${c} | ${pct(n)} |`);
console.log('\n| function (self time) | share of busy time |\n|---|---|');
for (const [f, n] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP))
  console.log(`| ${f} | ${pct(n)} |`);
