import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PID_FILE, processStart } from './serviceLock.ts';

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

describe('src/server/main.ts', () => {
  it('serves, holds DATA_DIR against a second service, and shuts down cleanly on SIGTERM', async () => {
    // A file left by a crash whose pid now names a live, unrelated process (this test's
    // parent, started at another time than the recorded one) does not block the start.
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(
      join(dataDir, PID_FILE),
      JSON.stringify({ pid: process.ppid, start: '1', holder: 'service' }),
    );
    const first = start();
    const url = await first.ready;
    const lock = JSON.parse(readFileSync(join(dataDir, PID_FILE), 'utf8'));
    expect(lock).toMatchObject({ pid: first.child.pid, holder: 'service' });
    expect(lock.start).toBe(processStart(first.child.pid as number));
    const res = await fetch(`${url}/openapi.json`);
    expect(res.status).toBe(200);

    const second = start();
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`the service (pid ${first.child.pid}) holds DATA_DIR=`);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, PID_FILE))).toBe(false);
  }, 240_000);
});
