import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/**
 * The short form of bench/crash.mjs on PostgreSQL: the service is SIGKILLed 3 times while
 * customer and asset upserts are written as fast as it answers; every write answered 201/204
 * is there after a restart, with its last acknowledged value, and every committed event
 * (asset.upsert) reaches the webhook receiver.
 */
it('loses no acknowledged write and no committed event over 3 SIGKILLs (PostgreSQL)', () => {
  const script = fileURLToPath(new URL('../../bench/crash.mjs', import.meta.url));
  const res = spawnSync(process.execPath, [script], {
    encoding: 'utf8',
    env: {
      ...process.env,
      BENCH_DATABASE_URL: process.env.TEST_DATABASE_URL,
      DATABASES: 'postgres',
      KILLS: '3',
      // Leases of the deliveries cut by a kill end in 1.3 s instead of 6.5 s (the mechanism is the same).
      FIELDWORK_WEBHOOKS_TIME_SCALE: '0.2',
      WRITERS: '4',
      CUSTOMERS: '16',
    },
    timeout: 280_000,
  });
  const line = res.stdout.trim().split('\n').pop() ?? '';
  expect(res.status, `${res.stdout}${res.stderr}`).toBe(0);
  const result = JSON.parse(line) as {
    database: string;
    kills: number;
    acknowledged: number;
    lost: number;
    eventsCommitted: number;
    eventsMissing: number;
  };
  expect(result).toMatchObject({ database: 'PostgreSQL', kills: 3, lost: 0, eventsMissing: 0 });
  expect(result.acknowledged).toBeGreaterThan(0);
  expect(result.eventsCommitted).toBeGreaterThan(0);
}, 290_000);
