#!/usr/bin/env node
// npm run bench -- console: the console's figures in Chromium (bench/console/metrics.spec.ts):
// bytes a browser downloads to reach Home by content encoding, route transition times, and
// long tasks and frames while scrolling 20,000 rows of a work order's grid (workorders.spec.ts).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const res = spawnSync(
  process.execPath,
  [join(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'bench/console/playwright.config.ts'],
  { cwd: root, stdio: 'inherit', env: process.env },
);
process.exit(res.status ?? 1);
