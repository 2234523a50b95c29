#!/usr/bin/env node
// npm run dev: the service under `tsx watch` (restarts on change) and the Vite dev server
// of the console (hot reload; it proxies the API to the service, see vite.config.ts).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const children = [];

// The service accepts the sign-in redirects of vite's dev server (port 5173) only when it
// runs for development (src/server/platform/auth/consoleClient.ts).
const env = { ...process.env, FIELDWORK_DEV_CONSOLE: '1' };

function start(name, args) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  child.on('exit', (code, signal) => {
    process.stderr.write(`[dev] ${name} stopped (${signal ?? code})\n`);
    shutdown(code ?? 1);
  });
  children.push(child);
}

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

start('service', [
  join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
  'watch',
  '--clear-screen=false',
  join(root, 'src', 'server', 'main.ts'),
]);
if (existsSync(join(root, 'vite.config.ts'))) {
  start('console', [join(root, 'node_modules', 'vite', 'bin', 'vite.js')]);
} else {
  process.stderr.write('[dev] no vite.config.ts: the console dev server is not started\n');
}
