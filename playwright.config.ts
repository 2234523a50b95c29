/**
 * End-to-end tests of the console in Debian's Chromium (never a downloaded browser),
 * against a real service started by e2e/support/server.mjs on its own port and data.
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './e2e/support/chromium.mjs';

// Chosen once in the runner process; workers inherit it through the environment.
process.env.E2E_PORT ??= String(20000 + (process.pid % 20000));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 45_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL,
    viewport: { width: 1280, height: 800 },
    // The console honours it (theme.ts): no transition to wait for before each click.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    trace: 'on-first-retry',
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
  },
  // The long-task budgets (e2e/long-tasks.spec.ts) measure the page's CPU: they run last and
  // alone, not beside a second browser on the same two cores. A test of `console` that fails
  // leaves them not run, which scripts/test.mjs counts as failed.
  projects: [
    { name: 'console', testIgnore: 'long-tasks.spec.ts' },
    { name: 'performance', testMatch: 'long-tasks.spec.ts', dependencies: ['console'], workers: 1 },
  ],
  // `npm test` starts the service itself while the PostgreSQL runner works (scripts/test.mjs:
  // its console build and imports overlap that runner) and says so with E2E_SERVER_STARTED.
  webServer: process.env.E2E_SERVER_STARTED
    ? undefined
    : {
        command: 'node e2e/support/server.mjs',
        url: `${baseURL}/oauth/.well-known/openid-configuration`,
        reuseExistingServer: false,
        timeout: 180_000,
        stdout: 'pipe',
        stderr: 'pipe',
        env: { E2E_PORT: process.env.E2E_PORT },
        // SIGTERM to the server's process group, not Playwright's default SIGKILL: the service
        // shuts down and e2e/support/server.mjs removes its temporary data directory.
        gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
      },
});
