import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FieldServiceCodes as C,
  listUsedItemsByCode,
  listUsedItemsByUuid,
  USED_ITEMS_PAGE_SIZE_DEFAULT,
  usedItemTotalsByCode,
  usedItemTotalsByUuid,
} from '../../../contract/fieldService.ts';
import { runImport } from '../../cli/importFile.ts';
import { type ApiOptions, expectErrors, pathOf } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { baseFile, expectedUsedItems, insertUsedItems, U } from '../fieldTracking/fixture.ts';

const UNLIMITED = { perMinute: 1e9, perHour: 1e9 };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimits: { high: UNLIMITED, standard: UNLIMITED, low: UNLIMITED } });
  await runImport(t.db, baseFile);
  await insertUsedItems(t.db, U.W400, 'U-', 250);
  await insertUsedItems(t.db, U.W200, 'V-', 200);
  await insertUsedItems(t.db, U.SOUTH, 'S-', 2);
  await insertUsedItems(t.db, U.LIVE, 'L-', 3);
});
afterAll(() => t.close());

type Page = { continuationToken: string | null; data: Record<string, unknown>[] };
type Query = ApiOptions<typeof listUsedItemsByCode>['query'];

/** A work order's used items, named by code or by uuid, and their totals. */
const list = (workOrderCode: string, query: Query = {}, as: TestClient = 'root') =>
  t.api(listUsedItemsByCode, { params: { workOrderCode }, query, as });
const listByUuid = (workOrderUuid: string, query: Query = {}, as: TestClient = 'root') =>
  t.api(listUsedItemsByUuid, { params: { workOrderUuid }, query, as });
const totals = (workOrderCode: string, query: Query = {}, as: TestClient = 'root') =>
  t.api(usedItemTotalsByCode, { params: { workOrderCode }, query, as });
const totalsByUuid = (workOrderUuid: string) => t.api(usedItemTotalsByUuid, { params: { workOrderUuid } });
/** Every page of a list, following the tokens. */
const walk = (workOrderCode: string, query: Query = {}) =>
  t.pages(listUsedItemsByCode, { params: { workOrderCode }, query });
const walkByUuid = (workOrderUuid: string, query: Query = {}) =>
  t.pages(listUsedItemsByUuid, { params: { workOrderUuid }, query });
const ids = (pages: Page[]) => pages.flatMap((p) => p.data.map((d) => d.usedItemId));

describe('used items: pageSize', () => {
  it(`default ${USED_ITEMS_PAGE_SIZE_DEFAULT}: 250 items in pages of 100, 100 and 50`, async () => {
    const pages = await walk('WO-400');
    expect(pages.map((p) => p.data.length)).toEqual([100, 100, 50]);
    expect(pages[2].continuationToken).toBeNull();
  });

  it('at most 200: exactly 200 is one page; 250 is 200 and 50; 1 a page works', async () => {
    expect((await walk('WO-200', { pageSize: '200' })).map((p) => p.data.length)).toEqual([200]);
    expect((await walk('WO-400', { pageSize: '200' })).map((p) => p.data.length)).toEqual([200, 50]);
    const ones = await walk('WO-V', { pageSize: '1' });
    expect(ones.map((p) => p.data.length)).toEqual([1, 1, 1]);
  });

  it('0, 201, a decimal, a negative, a word or nothing: 400 fieldService.pagesize.invalid', async () => {
    for (const pageSize of ['0', '201', '1.5', '-1', '+5', '1e2', 'ten', ''])
      expectErrors(await list('WO-400', { pageSize }), 400, C.pageSizeInvalid);
  });

  it('pageSize may change from one page to the next (it is not a filter)', async () => {
    const first = (await list('WO-400', { pageSize: '10' })).json() as Page;
    const second = (
      await list('WO-400', {
        pageSize: '30',
        continuationToken: first.continuationToken as string,
      })
    ).json() as Page;
    const all = expectedUsedItems('U-', 250).map((u) => u.usedItemId);
    expect(ids([first, second])).toEqual(all.slice(0, 40));
  });
});

