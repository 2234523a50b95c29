/**
 * The work order types list (extension for the planner's "type and place" search): every type
 * with its duration and needed skills, by code, keyset pages, a malformed token refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FieldServiceCodes,
  listWorkOrderTypes,
  WORK_ORDER_TYPES_PAGE_SIZE,
} from '../../../contract/fieldService.ts';
import { runImport } from '../../cli/importFile.ts';
import { expectErrors } from '../../testing/api.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';

const COUNT = WORK_ORDER_TYPES_PAGE_SIZE + 3;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await runImport(t.db, {
    skills: [
      { skillCode: 'ELEC', name: 'Electricity' },
      { skillCode: 'GAS', name: 'Gas' },
    ],
    workOrderTypes: [
      { workOrderTypeCode: 'repair', name: 'Repair', durationMinutes: 60, skills: ['GAS', 'ELEC'] },
      ...Array.from({ length: COUNT - 1 }, (_, i) => ({
        workOrderTypeCode: `T-${String(i).padStart(4, '0')}`,
        name: `Type ${i}`,
        durationMinutes: 30 + i,
      })),
    ],
  });
});
afterAll(() => t.close());

describe('GET /fieldService/v1/workOrderTypes', () => {
  it('lists every type with its duration and sorted skills, by code, in keyset pages', async () => {
    const first = await t.api(listWorkOrderTypes);
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json();
    expect(page1.data).toHaveLength(WORK_ORDER_TYPES_PAGE_SIZE);
    expect(page1.data[0]).toEqual({
      workOrderTypeCode: 'REPAIR',
      name: 'Repair',
      durationMinutes: 60,
      skills: ['ELEC', 'GAS'],
    });
    expect(page1.data[1]).toEqual({
      workOrderTypeCode: 'T-0000',
      name: 'Type 0',
      durationMinutes: 30,
      skills: [],
    });
    expect(page1.continuationToken).toBeTruthy();

    const second = await t.api(listWorkOrderTypes, { query: { continuationToken: page1.continuationToken } });
    expect(second.statusCode, second.body).toBe(200);
    const page2 = second.json();
    expect(page2.data).toHaveLength(COUNT - WORK_ORDER_TYPES_PAGE_SIZE);
    expect(page2.continuationToken).toBeNull();
    const codes = [...page1.data, ...page2.data].map(
      (x: { workOrderTypeCode: string }) => x.workOrderTypeCode,
    );
    expect(codes).toEqual([...codes].sort());
    expect(new Set(codes).size).toBe(COUNT);
  });

  it('is readable by any application of the instance (types are not filed in an office)', async () => {
    const res = await t.api(listWorkOrderTypes, { as: 'south' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0].workOrderTypeCode).toBe('REPAIR');
  });

  it('refuses a malformed token and an unknown parameter', async () => {
    const res = await t.api(listWorkOrderTypes, { query: { continuationToken: 'nope' } });
    expectErrors(res, 400, FieldServiceCodes.continuationTokenInvalid);
    // Outside the row's query: its path with a query of its own.
    expectErrors(await t.call('GET', `${listWorkOrderTypes.path}?q=x`), 400, FieldServiceCodes.fieldUnknown);
  });
});
