import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { putFlagsByCode, putNoteByCode } from '../../../contract/diagnostic.ts';
import {
  FieldServiceCodes as C,
  deleteWorkOrderByCode,
  deleteWorkOrderByUuid,
  getWorkOrderByCode,
  getWorkOrderByUuid,
  listWorkOrders,
  validateWorkOrderByCode,
  validateWorkOrderByUuid,
  WORK_ORDERS_PAGE_SIZE,
} from '../../../contract/fieldService.ts';
import { listActivitiesByUuid } from '../../../contract/fieldTracking.ts';
import { runImport } from '../../cli/importFile.ts';
import type { DomainEvent } from '../../events/index.ts';
import { type ApiOptions, expectErrors } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { baseFile, insertActivities, insertUsedItems, U } from '../fieldTracking/fixture.ts';

/** Every event the lifecycle records, in the transaction's order (the webhooks outbox later). */
const events = vi.hoisted(() => [] as DomainEvent[]);
vi.mock('../../events/index.ts', async (original) => ({
  ...(await original<typeof import('../../events/index.ts')>()),
  recordEvent: async (_trx: unknown, event: DomainEvent) => {
    events.push(event);
  },
}));

const UNLIMITED = { perMinute: 1e9, perHour: 1e9 };
let t: TestApp;
let officeIds: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ rateLimits: { high: UNLIMITED, standard: UNLIMITED, low: UNLIMITED } });
  await runImport(t.db, {
    ...baseFile,
    workOrders: [
      ...baseFile.workOrders,
      {
        uuid: '00000000-0000-4000-8000-000000000100',
        workOrderCode: 'WO-FULL',
        workOrderTypeCode: 'REPAIR',
        status: 'SCHEDULED',
        officeCode: 'NORTH-A',
        customerCode: 'ACME',
        siteCode: 'ACME-S1',
        assetCode: 'BOILER-1',
        location: {
          address: '1 rue X',
          zipCode: '59000',
          city: 'Lille',
          country: 'FR',
          latitude: 50.6,
          longitude: 3,
        },
        description: 'Broken boiler',
        technicianCode: 'T-NA',
        scheduledStart: '2026-03-02T08:00',
      },
      { workOrderCode: 'WO-CANCEL', workOrderTypeCode: 'REPAIR', status: 'CANCELLED', officeCode: 'NORTH' },
    ],
  });
  // 150 more work orders in NORTH-A for the pages: BULK-001..BULK-150, every third NEW.
  await sql`
    INSERT INTO work_orders (uuid, code, type_code, status, office_id)
    SELECT gen_random_uuid(), 'BULK-' || lpad(g::text, 3, '0'), 'REPAIR',
           CASE WHEN g % 3 = 0 THEN 'NEW' ELSE 'COMPLETED' END,
           (SELECT id FROM offices WHERE code = 'NORTH-A')
    FROM generate_series(1, 150) g`.execute(t.db);
  const offices = await t.db.selectFrom('offices').select(['id', 'code']).execute();
  officeIds = Object.fromEntries(offices.map((o) => [o.code, String(o.id)]));
});
afterAll(() => t.close());
beforeEach(() => {
  events.length = 0;
});

type Page = { continuationToken: string | null; data: Record<string, unknown>[] };
type Query = ApiOptions<typeof listWorkOrders>['query'];

/** The list of work orders, and one work order named by code or by uuid. */
const list = (query: Query = {}, as: TestClient = 'root') => t.api(listWorkOrders, { query, as });
const byCode = (workOrderCode: string, as: TestClient = 'root') =>
  t.api(getWorkOrderByCode, { params: { workOrderCode }, as });
const byUuid = (workOrderUuid: string, as: TestClient = 'root') =>
  t.api(getWorkOrderByUuid, { params: { workOrderUuid }, as });
/** Every page of the list, following the tokens. */
const walk = (query: Query = {}, as: TestClient = 'root') => t.pages(listWorkOrders, { query, as });
const listedCodes = (pages: Page[]) => pages.flatMap((p) => p.data.map((w) => w.workOrderCode));

