import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../cli/importFile.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { findWorkOrder, scheduledEnd } from './service.ts';

let t: TestApp;
const scopeOf = async (code: string) => {
  const o = await t.db
    .selectFrom('offices')
    .select(['id', 'code', 'path'])
    .where('code', '=', code)
    .executeTakeFirstOrThrow();
  return { officeId: String(o.id), officeCode: o.code, path: o.path };
};
const U1 = '8e0b6a51-3f7a-4c55-9d2e-0c1f2b3a4d5e';
const U2 = '1b2c3d4e-5f60-4718-8a9b-0c1d2e3f4a5b';

const file = {
  skills: [{ skillCode: 'ELEC', name: 'Electricity' }],
  workOrderTypes: [{ workOrderTypeCode: 'repair', name: 'Repair', durationMinutes: 90, skills: ['elec'] }],
  technicians: [
    {
      technicianCode: 't-north',
      name: 'Nora',
      officeCode: 'north',
      skills: ['ELEC'],
      home: { latitude: 50.6, longitude: 3.06 },
    },
  ],
  workOrders: [
    // A validated work order and a live one share WO-1: the code names the live one.
    {
      uuid: U1,
      workOrderCode: 'wo-1',
      workOrderTypeCode: 'REPAIR',
      status: 'VALIDATED',
      officeCode: 'NORTH',
    },
    {
      workOrderCode: 'WO-1',
      workOrderTypeCode: 'REPAIR',
      status: 'SCHEDULED',
      officeCode: 'NORTH',
      technicianCode: 'T-NORTH',
      scheduledStart: '2026-03-02T08:00',
      location: { city: 'Lille', latitude: 50.63, longitude: 3.06 },
    },
    { uuid: U2, workOrderCode: 'WO-S', workOrderTypeCode: 'REPAIR', status: 'NEW', officeCode: 'SOUTH' },
  ],
};

beforeAll(async () => {
  t = await createTestApp();
  await runImport(t.db, file);
});
afterAll(() => t.close());

describe('work order model: import keys workOrderTypes, technicians, workOrders', () => {
  it('imports every key; replaying the file changes nothing (the live WO-1 keeps its uuid)', async () => {
    const before = await t.db
      .selectFrom('work_orders')
      .select(['uuid', 'code', 'last_update'])
      .orderBy('id')
      .execute();
    expect(before).toHaveLength(3);
    const again = await runImport(t.db, file);
    expect(again.every((k) => k.created === 0 && k.updated === 0)).toBe(true);
    expect(
      await t.db.selectFrom('work_orders').select(['uuid', 'code', 'last_update']).orderBy('id').execute(),
    ).toEqual(before);
  });

  it('refuses an unknown type, technician or skill, and the same live code twice in a file', async () => {
    const wo = { workOrderCode: 'X', workOrderTypeCode: 'NOPE', status: 'NEW', officeCode: 'ROOT' };
    await expect(runImport(t.db, { workOrders: [wo] })).rejects.toThrow(/fieldService.workOrderType.unknown/);
    await expect(
      runImport(t.db, { workOrders: [{ ...wo, workOrderTypeCode: 'REPAIR', technicianCode: 'NOBODY' }] }),
    ).rejects.toThrow(/fieldService.technician.unknown/);
    await expect(
      runImport(t.db, {
        technicians: [{ technicianCode: 'T2', name: 'x', officeCode: 'ROOT', skills: ['NOPE'] }],
      }),
    ).rejects.toThrow(/rostering.technician.skill.unknown/);
    await expect(runImport(t.db, { workOrders: [wo, { ...wo, workOrderCode: 'x' }] })).rejects.toThrow(
      /workOrders\[1\]: live X is already given at workOrders\[0\]/,
    );
    await expect(
      runImport(t.db, {
        workOrders: [{ ...wo, workOrderTypeCode: 'REPAIR', scheduledStart: '2019-02-30T08:00' }],
      }),
    ).rejects.toThrow(/workOrders\[0\]\.scheduledStart/);
  });
});

describe('findWorkOrder: the one rule of "a code names a work order"', () => {
  it('by code: the live one; by uuid: that one; the schedule ends after the type duration', async () => {
    const north = await scopeOf('NORTH');
    const byCode = await findWorkOrder(t.db, north, { code: 'WO-1' });
    if (!('found' in byCode)) throw new Error('not found');
    expect(byCode.found.status).toBe('SCHEDULED');
    expect(byCode.found.office_code).toBe('NORTH');
    expect(scheduledEnd(byCode.found)?.toISOString()).toBe('2026-03-02T09:30:00.000Z');
    const byUuid = await findWorkOrder(t.db, north, { uuid: U1 });
    expect('found' in byUuid && byUuid.found.status).toBe('VALIDATED');
  });

  it('outside the caller tree a work order is missing, by code and by uuid', async () => {
    const south = await scopeOf('SOUTH');
    expect(await findWorkOrder(t.db, south, { code: 'WO-1' })).toEqual({ missing: true });
    expect(await findWorkOrder(t.db, await scopeOf('NORTH'), { uuid: U2 })).toEqual({ missing: true });
    expect('found' in (await findWorkOrder(t.db, await scopeOf('ROOT'), { uuid: U2 }))).toBe(true);
  });

  it('several live work orders carrying the code are ambiguous; validated only: the latest one', async () => {
    await runImport(t.db, {
      workOrders: [
        {
          uuid: '2a2a2a2a-0000-4000-8000-000000000001',
          workOrderCode: 'DUP',
          workOrderTypeCode: 'REPAIR',
          status: 'NEW',
          officeCode: 'NORTH',
        },
        {
          uuid: '2a2a2a2a-0000-4000-8000-000000000002',
          workOrderCode: 'DUP',
          workOrderTypeCode: 'REPAIR',
          status: 'QUALIFIED',
          officeCode: 'NORTH-A',
        },
        {
          uuid: '2a2a2a2a-0000-4000-8000-000000000003',
          workOrderCode: 'OLD',
          workOrderTypeCode: 'REPAIR',
          status: 'VALIDATED',
          officeCode: 'NORTH',
        },
      ],
    });
    const north = await scopeOf('NORTH');
    const dup = await findWorkOrder(t.db, north, { code: 'DUP' });
    expect('ambiguous' in dup && dup.ambiguous.map((r) => r.status).sort()).toEqual(['NEW', 'QUALIFIED']);
    // From NORTH-A only one of the two is visible: not ambiguous there.
    const fromA = await findWorkOrder(t.db, await scopeOf('NORTH-A'), { code: 'DUP' });
    expect('found' in fromA && fromA.found.status).toBe('QUALIFIED');
    const old = await findWorkOrder(t.db, north, { code: 'OLD' });
    expect('found' in old && old.found.status).toBe('VALIDATED');
    await expect(
      runImport(t.db, {
        workOrders: [
          { workOrderCode: 'DUP', workOrderTypeCode: 'REPAIR', status: 'NEW', officeCode: 'ROOT' },
        ],
      }),
    ).rejects.toThrow(/fieldService.workOrder.code.ambiguous/);
  });
});
