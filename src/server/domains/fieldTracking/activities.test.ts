import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVITIES_PAGE_SIZE,
  activityTotalsByCode,
  activityTotalsByUuid,
  FieldTrackingCodes as C,
  INVOICING_STATUSES,
  listActivitiesByCode,
  listActivitiesByUuid,
  listActivityTypes,
  listPositions,
  VALIDATION_STATUSES,
} from '../../../contract/fieldTracking.ts';
import { runImport } from '../../cli/importFile.ts';
import { type ApiOptions, expectErrors, pathOf } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { baseFile, expectedActivities, insertActivities, insertPositions, U } from './fixture.ts';
import { isoDuration } from './service.ts';

const UNLIMITED = { perMinute: 1e9, perHour: 1e9 };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimits: { high: UNLIMITED, standard: UNLIMITED, low: UNLIMITED } });
  await runImport(t.db, baseFile);
  await insertActivities(t.db, U.W200, 'A200-', 200);
  await insertActivities(t.db, U.W201, 'A201-', 201);
  await insertActivities(t.db, U.W400, 'A400-', 400);
  await insertActivities(t.db, U.SOUTH, 'AS-', 3);
  await insertActivities(t.db, U.DUP1, 'AD-', 2);
  await insertActivities(t.db, U.OLD, 'AOLD-', 4);
  await insertActivities(t.db, U.LIVE, 'ALIVE-', 5);
});
afterAll(() => t.close());

type Page = { continuationToken: string | null; data: Record<string, unknown>[] };
type Query = ApiOptions<typeof listActivitiesByCode>['query'];

/** A work order's activities, named by code or by uuid. */
const list = (workOrderCode: string, query: Query = {}, as: TestClient = 'root') =>
  t.api(listActivitiesByCode, { params: { workOrderCode }, query, as });
const listByUuid = (workOrderUuid: string, query: Query = {}, as: TestClient = 'root') =>
  t.api(listActivitiesByUuid, { params: { workOrderUuid }, query, as });
const totals = (workOrderCode: string, query: Query = {}, as: TestClient = 'root') =>
  t.api(activityTotalsByCode, { params: { workOrderCode }, query, as });
const totalsByUuid = (workOrderUuid: string) => t.api(activityTotalsByUuid, { params: { workOrderUuid } });
/** A page answered 200. */
async function ok(res: Promise<LightMyRequestResponse>) {
  const answer = await res;
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as Page;
}
const page = (workOrderCode: string, query: Query = {}, as: TestClient = 'root') =>
  ok(list(workOrderCode, query, as));
const pageByUuid = (workOrderUuid: string, query: Query = {}) => ok(listByUuid(workOrderUuid, query));
/** Every page of a list, following the tokens. */
const walk = (workOrderCode: string, query: Query = {}) =>
  t.pages(listActivitiesByCode, { params: { workOrderCode }, query });
const walkByUuid = (workOrderUuid: string) => t.pages(listActivitiesByUuid, { params: { workOrderUuid } });
const ids = (pages: Page[]) => pages.flatMap((p) => p.data.map((a) => a.activityId));

describe('activities: page size and boundaries (200 a page)', () => {
  it('exactly 200: one full page, then the token is null', async () => {
    const pages = await walk('WO-200');
    expect(pages.map((p) => p.data.length)).toEqual([200]);
    expect(pages[0].continuationToken).toBeNull();
  });

  it('201: a page of 200, then a page of 1 with a null token', async () => {
    const pages = await walk('WO-201');
    expect(pages.map((p) => p.data.length)).toEqual([200, 1]);
    expect(pages[0].continuationToken).toEqual(expect.any(String));
    expect(pages[1].continuationToken).toBeNull();
  });

  it('400: two full pages, the second marked final (no empty third page)', async () => {
    const pages = await walk('WO-400');
    expect(pages.map((p) => p.data.length)).toEqual([ACTIVITIES_PAGE_SIZE, ACTIVITIES_PAGE_SIZE]);
    expect(pages[1].continuationToken).toBeNull();
  });

  it('a work order without activities: an empty final page', async () => {
    expect(await page('WO-EMPTY')).toEqual({ continuationToken: null, data: [] });
  });
});

