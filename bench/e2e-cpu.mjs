#!/usr/bin/env node
/**
 * What one end-to-end test's sign-in costs Chromium: with Playwright's own switches or
 * e2e/support/chromium.mjs's (what playwright.config.ts launches), and with or without a
 * Playwright trace recording (screenshots and DOM snapshots of every step, what
 * `trace: 'retain-on-failure'` records for every test; the config now traces a retry only).
 *
 * Starts the e2e service (e2e/support/server.mjs: the console built, the e2e dataset), then
 * for each set of switches launches Debian's Chromium and, ROUNDS times, opens a new
 * browser context (as each test does), signs in as the admin, waits for the items grid,
 * takes a screenshot and stays idle IDLE_MS (as a test waiting on an expectation). The CPU
 * is the browser's own account of every process it ran (CDP SystemInfo.getProcessInfo,
 * read before the contexts close, so that no renderer's time is lost).
 *
 *   node bench/e2e-cpu.mjs        # ROUNDS=4 IDLE_MS=2000
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/support/chromium.mjs';
import { startService } from '../scripts/service.mjs';
import { freePort, log, printTable, root } from './support/service.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 4);
const IDLE_MS = Number(process.env.IDLE_MS ?? 2000);

async function measure(url, args, traced) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args });
  try {
    const started = Date.now();
    for (let i = 0; i < ROUNDS; i++) {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        reducedMotion: 'reduce',
      });
      if (traced) await context.tracing.start({ screenshots: true, snapshots: true });
      const page = await context.newPage();
      await page.goto(`${url}/catalog/items`);
      await page.getByLabel('Login').fill('admin');
      await page.getByLabel('Password').fill('admin-pass');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('row').nth(3).waitFor();
      await page.screenshot();
      await page.waitForTimeout(IDLE_MS);
    }
    const wall = Date.now() - started;
    const cdp = await browser.newBrowserCDPSession();
    const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
    const { targetInfos } = await cdp.send('Target.getTargets');
    const cpu = processInfo.reduce((sum, p) => sum + p.cpuTime, 0) * 1000;
    // What else the browser renders besides the test's pages (the omnibox popup).
    const extra = [...new Set(targetInfos.filter((t) => t.type !== 'page').map((t) => t.url))];
    return { wall, cpu, extra: extra.join(' ') || '-' };
  } finally {
    await browser.close();
  }
}

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
log(`starting the e2e service on ${port} (builds the console)`);
// As npm test starts it (scripts/service.mjs): its own process group, its output in a file.
const service = startService({
  script: join(root, 'e2e/support/server.mjs'),
  env: { ...process.env, E2E_PORT: String(port) },
  readyUrl: `${url}/oauth/.well-known/openid-configuration`,
  log: join(mkdtempSync(join(tmpdir(), 'fieldwork-bench-')), 'e2e-server.log'),
});
if (!(await service.ready(180_000))) {
  log(`the e2e service did not start:\n${service.tail()}`);
  await service.stop();
  process.exit(1);
}
try {
  const defaults = CHROMIUM_ARGS.filter((a) => !a.startsWith('--disable-features='));
  const rows = [];
  for (const [name, args, traced] of [
    ["Playwright's switches, traced", defaults, true],
    ["Playwright's switches", defaults, false],
    ['e2e/support/chromium.mjs, traced', CHROMIUM_ARGS, true],
    ['e2e/support/chromium.mjs', CHROMIUM_ARGS, false],
  ]) {
    log(`${name}: ${ROUNDS} sign-ins`);
    const r = await measure(url, args, traced);
    rows.push([name, Math.round(r.wall / ROUNDS), Math.round(r.cpu / ROUNDS), r.extra]);
  }
  printTable(
    `Chromium per test-like sign-in (items grid, screenshot, ${IDLE_MS} ms idle; ${ROUNDS} rounds)`,
    ['launch', 'wall ms', 'browser CPU ms', 'other targets'],
    rows,
  );
} finally {
  await service.stop();
}
