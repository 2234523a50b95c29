/**
 * The hour of retries, run in 3.6 s (time scale 0.001): a receiver that always fails gets
 * the same callback again and again, never more than 10 minutes (scaled) apart, until the
 * hour after the event is over; then the callback is `failed` and nothing more is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putAsset } from '../../../contract/referentials.ts';
import { createSubscription, listDeliveries } from '../../../contract/webhooks.ts';
import { deliveryTimes, RETRY_MAX_DELAY_MS } from '../../events/schedule.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { NO_RATE_LIMITS, type Receiver, startReceiver } from './testReceiver.ts';

const SCALE = 0.001;
/** How late (real ms) a due attempt may start on a busy machine (818 ms gaps seen at load 18): 300 s at
 * this scale. An uncapped back-off (1,280 ms after 640) still fails the gap check. */
const PICKUP_MS = 300;
let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 500 }));
  t = await createTestApp({
    rateLimits: NO_RATE_LIMITS,
    webhooks: { worker: true, allowPrivate: true, timeScale: SCALE, concurrency: 4 },
  });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe('giving up', () => {
  it('retries for one hour (scaled) with back-off capped at 10 minutes, then gives up', async () => {
    const sub = await t.api(createSubscription, {
      body: { eventTypes: ['asset.upsert'], callbackUrl: `${receiver.url}/always-500` },
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const id = sub.json().subscriptionId;
    expect((await t.api(putAsset, { params: { assetCode: 'DOOMED' }, body: { name: 'x' } })).statusCode).toBe(
      201,
    );

    const times = deliveryTimes(SCALE);
    let entry: Record<string, unknown> = {};
    for (let i = 0; i < 600 && entry.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      entry = (await t.api(listDeliveries, { params: { subscriptionId: id } })).json().data[0] ?? {};
    }
    expect(entry).toMatchObject({ status: 'failed', nextAttemptAt: null, deliveredAt: null });

    const delivery = await t.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'created_at', 'finished_at', 'attempts'])
      .where('subscription_id', '=', id)
      .executeTakeFirstOrThrow();
    const attempts = await t.db
      .selectFrom('webhook_attempts')
      .select(['attempt', 'started_at', 'status_code', 'error'])
      .where('delivery_id', '=', delivery.id)
      .orderBy('id')
      .execute();
    // 5, 10, 20... ms then 600 ms apart (scaled): about a dozen attempts in 3.6 s.
    expect(attempts.length).toBeGreaterThanOrEqual(8);
    expect(delivery.attempts).toBe(attempts.length);
    expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_, i) => i + 1));
    const start = delivery.created_at.getTime();
    const last = attempts[attempts.length - 1].started_at.getTime();
    // Every attempt scheduled within the hour (it starts when a worker picks it up, up to
    // PICKUP_MS later on a loaded machine); the last one close enough to its end that one
    // more retry (at most 10 minutes later) would have fallen beyond it.
    expect(last - start).toBeLessThan(times.windowMs + PICKUP_MS);
    expect(last - start + RETRY_MAX_DELAY_MS * SCALE).toBeGreaterThan(times.windowMs - 100);
    for (let i = 1; i < attempts.length; i++) {
      const gap = attempts[i].started_at.getTime() - attempts[i - 1].started_at.getTime();
      // Never more than 10 minutes apart (scaled), allowing for the attempt's own time.
      expect(gap).toBeLessThanOrEqual(RETRY_MAX_DELAY_MS * SCALE + times.timeoutMs + PICKUP_MS);
    }
    // Every attempt reached the receiver with the same callback id.
    const ids = new Set(receiver.received.map((r) => r.json.id));
    expect([...ids]).toEqual([delivery.id]);

    // Nothing more once given up: no attempt after the last one recorded, and no request
    // beyond them reaches the receiver (an attempt that timed out on a loaded machine may
    // still arrive late, so the receiver's count is bounded, not frozen).
    await new Promise((r) => setTimeout(r, RETRY_MAX_DELAY_MS * SCALE + 200));
    const after = await t.db
      .selectFrom('webhook_attempts')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('delivery_id', '=', delivery.id)
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(attempts.length);
    expect(receiver.received.length).toBeLessThanOrEqual(attempts.length);
  });
});
