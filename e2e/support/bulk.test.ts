import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../src/server/cli/importFile.ts';
import { createTestApp, type TestApp } from '../../src/server/testing/harness.ts';
import { BULK_EXPECTED, bulkDocument } from './bulk.mjs';

/**
 * The e2e dataset and its generated bulk rows import as e2e/support/server.mjs imports them,
 * and the service's totals answer what BULK_EXPECTED (used by the console's tests) says.
 */
let t: TestApp;
const dataset = JSON.parse(readFileSync(new URL('./dataset.json', import.meta.url), 'utf8'));

beforeAll(async () => {
  t = await createTestApp();
  await runImport(t.db, dataset);
  await runImport(t.db, bulkDocument());
});
afterAll(() => t.close());

describe('e2e bulk rows', () => {
  it('deterministic, and idempotent on replay', async () => {
    expect(bulkDocument()).toEqual(bulkDocument());
    const again = await runImport(t.db, bulkDocument());
    expect(again.every((r) => r.created === 0 && r.updated === 0)).toBe(true);
  });

  it('the totals extensions answer BULK_EXPECTED', async () => {
    const activities = (
      await t.call('GET', '/eTech/rest/ws/fieldTracking/v1/workOrders/code:WO-E2E-BULK/activities/totals')
    ).json();
    expect(activities).toMatchObject({
      count: 5000,
      durationSeconds: BULK_EXPECTED.activities.durationSeconds,
      billable: BULK_EXPECTED.activities.billable,
      notBillable: BULK_EXPECTED.activities.notBillable,
      validatedCount: BULK_EXPECTED.activities.validatedCount,
    });
    const used = (
      await t.call('GET', '/eTech/rest/ws/fieldService/v1/workOrders/code:WO-E2E-BULK/items/used/totals')
    ).json();
    expect(used).toMatchObject(BULK_EXPECTED.usedItems);
    const day = (
      await t.call(
        'GET',
        '/eTech/rest/ws/fieldTracking/v1/technicians/code:TECH-N1/positions?positionsStartDate=2025-06-02T00:00&positionsEndDate=2025-06-03T00:00',
      )
    ).json();
    expect(day.data).toHaveLength(500);
    expect(day.continuationToken).toEqual(expect.any(String));
  });
});
