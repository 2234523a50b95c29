/**
 * The console's figures (bytes to reach Home, route transition times) measured in Debian's
 * Chromium against the e2e service: a benchmark (`npm run bench -- console`), not part of
 * `npm test`, so a busy machine slows a report instead of failing a run.
 */
import { defineConfig } from '@playwright/test';
import base from '../../playwright.config.ts';

export default defineConfig({
  ...base,
  testDir: '.',
  retries: 0,
  reporter: [['list']],
  webServer: base.webServer && { ...base.webServer, command: 'node e2e/support/server.mjs', cwd: '../..' },
});