describe('used items: order, element, invoiceMode', () => {
  const expected = expectedUsedItems('U-', 250);

  it('sorted by lastUpdate descending, ties by usedItemId descending', async () => {
    const pages = await walk('WO-400', { pageSize: '7' });
    expect(ids(pages)).toEqual(expected.map((u) => u.usedItemId));
    const all = pages.flatMap((p) => p.data);
    // Pairs share lastUpdate: U-0249 and U-0248 (both at floor(g / 2) = 124).
    expect(all.slice(1, 3).map((u) => [u.usedItemId, u.lastUpdate])).toEqual([
      ['U-0249', '2026-01-10T02:04:00Z'],
      ['U-0248', '2026-01-10T02:04:00Z'],
    ]);
  });

  it('the element', async () => {
    const all = (await walk('WO-400')).flatMap((p) => p.data);
    expect(all.find((u) => u.usedItemId === 'U-0003')).toEqual({
      usedItemId: 'U-0003',
      kind: 'part',
      itemCode: 'PART-1',
      label: null,
      quantity: 4,
      unit: 'piece',
      unitPrice: 2.5,
      amount: 10,
      invoiceMode: 'internal',
      serialNumber: null,
      technicianCode: 'T-N',
      lastUpdate: '2026-01-10T00:01:00Z',
    });
    expect(all.find((u) => u.usedItemId === 'U-0002')).toMatchObject({
      kind: 'labour',
      itemCode: 'LAB-H',
      quantity: 0.5,
      unit: 'hour',
      unitPrice: 60,
      amount: 30,
      invoiceMode: 'external',
    });
  });

  it('invoiceMode external, internal, all (default); anything else is 400', async () => {
    for (const mode of ['external', 'internal'] as const) {
      const pages = await walk('WO-400', { invoiceMode: mode });
      expect(ids(pages)).toEqual(
        expected.filter((u) => u.internal === (mode === 'internal')).map((u) => u.usedItemId),
      );
      expect(pages.flatMap((p) => p.data).every((u) => u.invoiceMode === mode)).toBe(true);
    }
    expect(ids(await walk('WO-400', { invoiceMode: 'all' }))).toEqual(expected.map((u) => u.usedItemId));
    for (const invoiceMode of ['External', 'billable', ''])
      expectErrors(await list('WO-400', { invoiceMode }), 400, C.invoiceModeInvalid);
    // Outside the row's query: the row's path with a query of its own.
    const path = pathOf(listUsedItemsByCode, { workOrderCode: 'WO-400' });
    expectErrors(await t.call('GET', `${path}?mode=all`), 400, C.fieldUnknown);
  });
});

describe('used items: tokens', () => {
  it('bound to the work order and invoiceMode; tampering refused; code and uuid share the list', async () => {
    const first = (await list('WO-400', { invoiceMode: 'external' })).json() as Page;
    const token = first.continuationToken as string;
    expect((await list('WO-400', { invoiceMode: 'external', continuationToken: token })).statusCode).toBe(
      200,
    );
    expect((await listByUuid(U.W400, { invoiceMode: 'external', continuationToken: token })).statusCode).toBe(
      200,
    );
    for (const query of [{}, { invoiceMode: 'internal' }, { invoiceMode: 'all' }])
      expectErrors(
        await list('WO-400', { ...query, continuationToken: token }),
        400,
        C.continuationTokenInvalid,
      );
    expectErrors(
      await list('WO-200', { invoiceMode: 'external', continuationToken: token }),
      400,
      C.continuationTokenInvalid,
    );
    for (const bad of [`x${token}`, token.replace('.', '.A'), 'abc.def', ''.padEnd(40, 'A')])
      expectErrors(
        await list('WO-400', { invoiceMode: 'external', continuationToken: bad }),
        400,
        C.continuationTokenInvalid,
      );
  });
});

