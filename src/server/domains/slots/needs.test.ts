/**
 * A work order's needs (extension for the planner): its type's duration and skills, its place
 * and where a slot search locates it; unknown or outside the caller's tree is 404, several
 * live work orders of one code are ambiguous.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWorkOrderNeeds, SlotsCodes, searchSlots } from '../../../contract/slots.ts';
import { runImport } from '../../cli/importFile.ts';
import { codesOf } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { futureMonday, LILLE, slotFixture } from './fixture.ts';

/** A work order's needs, as a client (the code encoded, as a client sends it). */
const needs = (code: string, as: TestClient = 'root') =>
  t.api(getWorkOrderNeeds, { params: { workOrderCode: encodeURIComponent(code) }, as });
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const fixture = slotFixture(futureMonday());
  await runImport(t.db, {
    ...fixture,
    workOrders: [
      ...fixture.workOrders,
      // Located by the operator's gazetteer row (zip code 99999).
      {
        workOrderCode: 'WO-ZIP',
        workOrderTypeCode: 'GASFIX',
        status: 'NEW',
        officeCode: 'NORTH',
        location: { zipCode: '99999', country: 'FR' },
      },
      { workOrderCode: 'WO-NOWHERE', workOrderTypeCode: 'REPAIR', status: 'NEW', officeCode: 'NORTH' },
      {
        uuid: '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
        workOrderCode: 'WO-TWICE',
        workOrderTypeCode: 'REPAIR',
        status: 'NEW',
        officeCode: 'NORTH',
      },
      {
        uuid: '1b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
        workOrderCode: 'WO-TWICE',
        workOrderTypeCode: 'REPAIR',
        status: 'QUALIFIED',
        officeCode: 'NORTH',
      },
    ],
  });
});
afterAll(() => t.close());

describe('GET /rest/v3/slots/workOrders/code:{code}/needs', () => {
  it('the type (duration, sorted skills), the place, and the target from its coordinates', async () => {
    const res = await needs('wo-new');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      workOrderCode: 'WO-NEW',
      status: 'NEW',
      officeCode: 'NORTH',
      workOrderType: { workOrderTypeCode: 'REPAIR', name: 'Repair', durationMinutes: 60, skills: ['ELEC'] },
      location: { address: null, zipCode: '59000', city: 'Lille', country: null, ...LILLE },
      target: { ...LILLE, source: 'workOrder' },
    });
    expect(res.json().uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a place without coordinates is located as the search would (gazetteer), or not at all (null)', async () => {
    let res = await needs('WO-ZIP');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().target).toEqual({ latitude: 50.5, longitude: 3.1, source: 'gazetteer' });
    res = await needs('WO-NOWHERE');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().target).toBeNull();
    // The search itself agrees: no place for this work order is 3011.
    const search = await t.api(searchSlots, {
      body: {
        workOrderType: { code: 'REPAIR' },
        workOrder: { code: 'WO-NOWHERE' },
        timeRanges: [{ start: `${futureMonday()}T08:00`, end: `${futureMonday()}T18:00` }],
      },
    });
    expect(search.statusCode).toBe(400);
    expect(codesOf(search)).toEqual(['3011']);
  });

  it('unknown, or outside the caller office tree: 404 slots.workorder.notfound', async () => {
    for (const [code, as] of [
      ['WO-NONE', 'root'],
      ['WO-SOUTH', 'north'],
    ] as const) {
      const res = await needs(code, as);
      expect(res.statusCode, code).toBe(404);
      expect(codesOf(res)).toEqual([SlotsCodes.workOrderNotFound]);
    }
    expect((await needs('WO-SOUTH', 'south')).statusCode).toBe(200);
  });

  it('several live work orders of the code: 400 slots.workorder.code.ambiguous', async () => {
    const res = await needs('WO-TWICE');
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toEqual([SlotsCodes.workOrderAmbiguous]);
  });
});
