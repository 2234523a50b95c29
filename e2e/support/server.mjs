#!/usr/bin/env node
/**
 * The service the end-to-end tests run against (Playwright's webServer), one per run:
 * builds the console into a private directory (so that a concurrent `npm run build` in the
 * tree cannot pull it away mid-run; E2E_SKIP_BUILD=1 copies E2E_CONSOLE_SOURCE, default
 * dist/console, instead), imports the e2e dataset into a fresh temporary DATA_DIR through
 * `fieldwork import` (dataset.json with BULK_ITEMS generated items, so that the items list
 * spans two pages; then the generated bulk rows of bulk.mjs unless E2E_SKIP_BULK=1), then
 * runs the real service (src/server/main.ts) on E2E_PORT.
 *
 * The temporary directory is removed on every exit path: a failed step, SIGTERM or SIGINT
 * at any stage (Playwright sends SIGTERM to the process group, see playwright.config.ts),
 * the service exiting. A directory left by a run that was killed outright (SIGKILL) is
 * removed by the next run: its name carries the process id of its owner.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bulkDocument } from './bulk.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const port = process.env.E2E_PORT ?? '4173';
const PREFIX = 'fieldwork-e2e-';

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
};
for (const name of readdirSync(tmpdir())) {
  const owner = Number(new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1]);
  if (owner && !alive(owner)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
}

const work = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
const removeWork = () => rmSync(work, { recursive: true, force: true });
// Synchronous, so it runs whatever ends the process (exit, uncaught error, signal below).
process.on('exit', removeWork);

const dataDir = join(work, 'data');
const datasetFile = join(work, 'dataset.json');
/** More than one page of the items list (200 a page): the grid loads the next one on scroll. */
const BULK_ITEMS = 230;
const dataset = JSON.parse(readFileSync(join(root, 'e2e/support/dataset.json'), 'utf8'));
dataset.items = [
  ...(dataset.items ?? []),
  ...Array.from({ length: BULK_ITEMS }, (_, i) => ({
    itemCode: `BULK-${String(i + 1).padStart(4, '0')}`,
    name: `Bulk part ${i + 1}`,
    category: ['Cables', 'Filters', 'Pumps', 'Valves'][i % 4],
    unit: 'piece',
    unitPrice: Math.round((i + 1) * 137) / 100,
    vatRates: [20],
    active: i % 9 !== 0,
  })),
];
writeFileSync(datasetFile, JSON.stringify(dataset));
const consoleDir = join(work, 'console');
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: port,
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  FIELDWORK_NO_DEMO: '1',
  FIELDWORK_CONSOLE_DIR: consoleDir,
  // The tests click quickly through many pages as one user.
  FIELDWORK_RATE_LIMITS: JSON.stringify({
    high: { perMinute: 100000, perHour: 1000000 },
    standard: { perMinute: 100000, perHour: 1000000 },
    low: { perMinute: 100000, perHour: 1000000 },
  }),
  LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
  // e2e/webhooks.spec.ts subscribes a receiver it starts on loopback (http://127.0.0.1:port),
  // and watches its retries: private addresses allowed, every delay of delivery at a fifth
  // (retries after about 1 s and 2 s, a 1 s answer deadline). Only that spec subscribes, and
  // it deletes its subscriptions: the other specs' changes reach its receivers only while it
  // runs (it tells callbacks apart by event type and asset code).
  FIELDWORK_WEBHOOKS_ALLOW_PRIVATE: '1',
  FIELDWORK_WEBHOOKS_TIME_SCALE: '0.2',
};
// Playwright sets FORCE_COLOR=1 for its web server; with NO_COLOR (plain CI logs) Node would
// warn at every child's start that one overrides the other.
if (env.NO_COLOR) delete env.FORCE_COLOR;

let current;
let stopping = false;
const stop = (signal) => {
  stopping = true;
  if (current && current.exitCode === null) current.kill(signal);
  else process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

/** Runs one child to its end; a failure (or a stop asked meanwhile) ends this process. */
function step(label, args, stdio = 'inherit') {
  return new Promise((resolve) => {
    current = spawn(process.execPath, args, { cwd: root, env, stdio });
    current.on('exit', (code, signal) => {
      current = undefined;
      if (stopping) process.exit(code ?? 1);
      if (code !== 0) {
        console.error(`e2e server: ${label} failed (${code ?? signal})`);
        process.exit(1);
      }
      resolve();
    });
  });
}

if (process.env.E2E_SKIP_BUILD) {
  try {
    cpSync(process.env.E2E_CONSOLE_SOURCE ?? join(root, 'dist/console'), consoleDir, { recursive: true });
  } catch (e) {
    console.error(`e2e server: cannot copy the built console: ${e.message}`);
    process.exit(1);
  }
} else {
  await step('console build', [
    join(root, 'node_modules/vite/bin/vite.js'),
    'build',
    '--logLevel',
    'warn',
    '--outDir',
    consoleDir,
  ]);
  // The build's budgets (bundle-report.mjs: the shell's size, no form code on the pages that
  // only show, the precompressed files) are checked on every test run, its failures said.
  await step(
    'bundle budgets',
    [join(root, 'scripts/bundle-report.mjs'), consoleDir],
    ['ignore', 'ignore', 'inherit'],
  );
}
await step('dataset import', [join(root, 'bin/fieldwork.mjs'), 'import', datasetFile]);
// The bulk rows (5,000 activities of WO-E2E-BULK...), generated rather than committed.
// E2E_SKIP_BULK=1 (server.test.ts, which tests this script's clean-up, not the data): none.
if (!process.env.E2E_SKIP_BULK) {
  const bulkFile = join(work, 'bulk.json');
  writeFileSync(bulkFile, JSON.stringify(bulkDocument()));
  await step('bulk import', [join(root, 'bin/fieldwork.mjs'), 'import', bulkFile]);
}

current = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/server/main.ts')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
current.on('exit', (code) => process.exit(code ?? 0));
