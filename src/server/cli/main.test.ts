import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PID_FILE } from './serviceLock.ts';

/** The process entry (src/server/main.ts) as npm start runs it, on a PGlite directory. */
const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-main-'));
const dataDir = join(dir, 'data');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function start() {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /Fieldwork is running \((http:\/\/[^,]+),/.exec(stderr);
      if (m) {
        clearInterval(timer);
        resolve(m[1]);
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`exited ${child.exitCode}: ${stderr}`));
      }
    }, 100);
  });
  // The second service is expected to exit: its readiness is awaited only for the first.
  ready.catch(() => {});
  return { child, ready, exited, stderr: () => stderr };
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('src/server/main.ts', () => {
  it('serves, holds DATA_DIR against a second service, and shuts down cleanly on SIGTERM', async () => {
    const first = start();
    const url = await first.ready;
    expect(readFileSync(join(dataDir, PID_FILE), 'utf8').trim()).toBe(String(first.child.pid));
    const res = await fetch(`${url}/openapi.json`);
    expect(res.status).toBe(200);

    const second = start();
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`the service (pid ${first.child.pid}) holds DATA_DIR=`);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, PID_FILE))).toBe(false);
  }, 120_000);
});
