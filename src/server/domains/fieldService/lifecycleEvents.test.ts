import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteWorkOrderByUuid,
  validateWorkOrderByCode,
  validateWorkOrderByUuid,
} from '../../../contract/fieldService.ts';
import { createSubscription } from '../../../contract/webhooks.ts';
import { runImport } from '../../cli/importFile.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { baseFile, U } from '../fieldTracking/fixture.ts';

/**
 * The lifecycle's events reach the webhooks outbox: a subscription of the work order's tree
 * gets one callback per validation and deletion, with the documented data; a subscription of
 * another tree gets none; a refused change queues nothing.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await runImport(t.db, {
    ...baseFile,
    workOrders: [
      ...baseFile.workOrders,
      { workOrderCode: 'WO-CANCEL', workOrderTypeCode: 'REPAIR', status: 'CANCELLED', officeCode: 'NORTH' },
    ],
  });
  for (const as of ['north', 'south'] as const) {
    const res = await t.api(createSubscription, {
      as,
      body: {
        eventTypes: ['workorder.validation', 'workorder.deletion'],
        callbackUrl: `https://hooks.example.com/${as}`,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
});
afterAll(() => t.close());

async function deliveries() {
  const { rows } = await sql<{ event_type: string; data: Record<string, unknown>; callback_url: string }>`
    SELECT d.event_type, d.data, s.callback_url FROM webhook_deliveries d
    JOIN webhook_subscriptions s ON s.id = d.subscription_id ORDER BY d.created_at, d.event_type`.execute(
    t.db,
  );
  return rows;
}

describe('validate and delete queue their callbacks in the same transaction', () => {
  it('workorder.validation and workorder.deletion for the subscriber of the tree only', async () => {
    expect(
      (await t.api(validateWorkOrderByCode, { params: { workOrderCode: 'WO-200' }, as: 'north' })).statusCode,
    ).toBe(204);
    expect(
      (await t.api(validateWorkOrderByCode, { params: { workOrderCode: 'WO-CANCEL' } })).statusCode,
    ).toBe(400);
    expect((await t.api(deleteWorkOrderByUuid, { params: { workOrderUuid: U.W201 } })).statusCode).toBe(204);
    expect((await t.api(validateWorkOrderByUuid, { params: { workOrderUuid: U.W200 } })).statusCode).toBe(
      400,
    );
    const rows = await deliveries();
    expect(rows).toEqual([
      {
        event_type: 'workorder.validation',
        callback_url: 'https://hooks.example.com/north',
        data: {
          validatedAt: expect.stringMatching(/Z$/),
          workOrderCode: 'WO-200',
          uuid: U.W200,
          officeCode: 'NORTH',
          actor: { type: 'webService', identifier: 'Test north' },
        },
      },
      {
        event_type: 'workorder.deletion',
        callback_url: 'https://hooks.example.com/north',
        data: {
          deletedAt: expect.stringMatching(/Z$/),
          workOrderCode: 'WO-201',
          uuid: U.W201,
          officeCode: 'NORTH',
          actor: { type: 'webService', identifier: 'Test root' },
        },
      },
    ]);
  });
});
