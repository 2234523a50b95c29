#!/usr/bin/env node
/**
 * The service the end-to-end tests run against (Playwright's webServer): builds the
 * console into a private directory (so that a concurrent `npm run build` in the tree
 * cannot pull it away mid-run; E2E_SKIP_BUILD=1 copies dist/console instead), imports the e2e dataset into a fresh temporary DATA_DIR through
 * `fieldwork import`, then runs the real service (src/server/main.ts) on E2E_PORT.
 * The data directory is removed when the service stops.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const port = process.env.E2E_PORT ?? '4173';
const work = mkdtempSync(join(tmpdir(), 'fieldwork-e2e-'));
const dataDir = join(work, 'data');
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
};

function step(label, cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`e2e server: ${label} failed (${r.status})`);
    rmSync(work, { recursive: true, force: true });
    process.exit(1);
  }
}

if (process.env.E2E_SKIP_BUILD) cpSync(join(root, 'dist/console'), consoleDir, { recursive: true });
else
  step('console build', process.execPath, [
    join(root, 'node_modules/vite/bin/vite.js'),
    'build',
    '--logLevel',
    'warn',
    '--outDir',
    consoleDir,
  ]);
step('dataset import', process.execPath, [
  join(root, 'bin/fieldwork.mjs'),
  'import',
  join(root, 'e2e/support/dataset.json'),
]);

const service = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/server/main.ts')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
const stop = (signal) => {
  if (!service.killed) service.kill(signal);
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
service.on('exit', (code) => {
  rmSync(work, { recursive: true, force: true });
  process.exit(code ?? 0);
});
