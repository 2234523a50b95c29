import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { baseFile, insertActivities, insertUsedItems, U } from '../domains/fieldTracking/fixture.ts';
import type { DomainEvent } from '../events/index.ts';
import { runCapturedCli } from '../testing/cli.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { runImport } from './importFile.ts';

const events = vi.hoisted(() => [] as DomainEvent[]);
vi.mock('../events/index.ts', async (original) => ({
  ...(await original<typeof import('../events/index.ts')>()),
  recordEvent: async (_trx: unknown, event: DomainEvent) => {
    events.push(event);
  },
}));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await runImport(t.db, baseFile);
  await insertActivities(t.db, U.W400, 'C-', 12);
  await insertUsedItems(t.db, U.W400, 'CU-', 5);
});
afterAll(() => t.close());

const cli = (...argv: string[]) => runCapturedCli(['workorders', ...argv], { database: t.db });

describe('fieldwork workorders validate|delete', () => {
  it('validate by code (the live one); refused the second time; the event names the process', async () => {
    const res = await cli('validate', 'wo-200');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      new RegExp(`^work order WO-200 \\(${U.W200}, office NORTH\\) validated at \\d{4}-`),
    );
    expect(events).toEqual([
      expect.objectContaining({
        type: 'workorder.validation',
        data: expect.objectContaining({
          workOrderCode: 'WO-200',
          uuid: U.W200,
          actor: { type: 'process', identifier: 'fieldwork workorders' },
        }),
      }),
    ]);
    const again = await cli('validate', U.W200);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('fieldService.workOrder.validation.validated');
  });

  it('delete by uuid: says what went with it; --json', async () => {
    const res = await cli('delete', U.W400.toUpperCase(), '--json');
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      workOrderCode: 'WO-400',
      uuid: U.W400,
      officeCode: 'NORTH',
      activities: 12,
      usedItems: 5,
    });
    expect(events.at(-1)).toMatchObject({ type: 'workorder.deletion', data: { uuid: U.W400 } });
    expect((await cli('delete', U.W400)).stderr).toContain(`no work order ${U.W400}`);
  });

  it('an ambiguous code lists the uuids to choose from; unknown and malformed names refused', async () => {
    const dup = await cli('delete', 'WO-DUP');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('several live work orders carry WO-DUP');
    expect(dup.stderr).toContain(U.DUP1);
    expect(dup.stderr).toContain(U.DUP2);
    expect((await cli('validate', 'NOPE')).stderr).toContain('no work order NOPE');
    expect((await cli('validate', 'a b')).stderr).toContain('neither a work order code nor a uuid');
    expect((await cli('validate', 'WO-CANCEL')).code).toBe(1);
  });
});
