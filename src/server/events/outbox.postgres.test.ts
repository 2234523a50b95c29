/**
 * Two service processes on one PostgreSQL schema (the second built on the first's
 * configuration), each with its delivery worker: every callback is attempted once, by one
 * of them (rows claimed with FOR UPDATE SKIP LOCKED, woken by NOTIFY); a callback claimed
 * by a worker that died is taken again once its lease is over.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putAsset } from '../../contract/referentials.ts';
import { createSubscription } from '../../contract/webhooks.ts';
import { buildApp } from '../app.ts';
import { NO_RATE_LIMITS, type Receiver, startReceiver } from '../domains/webhooks/testReceiver.ts';
import { pathOf } from '../testing/api.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { recordEvent } from './index.ts';
import { claimDue } from './outbox.ts';
import { deliveryTimes } from './schedule.ts';

// A lease of 3.5 s (a 3 s margin past the 0.5 s timeout): at 0.05 (1.75 s, a 1.5 s margin)
// a machine loaded by other runners once stalled a worker past its lease, and a second
// worker delivered the same callback again, as at-least-once delivery allows.
const SCALE = 0.1;
let t: TestApp;
let other: FastifyInstance;
let receiver: Receiver;

beforeAll(async () => {
  // Each answer takes a little while, so that one worker cannot take everything.
  receiver = await startReceiver(() => ({ delayMs: 20 }));
  t = await createTestApp({
    rateLimits: NO_RATE_LIMITS,
    webhooks: { worker: true, allowPrivate: true, timeScale: SCALE, concurrency: 3 },
  });
  other = await buildApp(t.config, { logger: false });
});
afterAll(async () => {
  await other?.close();
  await t?.close();
  await receiver?.close();
});

async function subscribe(path: string) {
  const res = await t.api(createSubscription, {
    body: { eventTypes: ['asset.upsert'], callbackUrl: `${receiver.url}${path}` },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().subscriptionId as string;
}
const at = (path: string) => (r: { url: string }) => r.url === path;

describe('several processes on one database', () => {
  it('deliver each callback once, sharing the work', async () => {
    const id = await subscribe('/shared');
    // Changes made through both processes.
    for (let batch = 0; batch < 8; batch++)
      await Promise.all(
        Array.from({ length: 5 }, async (_, i) => {
          // Half through the other process, which has no t.api: the row's path, injected.
          const app = i % 2 === 0 ? t.app : other;
          const res = await app.inject({
            method: putAsset.method,
            url: pathOf(putAsset, { assetCode: `SHARED-${batch}-${i}` }),
            headers: { authorization: `Bearer ${await t.token()}`, 'content-type': 'application/json' },
            payload: JSON.stringify({ name: 'Shared' }),
          });
          expect(res.statusCode).toBe(201);
        }),
      );
    const got = await receiver.waitFor(40, at('/shared'));
    // Let any duplicate arrive before counting.
    await new Promise((r) => setTimeout(r, 500));
    const all = receiver.received.filter(at('/shared'));
    expect(all).toHaveLength(40);
    expect(new Set(got.map((r) => r.json.id)).size).toBe(40);
    expect(new Set(got.map((r) => r.json.data.assetCode)).size).toBe(40);

    const attempts = await t.db
      .selectFrom('webhook_attempts')
      .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
      .select(['webhook_attempts.worker', 'webhook_attempts.delivery_id'])
      .where('webhook_deliveries.subscription_id', '=', id)
      .execute();
    expect(attempts).toHaveLength(40);
    expect(new Set(attempts.map((a) => a.delivery_id)).size).toBe(40);
    // Both processes delivered some.
    expect(new Set(attempts.map((a) => a.worker)).size).toBe(2);
  });

  it('a callback claimed by a worker that died is delivered once its lease is over', async () => {
    await subscribe('/orphan');
    const times = deliveryTimes(SCALE);
    const root = await t.db
      .selectFrom('offices')
      .select('id')
      .where('code', '=', 'ROOT')
      .executeTakeFirstOrThrow();
    // A worker records and claims in one transaction, then dies without sending.
    const claimedAt = Date.now();
    const claimed = await t.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 3; i++)
        await recordEvent(trx, {
          type: 'asset.upsert',
          officeId: String(root.id),
          data: { updatedAt: new Date().toISOString(), assetCode: `ORPHAN-${i}`, officeCode: 'ROOT' },
        });
      return claimDue(trx, 10, times.leaseMs);
    });
    expect(claimed.filter((c) => c.callback_url.endsWith('/orphan'))).toHaveLength(3);
    const got = await receiver.waitFor(3, at('/orphan'));
    for (const r of got) expect(r.at - claimedAt).toBeGreaterThanOrEqual(times.leaseMs - 50);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received.filter(at('/orphan'))).toHaveLength(3);
  });
});