describe('used items: naming the work order', () => {
  it('code: and uuid: agree, in any case', async () => {
    const byCode = await walk('WO-400', { pageSize: '200' });
    expect(await walkByUuid(U.W400.toUpperCase(), { pageSize: '200' })).toEqual(byCode);
    expect(await walk('wo-400', { pageSize: '200' })).toEqual(byCode);
  });

  it('404 fieldService.workOrder.notfound for a work order unknown or outside the tree', async () => {
    expectErrors(await list('NOPE'), 404, C.workOrderNotFound);
    expectErrors(await list('WO-S', {}, 'north'), 404, C.workOrderNotFound);
    expectErrors(await listByUuid(U.SOUTH, {}, 'north'), 404, C.workOrderNotFound);
    expectErrors(await listByUuid(crypto.randomUUID()), 404, C.workOrderNotFound);
    expect((await list('WO-S', {}, 'south')).json().data).toHaveLength(2);
    expectErrors(await listByUuid('12345'), 400, C.workOrderUuidInvalid);
    expectErrors(await list('WO-DUP'), 400, C.workOrderAmbiguous);
    // WO-V: the live one (3 items), not the validated one.
    expect((await list('WO-V')).json().data).toHaveLength(3);
  });

  it('High range, read scope', async () => {
    expect([listUsedItemsByCode.range, listUsedItemsByUuid.range]).toEqual(['high', 'high']);
    expect((await list('WO-400', {}, 'readonly')).statusCode).toBe(200);
  });
});

describe('used item totals (extension)', () => {
  it('count, quantity and amount by invoice mode, and for all; filter-aware', async () => {
    const expected = expectedUsedItems('U-', 250);
    const sum = (rows: typeof expected) => ({
      count: rows.length,
      quantity: rows.reduce((s, u) => s + u.quantity, 0),
      amount: rows.reduce((s, u) => s + u.amount, 0),
      unpricedCount: 0,
    });
    const external = sum(expected.filter((u) => !u.internal));
    const internal = sum(expected.filter((u) => u.internal));
    const res = await totals('WO-400');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      workOrderCode: 'WO-400',
      uuid: U.W400,
      all: sum(expected),
      external,
      internal,
    });
    expect((await totalsByUuid(U.W400)).json()).toEqual(res.json());
    const zero = { count: 0, quantity: 0, amount: 0, unpricedCount: 0 };
    expect((await totals('WO-400', { invoiceMode: 'internal' })).json()).toEqual({
      workOrderCode: 'WO-400',
      uuid: U.W400,
      all: internal,
      external: zero,
      internal,
    });
    expect((await totals('WO-EMPTY')).json().all).toEqual(zero);
    expectErrors(await totals('WO-S', {}, 'north'), 404, C.workOrderNotFound);
  });
});

