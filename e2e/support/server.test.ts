import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * e2e/support/server.mjs removes its temporary directory on every exit path. Each run gets
 * a private TMPDIR, so what is left there afterwards is what the server left.
 */
const SERVER = join(dirname(fileURLToPath(import.meta.url)), 'server.mjs');
let base: string;
let fakeConsole: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'fieldwork-e2e-test-'));
  fakeConsole = join(base, 'console');
  mkdirSync(fakeConsole);
  writeFileSync(join(fakeConsole, 'index.html'), '<!doctype html><title>console</title>');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function start(env: Record<string, string>) {
  const tmp = mkdtempSync(join(base, 'tmp-'));
  const port = await freePort();
  // Its own process group, as Playwright starts it (and signals it: kill(-pid)).
  const child = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      TMPDIR: tmp,
      E2E_PORT: String(port),
      E2E_SKIP_BUILD: '1',
      E2E_CONSOLE_SOURCE: fakeConsole,
      E2E_LOG_LEVEL: 'silent',
      DATABASE_URL: '',
      ...env,
    },
    detached: true,
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, tmp, port, exited };
}

async function until(check: () => Promise<boolean>, what: string, child: ChildProcess) {
  for (let i = 0; i < 1800; i++) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before ${what}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within 180 s`);
}

// Only the server's own directories (tsx keeps a cache of its own in TMPDIR).
const entries = (dir: string) => readdirSync(dir).filter((d) => d.startsWith('fieldwork-e2e-'));

describe('e2e/support/server.mjs leaves no temporary directory', () => {
  it('after a failed step, and it removes one left by a killed run', async () => {
    const run = await start({ E2E_CONSOLE_SOURCE: join(base, 'no-such-build') });
    // A directory of an earlier run killed outright (its owner pid is not alive).
    mkdirSync(join(run.tmp, 'fieldwork-e2e-999999999-abc123'));
    expect(await run.exited).toBe(1);
    expect(entries(run.tmp)).toEqual([]);
  });

  it('after SIGTERM to its process group while the service runs', async () => {
    const run = await start({ E2E_SKIP_BULK: '1' });
    await until(
      async () => (await fetch(`http://127.0.0.1:${run.port}/oauth/.well-known/openid-configuration`)).ok,
      'the service answers',
      run.child,
    );
    expect(entries(run.tmp)).toHaveLength(1);
    process.kill(-(run.child.pid as number), 'SIGTERM');
    await run.exited;
    expect(entries(run.tmp)).toEqual([]);
  }, 240_000);

  it('after SIGTERM while the dataset is being imported', async () => {
    const run = await start({});
    await until(
      async () => entries(run.tmp).some((d) => readdirSync(join(run.tmp, d)).includes('data')),
      'the import starts',
      run.child,
    );
    process.kill(-(run.child.pid as number), 'SIGTERM');
    await run.exited;
    expect(entries(run.tmp)).toEqual([]);
  }, 240_000);
});
