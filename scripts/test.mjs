#!/usr/bin/env node
// npm test (what CI runs):
//   1. vitest run                      every unit and API test, on PGlite (in memory)
//   2. vitest run src/server           the API suite again on PostgreSQL, when TEST_DATABASE_URL is set
//                                      (files named *.pglite.test.ts run in 1 only, *.postgres.test.ts
//                                      in 2 only: vitest.config.ts; nothing shows as skipped)
//   3. playwright test                 the console end to end, when playwright.config.ts exists; its
//                                      service (e2e/support/server.mjs) is started before runner 2, whose
//                                      waits on PostgreSQL leave a core for its console build and imports
// Each runner writes a JSON report that is counted here. The very last line printed is
// `N passed, N failed` over every runner; the exit code is non-zero when a test failed or a
// runner crashed (a crash counts as one failure).
// `npm test -- e2e` (or `unit`, `postgres`, several) runs only the runners named.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerEnv } from './runnerEnv.mjs';
import { startService } from './service.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = mkdtempSync(join(tmpdir(), 'fieldwork-test-'));
const bin = {
  vitest: join(root, 'node_modules', 'vitest', 'vitest.mjs'),
  playwright: join(root, 'node_modules', '@playwright', 'test', 'cli.js'),
};
const say = (line) => process.stdout.write(`\n[test] ${line}\n`);

/** Runs one runner to completion (or its time limit); resolves with its exit code. */
function run(args, env, limitMinutes) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env });
    const timer = setTimeout(() => {
      say(`time limit of ${limitMinutes} min reached: stopping ${args[0]}`);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    }, limitMinutes * 60_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      say(`cannot start: ${err.message}`);
      resolve(-1);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Counts of a vitest JSON report; a test file that failed to load counts as one failure. */
function countVitest(report) {
  let passed = report.numPassedTests ?? 0;
  let failed = report.numFailedTests ?? 0;
  for (const file of report.testResults ?? []) {
    const failedInFile = (file.assertionResults ?? []).filter((a) => a.status === 'failed').length;
    if (file.status === 'failed' && failedInFile === 0) failed += 1;
  }
  passed = Math.max(passed, 0);
  return { passed, failed };
}

/**
 * Counts of a playwright JSON report: flaky tests passed on retry; a test skipped (none is
 * marked so: the `performance` project's when a test it depends on failed) did not pass.
 */
function countPlaywright(report) {
  const s = report.stats ?? {};
  let failed = (s.unexpected ?? 0) + (s.skipped ?? 0);
  if ((report.errors ?? []).length > 0 && failed === 0) failed = 1;
  return { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed };
}

const RUNNERS = ['unit', 'postgres', 'e2e'];
const only = process.argv.slice(2);
for (const name of only)
  if (!RUNNERS.includes(name)) {
    console.error(`unknown runner ${name} (${RUNNERS.join(', ')})`);
    process.exit(2);
  }
const wanted = (name) => only.length === 0 || only.includes(name);

const results = [];
/** `started`: when its time began (the e2e runner's includes the wait for its service). */
async function runner(name, args, env, reportFile, count, limitMinutes, started = Date.now()) {
  say(`${name}`);
  const code = await run(args, env, limitMinutes);
  const report = readJson(reportFile);
  let counts = report ? count(report) : { passed: 0, failed: 0 };
  let crashed = false;
  if (!report || (code !== 0 && counts.failed === 0)) {
    crashed = true;
    counts = { passed: counts.passed, failed: counts.failed + 1 };
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  results.push({ name, ...counts, crashed, code, seconds });
}

const baseEnv = runnerEnv(process.env);
const testDatabaseUrl = process.env.TEST_DATABASE_URL;

// 1. Everything on PGlite.
if (wanted('unit')) {
  const env = { ...baseEnv };
  delete env.TEST_DATABASE_URL;
  const out = join(reports, 'vitest-pglite.json');
  await runner(
    'vitest (PGlite)',
    [bin.vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    env,
    out,
    countVitest,
    20,
  );
}

let e2eServer;
const e2ePort = String(20000 + (process.pid % 20000));
for (const stop of ['SIGINT', 'SIGTERM'])
  process.on(stop, async () => {
    await e2eServer?.stop();
    process.exit(stop === 'SIGINT' ? 130 : 143);
  });
if (wanted('e2e') && existsSync(join(root, 'playwright.config.ts'))) {
  e2eServer = startService({
    script: join(root, 'e2e/support/server.mjs'),
    env: { ...baseEnv, E2E_PORT: e2ePort },
    readyUrl: `http://127.0.0.1:${e2ePort}/oauth/.well-known/openid-configuration`,
    log: join(reports, 'e2e-server.log'),
  });
}

// 2. The API suite on PostgreSQL.
if (!wanted('postgres')) {
  // not asked for
} else if (testDatabaseUrl) {
  const out = join(reports, 'vitest-postgres.json');
  await runner(
    'vitest src/server (PostgreSQL, TEST_DATABASE_URL)',
    [bin.vitest, 'run', 'src/server', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    { ...baseEnv, TEST_DATABASE_URL: testDatabaseUrl },
    out,
    countVitest,
    12,
  );
} else {
  say('TEST_DATABASE_URL is not set: the API suite does not run on PostgreSQL');
}

// 3. The console end to end.
if (!wanted('e2e')) {
  // not asked for
} else if (e2eServer) {
  const name = 'playwright (console end to end)';
  const started = Date.now();
  if (await e2eServer.ready(180_000)) {
    const out = join(reports, 'playwright.json');
    await runner(
      name,
      [bin.playwright, 'test', '--reporter=line,json'],
      { ...baseEnv, PLAYWRIGHT_JSON_OUTPUT_NAME: out, E2E_PORT: e2ePort, E2E_SERVER_STARTED: '1' },
      out,
      countPlaywright,
      20,
      started,
    );
  } else {
    say(`the e2e service did not start:\n${e2eServer.tail()}`);
    results.push({ name, passed: 0, failed: 1, crashed: true, code: -1, seconds: 0 });
  }
  await e2eServer.stop();
} else {
  say('no playwright.config.ts: no end-to-end tests');
}

rmSync(reports, { recursive: true, force: true });
say('summary');
for (const r of results) {
  process.stdout.write(
    `  ${r.name}: ${r.passed} passed, ${r.failed} failed${r.crashed ? ` (runner exited with ${r.code} without a failing test: counted as 1 failure)` : ''}, ${r.seconds} s\n`,
  );
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exitCode = failed > 0 ? 1 : 0;
