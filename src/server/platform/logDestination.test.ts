import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchedDestination, LOG_BATCH_BYTES, LOG_FLUSH_MS } from './logDestination.ts';

const line = (i: number) => `${JSON.stringify({ msg: 'request completed', i, pad: 'x'.repeat(200) })}\n`;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('BatchedDestination', () => {
  let dir: string;
  let file: string;
  let fd: number;
  let out: BatchedDestination;
  const written = () => readFileSync(file, 'utf8');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fieldwork-log-'));
    file = join(dir, 'out.log');
    fd = openSync(file, 'w');
    out = new BatchedDestination(fd);
  });
  afterEach(() => {
    out.close();
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps lines until LOG_BATCH_BYTES wait, then writes them in order, in one batch', async () => {
    const perBatch = Math.ceil(LOG_BATCH_BYTES / Buffer.byteLength(line(0)));
    for (let i = 0; i < perBatch - 1; i++) out.write(line(i));
    await wait(20);
    expect(written()).toBe('');
    out.write(line(perBatch - 1));
    await expect
      .poll(written, { timeout: 2000 })
      .toBe(Array.from({ length: perBatch }, (_, i) => line(i)).join(''));
  });

  it(`writes a lone line within ${LOG_FLUSH_MS} ms`, async () => {
    out.write(line(1));
    expect(written()).toBe('');
    await wait(LOG_FLUSH_MS / 2);
    expect(written()).toBe('');
    await expect.poll(written, { timeout: 2000, interval: 10 }).toBe(line(1));
  });

  it('flushSync writes every waiting line before it returns (the service closing)', () => {
    for (let i = 0; i < 3; i++) out.write(line(i));
    out.flushSync();
    expect(written()).toBe(line(0) + line(1) + line(2));
  });

  it.each([
    ['process.exit()', 'process.exit(3);', 3],
    ['a crash on an uncaught error', "setImmediate(() => { throw new Error('boom'); });", 1],
  ])('writes every line, in order, on %s', (_, end, code) => {
    // 2,000 lines: full batches and the last lines waiting, while libuv's thread pool is
    // busy (its four threads hashing, as under token requests): a write left to the pool
    // would still be queued when the process ends.
    const script = `
      import { pbkdf2 } from 'node:crypto';
      import { BatchedDestination } from ${JSON.stringify(join(import.meta.dirname, 'logDestination.ts'))};
      for (let i = 0; i < 4; i++) pbkdf2('p', 's', 1000000, 32, 'sha256', () => {});
      const out = new BatchedDestination(1);
      for (let i = 0; i < 2000; i++) out.write(\`line \${i} \${'x'.repeat(100)}\\n\`);
      ${end}`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: join(import.meta.dirname, '../../..'),
    });
    expect(child.status, child.stderr).toBe(code);
    expect(child.stdout).toBe(
      Array.from({ length: 2000 }, (_, i) => `line ${i} ${'x'.repeat(100)}\n`).join(''),
    );
  });

  it('stops writing, without failing the caller, once the reader is gone', () => {
    // A batch to `head`, which reads 10 bytes and exits; then more batches to a closed pipe.
    const script = `
      import { BatchedDestination } from ${JSON.stringify(join(import.meta.dirname, 'logDestination.ts'))};
      const out = new BatchedDestination(1);
      const batch = () => { for (let i = 0; i < 200; i++) out.write('x'.repeat(100) + '\\n'); };
      batch();
      setTimeout(() => { batch(); batch(); out.close(); console.error('still running'); }, 300);`;
    const child = spawnSync(
      'bash',
      [
        '-c',
        'set -o pipefail; "$0" --import tsx --input-type=module -e "$1" | head -c 10 >/dev/null',
        process.execPath,
        script,
      ],
      { encoding: 'utf8', cwd: join(import.meta.dirname, '../../..') },
    );
    expect(child.stderr).toContain('still running');
    expect(child.status, child.stderr).toBe(0);
  });

  it('close() writes what waits and leaves the process exit alone', () => {
    const listeners = process.listenerCount('exit');
    const other = new BatchedDestination(fd);
    expect(process.listenerCount('exit')).toBe(listeners + 1);
    other.write(line(7));
    other.close();
    expect(written()).toBe(line(7));
    expect(process.listenerCount('exit')).toBe(listeners);
  });
});
