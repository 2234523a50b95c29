#!/usr/bin/env node
// npm start: builds the console when it is not built yet and the service when a source is
// newer than its build, loads the demo dataset into an empty database (unless
// FIELDWORK_NO_DEMO=1), then runs the compiled service: node dist/server/main.js.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const consoleDir = join(root, 'dist', 'console');
const say = (line) => process.stderr.write(`[start] ${line}\n`);

/** One line for the built console: its files and what reaching Home downloads. */
function consoleSummary() {
  const res = spawnSync(
    process.execPath,
    [join(root, 'scripts', 'bundle-report.mjs'), consoleDir, '--json'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  const last = res.stdout?.trim().split('\n').at(-1) ?? '';
  try {
    const figures = JSON.parse(last);
    const kB = (n) => `${Math.round(n / 1024)} kB`;
    return `${kB(figures.home.brotli)} brotli (${kB(figures.home.gzip)} gzip) to reach Home, in ${consoleDir}`;
  } catch {
    return consoleDir;
  }
}

function run(command, args, env = process.env) {
  const res = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (res.error) throw res.error;
  return res.status ?? 1;
}

// 1. The console (a static single-page app served by the service at /).
if (existsSync(join(consoleDir, 'index.html'))) {
  say(`console: ${consoleDir} (delete it to rebuild)`);
} else if (existsSync(join(root, 'vite.config.ts'))) {
  say('console not built yet: vite build');
  const started = Date.now();
  // Warnings and errors only: the list of chunks is `npm run build`'s (bundle-report.mjs).
  const code = run(process.execPath, [
    join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
    'build',
    '--logLevel',
    'warn',
  ]);
  if (code !== 0) say('the console build failed; the API starts without it');
  else say(`console built in ${Math.round((Date.now() - started) / 1000)} s: ${consoleSummary()}`);
} else {
  say('no vite.config.ts: the console is not built; the API starts alone');
}

// 2. The service, compiled to JavaScript (scripts/build-server.mjs) when a source changed.
if (run(process.execPath, [join(root, 'scripts', 'build-server.mjs'), '--if-stale']) !== 0) {
  say('the service build failed');
  process.exit(1);
}

// 3. The demo dataset, on an empty database only.
if (process.env.FIELDWORK_NO_DEMO === '1') {
  say('FIELDWORK_NO_DEMO=1: no demo dataset');
} else {
  const code = run(process.execPath, [join(root, 'bin', 'fieldwork.mjs'), 'seed', '--if-empty']);
  if (code !== 0) process.exit(code);
}

// 4. The service, in a child process that receives our signals.
const env = { ...process.env };
if (!env.FIELDWORK_CONSOLE_DIR && existsSync(join(consoleDir, 'index.html')))
  env.FIELDWORK_CONSOLE_DIR = consoleDir;
const child = spawn(process.execPath, [join(root, 'dist', 'server', 'main.js')], {
  cwd: root,
  stdio: 'inherit',
  env,
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[signal] ?? 1) : 1));
});
