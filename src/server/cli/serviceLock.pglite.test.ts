import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCapturedCli } from '../testing/cli.ts';
import { holdDataDir, PID_FILE, processStart } from './serviceLock.ts';

/** The PGlite data directory lock (serviceLock.ts) as the command line meets it. */
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-lock-'));
const dataDir = join(dir, 'data');
const lockFile = join(dataDir, PID_FILE);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCapturedCli(argv, { config: { dataDir, databaseUrl: undefined } });

// The parent of this test worker is alive and is not this process: it stands for a holder.
const other = process.ppid;
const lockOf = (pid: number, start: string | undefined, holder = 'service') =>
  `${JSON.stringify({ pid, start, holder, nonce: 'x' })}\n`;

// The database is made once (migrations take a while on a busy machine).
beforeAll(async () => {
  expect((await cli('offices')).code).toBe(0);
}, 180_000);
beforeEach(() => rmSync(lockFile, { force: true }));

describe('the PGlite directory lock', () => {
  it('refuses a directory held by a live service (its start token matches)', async () => {
    writeFileSync(lockFile, lockOf(other, processStart(other)));
    const res = await cli('offices');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`the service (pid ${other}) holds DATA_DIR=`);
    expect(res.stderr).toContain('stop it first or use the API');
    expect(readFileSync(lockFile, 'utf8')).toBe(lockOf(other, processStart(other)));
  });

  it('takes over a stale file naming a live but unrelated process (another start token)', async () => {
    expect(processStart(other)).toMatch(/^\d+$/);
    writeFileSync(lockFile, lockOf(other, '1'));
    const res = await cli('offices');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
  });

  it('takes over a file naming a process that is gone (also in the bare-pid format of older versions)', async () => {
    writeFileSync(lockFile, '999999999\n');
    expect((await cli('offices')).code).toBe(0);
    writeFileSync(lockFile, lockOf(999999999, '12345'));
    expect((await cli('offices')).code).toBe(0);
  });

  it('holds the directory while a command runs, and releases it after', async () => {
    const release = holdDataDir({ dataDir }, 'import');
    try {
      const res = await cli('offices');
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`fieldwork import (pid ${process.pid}) holds DATA_DIR=`);
      expect(res.stderr).toContain('wait for it to finish');
    } finally {
      release();
    }
    expect((await cli('offices')).code).toBe(0);
    expect(() => readFileSync(lockFile)).toThrow();
  });

  it('lets one of two concurrent openers in: of two imports at once, one runs and the other is refused', async () => {
    const file = join(dir, 'offices.json');
    writeFileSync(file, JSON.stringify({ offices: [{ code: 'LOCKED', name: 'Locked' }] }));
    const [a, b] = await Promise.all([cli('import', file), cli('import', file)]);
    expect([a.code, b.code].sort()).toEqual([0, 1]);
    expect(`${a.stderr}${b.stderr}`).toContain('fieldwork import (pid');
    expect((await cli('offices')).stdout).toContain('LOCKED');
  });
});
