import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startService } from './service.mjs';

const script = join(import.meta.dirname, 'fixtures/service.mjs');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a service started ahead of its runner (scripts/service.mjs, the e2e service of npm test)', () => {
  it('is ready once it answers, and stopping it ends its children too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fieldwork-service-'));
    const port = await freePort();
    const service = startService({
      script,
      env: {
        ...process.env,
        SERVICE_PORT: String(port),
        SERVICE_DELAY_MS: '600',
        SERVICE_PIDS: join(dir, 'pids'),
      },
      readyUrl: `http://127.0.0.1:${port}/`,
      log: join(dir, 'log'),
    });
    const started = Date.now();
    expect(await service.ready(10_000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(service.tail()).toContain('listening');
    const grandchild = Number(readFileSync(join(dir, 'pids'), 'utf8'));
    expect(alive(grandchild)).toBe(true);
    expect(await service.stop()).toBe('SIGTERM');
    // The whole process group got the signal, not only the script.
    await expect.poll(() => alive(grandchild), { timeout: 5_000 }).toBe(false);
  });

  it('one that exits before answering is not waited for, and its output says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fieldwork-service-'));
    const service = startService({
      script,
      env: { ...process.env, SERVICE_FAIL: '1' },
      readyUrl: `http://127.0.0.1:${await freePort()}/`,
      log: join(dir, 'log'),
    });
    const started = Date.now();
    expect(await service.ready(30_000)).toBe(false);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(service.tail()).toContain('cannot build the console');
    expect(await service.stop()).toBe(3);
  });
});
