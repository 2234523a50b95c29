/**
 * Idempotency-Key across two service instances on one PostgreSQL database (each its own
 * pool: truly concurrent statements), with the keys in the database and in Redis: a burst of
 * the same POST with one key, spread over both, creates the subscription once; every other
 * answer is the 409 of a request still running or the first answer given again.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommonCodes } from '../../contract/errors.ts';
import { buildApp } from '../app.ts';
import { codesOf } from '../testing/api.ts';
import { createTestApp, NO_RATE_LIMITS, type TestApp } from '../testing/harness.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SUBSCRIPTIONS = '/rest/ws/webhooks/v1/subscriptions';
const BURST = 24;

describe.each([
  ['database', undefined],
  ['redis', REDIS_URL],
])('one key, two instances, %s store', (_store, redisUrl) => {
  let t: TestApp;
  let other: FastifyInstance;
  beforeAll(async () => {
    t = await createTestApp({
      redisUrl,
      instanceId: `test-${randomBytes(6).toString('hex')}`,
      rateLimits: NO_RATE_LIMITS,
    });
    // A second process of the same deployment: the same database schema and instance id.
    other = await buildApp(t.config, { logger: false });
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it(`${BURST} concurrent sends of one POST create one subscription; the others are 409 or the first answer`, async () => {
    const token = await t.token('root');
    const url = `https://hooks.example.com/${randomBytes(6).toString('hex')}`;
    const payload = JSON.stringify({ eventTypes: ['asset.upsert'], callbackUrl: url });
    const key = randomBytes(12).toString('hex');
    const send = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: SUBSCRIPTIONS,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        payload,
      });
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_x, i) => send(i % 2 === 0 ? t.app : other)),
    );
    const done = answers.filter((a) => a.statusCode === 201 && !a.headers['idempotent-replayed']);
    expect(done).toHaveLength(1);
    const subscriptionId = done[0].json().subscriptionId;
    for (const a of answers) {
      if (a === done[0]) continue;
      if (a.statusCode === 409) expect(codesOf(a)).toEqual([CommonCodes.idempotencyKeyInProgress]);
      else {
        expect(a.statusCode, a.body).toBe(201);
        expect(a.headers['idempotent-replayed']).toBe('true');
        expect(a.json().subscriptionId).toBe(subscriptionId);
      }
    }
    const rows = await t.db
      .selectFrom('webhook_subscriptions')
      .select('id')
      .where('callback_url', '=', url)
      .execute();
    expect(rows).toHaveLength(1);
    // Once answered, either instance gives the first answer.
    for (const app of [t.app, other]) {
      const later = await send(app);
      expect(later.headers['idempotent-replayed']).toBe('true');
      expect(later.json().subscriptionId).toBe(subscriptionId);
    }
  });
});