describe('work order read (extension)', () => {
  it('by code and by uuid: the header, the schedule with its end', async () => {
    const res = await byCode('wo-full', 'northA');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      uuid: '00000000-0000-4000-8000-000000000100',
      workOrderCode: 'WO-FULL',
      workOrderTypeCode: 'REPAIR',
      workOrderTypeName: 'Repair',
      status: 'SCHEDULED',
      officeCode: 'NORTH-A',
      customerCode: 'ACME',
      siteCode: 'ACME-S1',
      assetCode: 'BOILER-1',
      location: {
        address: '1 rue X',
        zipCode: '59000',
        city: 'Lille',
        country: 'FR',
        latitude: 50.6,
        longitude: 3,
      },
      description: 'Broken boiler',
      schedule: {
        technicianCode: 'T-NA',
        crewCode: null,
        scheduledStart: '2026-03-02T08:00:00Z',
        scheduledEnd: '2026-03-02T09:30:00Z',
        durationMinutes: 90,
      },
      lastUpdate: expect.stringMatching(/Z$/),
    });
    expect((await byUuid('00000000-0000-4000-8000-000000000100')).json()).toEqual(res.json());
  });

  it('404 outside the tree and for unknown codes; ambiguous codes; validated and live: the live one', async () => {
    expectErrors(await byCode('WO-S', 'north'), 404, C.workOrderNotFound);
    expectErrors(await byUuid(U.SOUTH, 'north'), 404, C.workOrderNotFound);
    expectErrors(await byCode('NOPE'), 404, C.workOrderNotFound);
    expectErrors(await byCode('WO-DUP'), 400, C.workOrderAmbiguous);
    expect((await byCode('WO-V')).json()).toMatchObject({ uuid: U.LIVE, status: 'COMPLETED' });
    expectErrors(await byUuid('zzz'), 400, C.workOrderUuidInvalid);
  });
});

describe('work order list (extension)', () => {
  it(`the caller's tree by code then creation, ${WORK_ORDERS_PAGE_SIZE} a page`, async () => {
    const pages = await walk({}, 'north');
    const all = listedCodes(pages);
    expect(pages.map((p) => p.data.length)).toEqual([100, all.length - 100]);
    expect(all).toEqual([...all].sort());
    expect(all).not.toContain('WO-S');
    expect(all.filter((c) => c === 'WO-DUP')).toHaveLength(2);
    expect(listedCodes(await walk({}, 'south'))).toEqual(['WO-S']);
  });

  it('q is a code prefix (any case); status (one or several), type, office and technician filters', async () => {
    expect(listedCodes(await walk({ q: 'wo-2' }))).toEqual(['WO-200', 'WO-201']);
    expect(listedCodes(await walk({ q: 'BULK-14' }))).toEqual(
      Array.from({ length: 10 }, (_, i) => `BULK-14${i}`),
    );
    expect(listedCodes(await walk({ q: 'ZZ' }))).toEqual([]);
    expect(listedCodes(await walk({ status: 'cancelled' }))).toEqual(['WO-CANCEL']);
    expect(listedCodes(await walk({ status: 'VALIDATED,CANCELLED' }))).toEqual(['WO-CANCEL', 'WO-V']);
    expect(listedCodes(await walk({ q: 'BULK', status: 'NEW' }))).toHaveLength(50);
    expect(listedCodes(await walk({ workOrderTypeCode: 'repair' }))).toHaveLength(162);
    expect(listedCodes(await walk({ workOrderTypeCode: 'OTHER' }))).toEqual([]);
    expect(listedCodes(await walk({ officeCode: 'north-a', q: 'WO' }))).toEqual([
      'WO-DUP',
      'WO-FULL',
      'WO-MIX',
    ]);
    expect(listedCodes(await walk({ officeCode: 'NORTH' }))).toHaveLength(161);
    expect(listedCodes(await walk({ technicianCode: 'T-NA' }))).toEqual(['WO-FULL']);
    // The element is the read's.
    const [full] = (await walk({ q: 'WO-FULL' }))[0].data;
    expect(full).toEqual((await byCode('WO-FULL')).json());
  });

  it('refusals: unknown status, office outside the tree, unknown parameter; tokens bound to the filters', async () => {
    expectErrors(await list({ status: 'NEW,DONE' }), 400, C.statusInvalid);
    expectErrors(await list({ officeCode: 'SOUTH' }, 'north'), 400, C.officeUnknown);
    expectErrors(await list({ officeCode: 'NOWHERE' }), 400, C.officeUnknown);
    // Outside the row's query: its path with a query of its own.
    expectErrors(await t.call('GET', `${listWorkOrders.path}?sort=code`), 400, C.fieldUnknown);
    expectErrors(await list({ q: 'x'.repeat(201) }), 400, C.qInvalid);
    const first = (await list({ q: 'BULK' })).json() as Page;
    const token = first.continuationToken as string;
    expect((await list({ q: 'bulk', continuationToken: token })).statusCode).toBe(200);
    expectErrors(await list({ q: 'BULK-1', continuationToken: token }), 400, C.continuationTokenInvalid);
    expectErrors(await list({ continuationToken: token }), 400, C.continuationTokenInvalid);
    expectErrors(await list({ q: 'BULK', continuationToken: 'nope' }), 400, C.continuationTokenInvalid);
  });
});