describe('activities: sort order and element', () => {
  it('sorted by startTime, ties broken by activityId, every activity once', async () => {
    const pages = await walk('WO-400');
    const expected = expectedActivities('A400-', 400);
    expect(ids(pages)).toEqual(expected.map((a) => a.activityId));
    // Pairs share a start time: the tie-breaker is visible across the page boundary too.
    const all = pages.flatMap((p) => p.data);
    expect(all[199].startTime).toBe(all[200].startTime);
    expect(String(all[199].activityId) < String(all[200].activityId)).toBe(true);
  });

  it('holds exactly the spec fields, date-times in RFC 3339 UTC, duration in ISO 8601', async () => {
    const [first] = (await page('WO-400')).data;
    expect(Object.keys(first).sort()).toEqual(
      [
        'activityId',
        'activityTypeCode',
        'agentCode',
        'startTime',
        'endTime',
        'duration',
        'billable',
        'validatedAt',
        'lastUpdate',
      ].sort(),
    );
    expect(first).toMatchObject({
      activityId: 'A400-0001',
      activityTypeCode: 'WORK',
      agentCode: 'T-N',
      startTime: '2026-01-05T08:00:00Z',
      endTime: '2026-01-05T08:10:00Z',
      duration: 'PT10M',
      billable: false,
      validatedAt: null,
    });
    expect(first.lastUpdate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const all = (await walk('WO-400')).flatMap((p) => p.data);
    const a15 = all.find((a) => a.activityId === 'A400-0015');
    expect(a15).toMatchObject({ duration: 'PT1H10M', validatedAt: '2026-02-01T12:00:00Z', billable: false });
  });

  it('isoDuration: hours, minutes and seconds', () => {
    expect(isoDuration(0)).toBe('PT0S');
    expect(isoDuration(45)).toBe('PT45S');
    expect(isoDuration(5400)).toBe('PT1H30M');
    expect(isoDuration(93784)).toBe('PT26H3M4S');
  });
});

describe('activities: filters', () => {
  const expected = expectedActivities('A400-', 400);
  const matches = (v: string, i: string) => (a: (typeof expected)[number]) =>
    (v === 'all' || a.validated === (v === 'validated')) &&
    (i === 'all' || a.billable === (i === 'billable'));

  it('each validationStatus and invoicingStatus value, and every combination, across pages', async () => {
    for (const v of VALIDATION_STATUSES)
      for (const i of INVOICING_STATUSES) {
        const pages = await walk('WO-400', {
          validationStatus: v,
          invoicingStatus: i,
        });
        const want = expected.filter(matches(v, i)).map((a) => a.activityId);
        expect(ids(pages), `${v} ${i}`).toEqual(want);
        expect(want.length).toBeGreaterThan(0);
        for (const a of pages.flatMap((p) => p.data)) {
          if (v !== 'all') expect(a.validatedAt !== null).toBe(v === 'validated');
          if (i !== 'all') expect(a.billable).toBe(i === 'billable');
        }
      }
  });

  it('defaults are all: no parameter gives what all/all gives', async () => {
    expect(await page('WO-400')).toEqual(
      await page('WO-400', { validationStatus: 'all', invoicingStatus: 'all' }),
    );
  });

  it('an unknown value, a value in another case, or an unknown parameter: 400', async () => {
    expectErrors(await list('WO-400', { validationStatus: 'done' }), 400, C.validationStatusInvalid);
    expectErrors(await list('WO-400', { validationStatus: '' }), 400, C.validationStatusInvalid);
    expectErrors(await list('WO-400', { invoicingStatus: 'BILLABLE' }), 400, C.invoicingStatusInvalid);
    // Outside the row's query: the URL is the row's path with a query of its own.
    const path = pathOf(listActivitiesByCode, { workOrderCode: 'WO-400' });
    expectErrors(await t.call('GET', `${path}?pageSize=10`), 400, C.fieldUnknown);
    const twice = await t.call('GET', `${path}?invoicingStatus=billable&invoicingStatus=all`);
    expectErrors(twice, 400, C.invoicingStatusInvalid);
  });
});

describe('activities: continuation tokens', () => {
  const code = 'WO-400';

  it('a tampered, truncated or foreign token is 400 fieldTracking.continuationToken.invalid', async () => {
    const { continuationToken } = await page(code);
    const token = continuationToken as string;
    const [payload, signature] = token.split('.');
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    for (const bad of [
      flip(token, 3),
      `${payload}.${flip(signature, 0)}`,
      payload,
      `${token}.x`,
      'garbage',
      Buffer.from(JSON.stringify({ e: 'fieldTracking.workOrders.activities', p: ['x', 'y'] })).toString(
        'base64url',
      ),
    ])
      expectErrors(await list(code, { continuationToken: bad }), 400, C.continuationTokenInvalid);
    // A token of another list: the positions of a technician.
    await insertPositions(t.db, 'T-N', 501);
    const positions = await ok(t.api(listPositions, { params: { technicianCode: 'T-N' } }));
    expect(positions.continuationToken).toEqual(expect.any(String));
    expectErrors(
      await list(code, { continuationToken: positions.continuationToken as string }),
      400,
      C.continuationTokenInvalid,
    );
  });

  it('a token reused with other filters, or on another work order, is 400', async () => {
    // 267 activities are not validated: two pages.
    const { continuationToken } = await page(code, { validationStatus: 'notValidated' });
    const token = continuationToken as string;
    expect(token).toEqual(expect.any(String));
    const ok = await list(code, { validationStatus: 'notValidated', continuationToken: token });
    expect(ok.statusCode, ok.body).toBe(200);
    for (const other of [
      {},
      { validationStatus: 'validated' },
      { validationStatus: 'all' },
      { validationStatus: 'notValidated', invoicingStatus: 'billable' },
    ])
      expectErrors(await list(code, { ...other, continuationToken: token }), 400, C.continuationTokenInvalid);
    expectErrors(
      await list('WO-201', {
        validationStatus: 'notValidated',
        continuationToken: token,
      }),
      400,
      C.continuationTokenInvalid,
    );
  });

  it('the code and uuid companions walk one list: a token of one continues on the other', async () => {
    const first = await page(code);
    const viaUuid = await pageByUuid(U.W400, {
      continuationToken: first.continuationToken as string,
    });
    const viaCode = await page(code, { continuationToken: first.continuationToken as string });
    expect(viaUuid).toEqual(viaCode);
  });
});

describe('activities: naming the work order', () => {
  it('code: and uuid: paths agree; codes and uuids in any case', async () => {
    const byCode = await walk('WO-400');
    const byUuid = await walkByUuid(U.W400);
    expect(ids(byUuid)).toEqual(ids(byCode));
    expect(await page('wo-400')).toEqual(byCode[0]);
    expect(await pageByUuid(U.W400.toUpperCase())).toEqual(byCode[0]);
  });

  it('404 fieldTracking.workOrder.notfound: unknown, and outside the tree (the same answer)', async () => {
    expectErrors(await list('NOPE'), 404, C.workOrderNotFound);
    expectErrors(await listByUuid(crypto.randomUUID()), 404, C.workOrderNotFound);
    // WO-S is in SOUTH: NORTH does not see it, by code or by uuid; ROOT and SOUTH do.
    const outside = await list('WO-S', {}, 'north');
    expectErrors(outside, 404, C.workOrderNotFound);
    expect(outside.json().errors[0].message).toBe((await list('NOPE')).json().errors[0].message);
    expectErrors(await listByUuid(U.SOUTH, {}, 'north'), 404, C.workOrderNotFound);
    expect((await page('WO-S', {}, 'south')).data).toHaveLength(3);
    // NORTH-A sees its own work order but not its parent office's.
    expect((await page('WO-MIX', {}, 'northA')).data).toEqual([]);
    expectErrors(await list('WO-400', {}, 'northA'), 404, C.workOrderNotFound);
  });

  it('a malformed uuid is 400; an empty code is 400 code.mandatory', async () => {
    expectErrors(await listByUuid('not-a-uuid'), 400, C.workOrderUuidInvalid);
    expectErrors(await list(''), 400, C.codeMandatory);
    expectErrors(await list('A%20B'), 400, C.workOrderCodeInvalid);
  });

  it('a code carried by several live work orders is ambiguous; validated and live: the live one', async () => {
    expectErrors(await list('WO-DUP'), 400, C.workOrderAmbiguous);
    // From NORTH-A only one of the two is visible.
    expect((await page('WO-DUP', {}, 'northA')).data).toEqual([]);
    expect((await pageByUuid(U.DUP1)).data).toHaveLength(2);
    expect(ids([await page('WO-V')])).toHaveLength(5);
    expect(ids([await pageByUuid(U.OLD)])).toHaveLength(4);
  });

  it('validated copies beyond the 3 rows findWorkOrder reads, all newer: still the live one', async () => {
    for (let i = 0; i < 4; i++)
      await t.db
        .insertInto('work_orders')
        .columns(['uuid', 'code', 'type_code', 'status', 'office_id', 'last_update'])
        .expression((eb) =>
          eb
            .selectFrom('work_orders')
            .select([
              sql<string>`gen_random_uuid()`.as('uuid'),
              'code',
              'type_code',
              sql<string>`'VALIDATED'`.as('status'),
              'office_id',
              sql<Date>`now() + interval '1 day'`.as('last_update'),
            ])
            .where('uuid', '=', U.LIVE),
        )
        .execute();
    try {
      expect(ids([await page('WO-V')])).toHaveLength(5);
    } finally {
      await t.db
        .deleteFrom('work_orders')
        .where('code', '=', 'WO-V')
        .where('uuid', 'not in', [U.LIVE, U.OLD])
        .execute();
    }
  });

  it('a read-only application may read; the endpoints are in the High range', async () => {
    expect((await list('WO-200', {}, 'readonly')).statusCode).toBe(200);
    expect([listActivitiesByCode.range, listActivitiesByUuid.range]).toEqual(['high', 'high']);
  });
});

describe('activity totals (extension)', () => {
  const expected = expectedActivities('A400-', 400);
  const sum = (rows: typeof expected) => rows.reduce((s, a) => s + a.seconds, 0);

  it('counts and durations, billable and not, validated and not; by code and by uuid', async () => {
    const res = await totals('WO-400');
    expect(res.statusCode, res.body).toBe(200);
    const billable = expected.filter((a) => a.billable);
    const notBillable = expected.filter((a) => !a.billable);
    expect(res.json()).toEqual({
      workOrderCode: 'WO-400',
      uuid: U.W400,
      count: 400,
      duration: isoDuration(sum(expected)),
      durationSeconds: sum(expected),
      billable: {
        count: billable.length,
        duration: isoDuration(sum(billable)),
        durationSeconds: sum(billable),
      },
      notBillable: {
        count: notBillable.length,
        duration: isoDuration(sum(notBillable)),
        durationSeconds: sum(notBillable),
      },
      validatedCount: expected.filter((a) => a.validated).length,
      notValidatedCount: expected.filter((a) => !a.validated).length,
      firstStartTime: '2026-01-05T08:00:00Z',
      lastEndTime: new Date(Math.max(...expected.map((a) => a.start + a.seconds * 1000)))
        .toISOString()
        .replace('.000', ''),
    });
    expect((await totalsByUuid(U.W400)).json()).toEqual(res.json());
  });

  it('filter-aware: the same filters as the list', async () => {
    const res = await totals('WO-400', {
      validationStatus: 'validated',
      invoicingStatus: 'billable',
    });
    const rows = expected.filter((a) => a.validated && a.billable);
    expect(res.json()).toMatchObject({
      count: rows.length,
      durationSeconds: sum(rows),
      billable: { count: rows.length },
      notBillable: { count: 0, duration: 'PT0S', durationSeconds: 0 },
      validatedCount: rows.length,
      notValidatedCount: 0,
    });
    const empty = await totals('WO-EMPTY');
    expect(empty.json()).toMatchObject({
      count: 0,
      duration: 'PT0S',
      firstStartTime: null,
      lastEndTime: null,
    });
    expectErrors(await totals('WO-400', { validationStatus: 'x' }), 400, C.validationStatusInvalid);
    expectErrors(await totals('WO-S', {}, 'north'), 404, C.workOrderNotFound);
  });
});

describe('activity types (extension)', () => {
  it('lists the imported types by code', async () => {
    expect(await ok(t.api(listActivityTypes))).toEqual({
      continuationToken: null,
      data: [
        { activityTypeCode: 'TRAVEL', name: 'Travel' },
        { activityTypeCode: 'WORK', name: 'Work on site' },
      ],
    });
  });
});

describe('import keys activityTypes and activities', () => {
  const file = {
    activityTypes: [{ activityTypeCode: 'diag', name: 'Diagnosis' }],
    activities: [
      {
        activityId: 'imp-1',
        workOrderCode: 'wo-mix',
        activityTypeCode: 'diag',
        agentCode: 't-na',
        startTime: '2026-03-02T09:00',
        endTime: '2026-03-02T10:30:00',
        billable: true,
      },
      {
        activityId: 'imp-2',
        workOrderUuid: U.MIX.toUpperCase(),
        activityTypeCode: 'WORK',
        agentCode: 'T-NA',
        startTime: '2026-03-02T08:00Z',
        endTime: '2026-03-02T08:00',
        billable: false,
        validatedAt: '2026-03-03T12:00',
      },
    ],
  };

  it('imports, and a replay of the same file changes nothing', async () => {
    const first = await runImport(t.db, file);
    expect(first.map((r) => [r.key, r.created, r.updated])).toEqual([
      ['activityTypes', 1, 0],
      ['activities', 2, 0],
    ]);
    const before = await t.db
      .selectFrom('activities')
      .selectAll()
      .where('activity_id', 'like', 'imp-%')
      .execute();
    const again = await runImport(t.db, file);
    expect(again.every((r) => r.created === 0 && r.updated === 0)).toBe(true);
    expect(
      await t.db.selectFrom('activities').selectAll().where('activity_id', 'like', 'imp-%').execute(),
    ).toEqual(before);
    expect((await page('WO-MIX', {}, 'northA')).data).toEqual([
      expect.objectContaining({ activityId: 'imp-2', duration: 'PT0S', validatedAt: '2026-03-03T12:00:00Z' }),
      expect.objectContaining({
        activityId: 'imp-1',
        activityTypeCode: 'DIAG',
        agentCode: 'T-NA',
        duration: 'PT1H30M',
      }),
    ]);
    // A changed element is updated, the others left alone.
    const changed = structuredClone(file);
    changed.activities[0].billable = false;
    const third = await runImport(t.db, changed);
    expect(third.find((r) => r.key === 'activities')).toMatchObject({ created: 0, updated: 1 });
  });

  it('refuses unknown names and contradictions before writing', async () => {
    const base = file.activities[0];
    const refuse = async (activity: Record<string, unknown>, pattern: RegExp) =>
      expect(runImport(t.db, { activities: [activity] })).rejects.toThrow(pattern);
    await refuse({ ...base, activityId: 'x1', workOrderCode: 'NOPE' }, /fieldTracking.workOrder.notfound/);
    await refuse(
      { ...base, activityId: 'x1', workOrderCode: 'WO-DUP' },
      /fieldTracking.workOrder.code.ambiguous/,
    );
    await refuse(
      { ...base, activityId: 'x1', activityTypeCode: 'NOPE' },
      /fieldTracking.activity.activityType.unknown/,
    );
    await refuse({ ...base, activityId: 'x1', agentCode: 'NOBODY' }, /fieldTracking.activity.agent.unknown/);
    await refuse(
      { ...base, activityId: 'x1', workOrderUuid: U.MIX },
      /activities\[0\]\.workOrderUuid: give exactly one/,
    );
    await refuse({ ...base, activityId: 'x1', workOrderCode: undefined }, /activities\[0\]\.workOrderUuid/);
    await refuse({ ...base, activityId: 'x1', endTime: '2026-03-02T08:59' }, /activities\[0\]\.endTime/);
    await refuse({ ...base, activityId: 'x 1' }, /activities\[0\]\.activityId/);
    await refuse({ ...base, startTime: '2026-02-30T09:00' }, /activities\[0\]\.startTime/);
    await expect(runImport(t.db, { activities: [base, { ...base }] })).rejects.toThrow(
      /activities\[1\]: imp-1 is already given at activities\[0\]/,
    );
    expect(
      await t.db.selectFrom('activities').select('activity_id').where('activity_id', '=', 'x1').execute(),
    ).toEqual([]);
  });
});