describe('import key usedItems', () => {
  const file = {
    usedItems: [
      {
        usedItemId: 'ui-1',
        workOrderCode: 'wo-mix',
        kind: 'part',
        itemCode: 'pump',
        quantity: 1,
        unitPrice: 120,
        unit: 'piece',
        invoiceMode: 'external',
        serialNumber: 'PMP-0042',
        technicianCode: 't-na',
        lastUpdate: '2026-03-02T10:00',
      },
      {
        usedItemId: 'ui-2',
        workOrderUuid: U.MIX,
        kind: 'onTheFly',
        label: 'Sealant',
        quantity: 0.25,
        unit: 'litre',
        unitPrice: 18.4,
        invoiceMode: 'internal',
      },
      {
        usedItemId: 'ui-3',
        workOrderUuid: U.MIX,
        kind: 'labour',
        itemCode: 'LAB-H',
        quantity: 1.5,
        invoiceMode: 'external',
      },
    ],
  };

  it('imports; a replay changes nothing, lastUpdate included', async () => {
    expect((await runImport(t.db, file))[0]).toMatchObject({ key: 'usedItems', created: 3, updated: 0 });
    const before = await t.db
      .selectFrom('used_items')
      .selectAll()
      .where('used_item_id', 'like', 'ui-%')
      .execute();
    expect((await runImport(t.db, file))[0]).toMatchObject({ created: 0, updated: 0 });
    expect(
      await t.db.selectFrom('used_items').selectAll().where('used_item_id', 'like', 'ui-%').execute(),
    ).toEqual(before);
    const data = (await list('WO-MIX', {}, 'northA')).json().data;
    expect(data.find((u: { usedItemId: string }) => u.usedItemId === 'ui-1')).toMatchObject({
      lastUpdate: '2026-03-02T10:00:00Z',
      itemCode: 'PUMP',
      serialNumber: 'PMP-0042',
    });
    expect(data.find((u: { usedItemId: string }) => u.usedItemId === 'ui-2')).toMatchObject({
      kind: 'onTheFly',
      itemCode: null,
      label: 'Sealant',
      amount: 4.6,
    });
    expect(data.find((u: { usedItemId: string }) => u.usedItemId === 'ui-3')).toMatchObject({
      unitPrice: null,
      amount: null,
    });
    const mix = (await totals('WO-MIX', {}, 'northA')).json();
    expect(mix.external).toEqual({ count: 2, quantity: 2.5, amount: 120, unpricedCount: 1 });
    // A changed lastUpdate is a change; a changed row without lastUpdate gets now().
    const changed = structuredClone(file);
    changed.usedItems[0].lastUpdate = '2026-03-02T11:00';
    changed.usedItems[1].quantity = 0.5;
    expect((await runImport(t.db, changed))[0]).toMatchObject({ created: 0, updated: 2 });
  });

  it('refuses before writing: unknown names, kinds against codes, serial numbers off pattern', async () => {
    const [part, onTheFly] = file.usedItems;
    const refuse = (row: Record<string, unknown>, pattern: RegExp) =>
      expect(runImport(t.db, { usedItems: [{ ...row, usedItemId: 'bad' }] })).rejects.toThrow(pattern);
    await refuse({ ...part, workOrderCode: 'NOPE' }, /fieldService.workOrder.notfound/);
    await refuse({ ...part, workOrderCode: 'WO-DUP' }, /fieldService.workOrder.code.ambiguous/);
    await refuse({ ...part, itemCode: 'NOPE' }, /fieldService.usedItem.item.unknown/);
    await refuse({ ...part, serialNumber: 'X-1' }, /fieldService.usedItem.serialNumber.invalid/);
    await refuse({ ...part, technicianCode: 'NOBODY' }, /fieldService.technician.unknown/);
    await refuse({ ...part, itemCode: null }, /usedItems\[0\]\.itemCode: a part or labour item names/);
    await refuse(
      { ...onTheFly, itemCode: 'PART-1' },
      /usedItems\[0\]\.itemCode: an onTheFly item has no itemCode/,
    );
    await refuse({ ...onTheFly, label: undefined }, /usedItems\[0\]\.label: an onTheFly item needs a label/);
    await refuse({ ...part, quantity: 0 }, /usedItems\[0\]\.quantity/);
    await refuse({ ...part, quantity: 1.0005 }, /usedItems\[0\]\.quantity: at most 3 decimals/);
    await refuse({ ...part, unitPrice: 1.234 }, /usedItems\[0\]\.unitPrice/);
    await refuse({ ...part, invoiceMode: 'all' }, /usedItems\[0\]\.invoiceMode/);
    await refuse({ ...part, kind: 'service' }, /usedItems\[0\]\.kind/);
    await refuse({ ...part, workOrderUuid: U.MIX }, /usedItems\[0\]\.workOrderUuid/);
    expect(
      await t.db.selectFrom('used_items').select('used_item_id').where('used_item_id', '=', 'bad').execute(),
    ).toEqual([]);
  });
});