describe('validate (extension; event workorder.validation)', () => {
  it('sets VALIDATED, records the event in the transaction; a second validation is refused', async () => {
    const res = await t.api(validateWorkOrderByCode, { params: { workOrderCode: 'wo-200' }, as: 'north' });
    expect(res.statusCode, res.body).toBe(204);
    expect((await byUuid(U.W200)).json().status).toBe('VALIDATED');
    expect(events).toEqual([
      {
        type: 'workorder.validation',
        officeId: officeIds.NORTH,
        data: {
          validatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
          workOrderCode: 'WO-200',
          uuid: U.W200,
          officeCode: 'NORTH',
          actor: { type: 'webService', identifier: 'Test north' },
        },
      },
    ]);
    // By code, WO-200 now names the validated one (there is no live one).
    expectErrors(
      await t.api(validateWorkOrderByCode, { params: { workOrderCode: 'WO-200' } }),
      400,
      C.validationAlreadyValidated,
    );
    expectErrors(
      await t.api(validateWorkOrderByUuid, { params: { workOrderUuid: U.W200 } }),
      400,
      C.validationAlreadyValidated,
    );
    expect(events).toHaveLength(1);
  });

  it('a cancelled work order is refused; unknown, outside and ambiguous as elsewhere; write scope', async () => {
    expectErrors(
      await t.api(validateWorkOrderByCode, { params: { workOrderCode: 'WO-CANCEL' } }),
      400,
      C.validationCancelled,
    );
    expectErrors(
      await t.api(validateWorkOrderByCode, { params: { workOrderCode: 'WO-S' }, as: 'north' }),
      404,
      C.workOrderNotFound,
    );
    expectErrors(
      await t.api(validateWorkOrderByCode, { params: { workOrderCode: 'WO-DUP' } }),
      400,
      C.workOrderAmbiguous,
    );
    expectErrors(
      await t.api(validateWorkOrderByCode, { params: { workOrderCode: 'WO-201' }, as: 'readonly' }),
      403,
      'access.forbiden',
    );
    expect(events).toEqual([]);
    expect((await byCode('WO-CANCEL')).json().status).toBe('CANCELLED');
  });

  it('validating the live one of a code shared with a validated one', async () => {
    expect((await t.api(validateWorkOrderByCode, { params: { workOrderCode: 'WO-V' } })).statusCode).toBe(
      204,
    );
    expect((await byUuid(U.LIVE)).json().status).toBe('VALIDATED');
    expect(events.map((e) => e.data.uuid)).toEqual([U.LIVE]);
  });
});

describe('delete (extension; event workorder.deletion)', () => {
  it('removes the work order, its activities, used items, flags and notes; records the event', async () => {
    await insertActivities(t.db, U.W201, 'D-', 30);
    await insertUsedItems(t.db, U.W201, 'DU-', 12);
    await runImport(t.db, { flags: [{ flagId: 7, label: 'Urgent' }] });
    const workOrderCode = 'WO-201';
    expect((await t.api(putFlagsByCode, { params: { workOrderCode }, body: { ids: [7] } })).statusCode).toBe(
      204,
    );
    const note = await t.api(putNoteByCode, {
      params: { workOrderCode, noteCode: 'N1' },
      body: { content: 'x' },
    });
    expect(note.statusCode).toBe(201);

    const res = await t.api(deleteWorkOrderByCode, { params: { workOrderCode: 'WO-201' }, as: 'north' });
    expect(res.statusCode, res.body).toBe(204);
    expectErrors(await byUuid(U.W201), 404, C.workOrderNotFound);
    expectErrors(
      await t.api(listActivitiesByUuid, { params: { workOrderUuid: U.W201 } }),
      404,
      'fieldTracking.workOrder.notfound',
    );
    const left = await sql<{ n: string }>`
      SELECT (SELECT count(*) FROM activities WHERE activity_id LIKE 'D-%')
           + (SELECT count(*) FROM used_items WHERE used_item_id LIKE 'DU-%')
           + (SELECT count(*) FROM work_order_flags) + (SELECT count(*) FROM work_order_notes) AS n`.execute(
      t.db,
    );
    expect(Number(left.rows[0].n)).toBe(0);
    expect(events).toEqual([
      {
        type: 'workorder.deletion',
        officeId: officeIds.NORTH,
        data: {
          deletedAt: expect.stringMatching(/Z$/),
          workOrderCode: 'WO-201',
          uuid: U.W201,
          officeCode: 'NORTH',
          actor: { type: 'webService', identifier: 'Test north' },
        },
      },
    ]);
    expectErrors(
      await t.api(deleteWorkOrderByUuid, { params: { workOrderUuid: U.W201 } }),
      404,
      C.workOrderNotFound,
    );
  });

  it('a work order in a project (with a dependency) and in a service order: links go, containers stay', async () => {
    await runImport(t.db, {
      projects: [
        {
          projectCode: 'P-DEL',
          name: 'Deletion',
          officeCode: 'NORTH',
          jobs: [
            { jobType: 'task', code: 1, name: 'Prepare' },
            { jobType: 'workOrder', code: 'WO-EMPTY' },
          ],
          dependencies: [
            { blocking: { jobType: 'task', code: '1' }, blocked: { jobType: 'workOrder', code: 'WO-EMPTY' } },
          ],
        },
      ],
      standardServiceOrders: [{ serviceOrderCode: 'SO-DEL', officeCode: 'NORTH', workOrders: ['WO-400'] }],
    });
    expect((await t.api(deleteWorkOrderByCode, { params: { workOrderCode: 'WO-EMPTY' } })).statusCode).toBe(
      204,
    );
    expect((await t.api(deleteWorkOrderByCode, { params: { workOrderCode: 'WO-400' } })).statusCode).toBe(
      204,
    );
    const { rows } = await sql<{ jobs: string; deps: string; links: string; containers: string }>`
      SELECT (SELECT count(*) FROM project_jobs j JOIN projects p ON p.id = j.project_id WHERE p.code = 'P-DEL') AS jobs,
             (SELECT count(*) FROM project_dependencies) AS deps,
             (SELECT count(*) FROM service_order_work_orders) AS links,
             (SELECT count(*) FROM projects WHERE code = 'P-DEL') + (SELECT count(*) FROM service_orders WHERE code = 'SO-DEL')
               AS containers`.execute(t.db);
    expect(rows[0]).toEqual({ jobs: '1', deps: '0', links: '0', containers: '2' });
  });

  it('outside the tree, ambiguous, read-only: refused, nothing deleted', async () => {
    expectErrors(
      await t.api(deleteWorkOrderByUuid, { params: { workOrderUuid: U.SOUTH }, as: 'north' }),
      404,
      C.workOrderNotFound,
    );
    expectErrors(
      await t.api(deleteWorkOrderByCode, { params: { workOrderCode: 'WO-DUP' } }),
      400,
      C.workOrderAmbiguous,
    );
    expectErrors(
      await t.api(deleteWorkOrderByCode, { params: { workOrderCode: 'WO-MIX' }, as: 'readonly' }),
      403,
      'access.forbiden',
    );
    expect((await byUuid(U.SOUTH)).statusCode).toBe(200);
    expect(events).toEqual([]);
  });

  it('a record of another domain referring without cascade: 400, nothing deleted, no event', async () => {
    await sql`CREATE TABLE test_hold (work_order_id bigint REFERENCES work_orders(id))`.execute(t.db);
    try {
      await sql`INSERT INTO test_hold SELECT id FROM work_orders WHERE uuid = ${U.MIX}`.execute(t.db);
      expectErrors(
        await t.api(deleteWorkOrderByUuid, { params: { workOrderUuid: U.MIX } }),
        400,
        C.deletionReferenced,
      );
      expect((await byUuid(U.MIX)).statusCode).toBe(200);
      expect(events).toEqual([]);
    } finally {
      await sql`DROP TABLE test_hold`.execute(t.db);
    }
    expect((await t.api(deleteWorkOrderByUuid, { params: { workOrderUuid: U.MIX } })).statusCode).toBe(204);
  });
});
