/**
 * GET /rest/v3/slots/board (extension, the dispatch board): technicians of the caller's tree
 * by code, a page at a time, each with working hours, absences and work orders over the
 * period, and the travel between them.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_PAGE_SIZE, type BoardTechnician, readBoard } from '../../../contract/slots.ts';
import { runImport } from '../../cli/importFile.ts';
import { type ApiOptions, expectErrors } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { futureMonday, LILLE, plusDays, ROUBAIX, slotFixture } from './fixture.ts';
import { greatCircleRoadModel } from './road.ts';

let t: TestApp;
const monday = futureMonday();
const tuesday = plusDays(monday, 1);
const week = { start: `${monday}T00:00`, end: `${plusDays(monday, 7)}T00:00` };
type Query = NonNullable<ApiOptions<typeof readBoard>['query']>;

beforeAll(async () => {
  const unlimited = { perMinute: 1e9, perHour: 1e9 };
  t = await createTestApp({ rateLimits: { high: unlimited, standard: unlimited, low: unlimited } });
  await runImport(t.db, slotFixture(monday));
  // T-UTC's Monday: WO-BUSY (fixture, Roubaix, 11:00-12:30), WO-LATER (Lille, 14:00-15:00);
  // T-PARIS' Monday: WO-SOUTHERN, a work order of office SOUTH.
  const scheduled = (
    workOrderCode: string,
    officeCode: string,
    technicianCode: string,
    at: string,
    location: object,
  ) => ({
    workOrderCode,
    workOrderTypeCode: 'REPAIR',
    status: 'SCHEDULED',
    officeCode,
    technicianCode,
    scheduledStart: at,
    location,
    customerCode: 'C-42',
  });
  await runImport(t.db, {
    workOrders: [
      scheduled('WO-LATER', 'NORTH', 'T-UTC', `${monday}T14:00`, LILLE),
      scheduled('WO-SOUTHERN', 'SOUTH', 'T-PARIS', `${monday}T08:00`, LILLE),
    ],
  });
});
afterAll(() => t.close());

async function page(query: Query, as: TestClient = 'root') {
  const res = await t.api(readBoard, { query, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { continuationToken: string | null; data: BoardTechnician[] };
}
const refused = async (query: Query, code: string, as: TestClient = 'root') =>
  expectErrors(await t.api(readBoard, { query, as }), 400, code);
const row = (p: { data: BoardTechnician[] }, code: string) =>
  p.data.find((r) => r.technicianCode === code) as BoardTechnician;

describe('slot board (extension)', () => {
  it('one row per technician of the tree, by code: working hours, absences, work orders with their travel', async () => {
    const p = await page(week);
    expect(p.data.map((r) => r.technicianCode)).toEqual(['T-NOHOME', 'T-OFF', 'T-PARIS', 'T-SOUTH', 'T-UTC']);
    expect(p.continuationToken).toBeNull();
    const uma = row(p, 'T-UTC');
    expect(uma.workingHours).toEqual([{ start: `${monday}T09:00:00Z`, end: `${monday}T17:00:00Z` }]);
    expect(uma.capacity).toEqual({ maxWorkOrdersPerDay: 2, maxMinutesPerDay: null });
    expect(
      uma.workOrders.map((w) => [w.workOrderCode, w.workOrderTypeCode, w.status, w.start, w.end]),
    ).toEqual([
      ['WO-BUSY', 'GASFIX', 'SCHEDULED', `${monday}T11:00:00Z`, `${monday}T12:30:00Z`],
      ['WO-LATER', 'REPAIR', 'SCHEDULED', `${monday}T14:00:00Z`, `${monday}T15:00:00Z`],
    ]);
    // Home (Roubaix) -> WO-BUSY (Roubaix) -> WO-LATER (Lille) -> home.
    const road = greatCircleRoadModel.travel(ROUBAIX, LILLE);
    const [busy, later] = uma.workOrders;
    expect(busy.travelBefore).toEqual({ minutes: 0, kilometres: 0 });
    expect(busy.travelAfter).toEqual(road);
    expect(later.travelBefore).toEqual(road);
    expect(later.travelAfter).toEqual(road);
    expect(later.customerCode).toBe('C-42');
    expect(later.workOrderTypeName).toBe('Repair');
    const paula = row(p, 'T-PARIS');
    expect(paula.absences).toEqual([{ start: `${tuesday}T00:00:00Z`, end: `${tuesday}T23:59:00Z` }]);
    expect(paula.timeZone).toBe('Europe/Paris');
    expect(paula.workingHours).toHaveLength(5);
  });

  it("a work order outside the caller's tree shows as busy time only", async () => {
    expect(row(await page(week), 'T-PARIS').workOrders.map((w) => w.workOrderCode)).toEqual(['WO-SOUTHERN']);
    const north = row(await page(week, 'north'), 'T-PARIS');
    expect(north.workOrders).toEqual([]);
    expect(north.busy).toEqual([{ start: `${monday}T08:00:00Z`, end: `${monday}T09:00:00Z` }]);
  });

  it('only the period: what overlaps it', async () => {
    const afternoon = await page({ start: `${monday}T13:00`, end: `${monday}T18:00` });
    const uma = row(afternoon, 'T-UTC');
    expect(uma.workOrders.map((w) => w.workOrderCode)).toEqual(['WO-LATER']);
    // Travel is still from the work order before it that day.
    expect(uma.workOrders[0].travelBefore).toEqual(greatCircleRoadModel.travel(ROUBAIX, LILLE));
    expect(uma.workingHours).toEqual([{ start: `${monday}T09:00:00Z`, end: `${monday}T17:00:00Z` }]);
    expect(row(afternoon, 'T-PARIS').absences).toEqual([]);
  });

  it('filters: office (and below), skill, area, text, active; the tree and the tenant', async () => {
    const codes = async (q: Query, as: TestClient = 'root') =>
      (await page({ ...week, ...q }, as)).data.map((r) => r.technicianCode);
    expect(await codes({ officeCode: 'north' })).toEqual(['T-NOHOME', 'T-OFF', 'T-PARIS', 'T-UTC']);
    expect(await codes({ skillCode: 'gas' })).toEqual(['T-UTC']);
    expect(await codes({ areaCode: 'LYON' })).toEqual(['T-SOUTH']);
    expect(await codes({ q: 'uma' })).toEqual(['T-UTC']);
    expect(await codes({ q: 't-p' })).toEqual(['T-PARIS']);
    expect(await codes({ active: false })).toEqual(['T-OFF']);
    expect(await codes({ officeCode: 'NORTH', active: true, skillCode: 'ELEC' })).toEqual([
      'T-PARIS',
      'T-UTC',
    ]);
    expect(await codes({}, 'north')).toEqual(['T-NOHOME', 'T-OFF', 'T-PARIS', 'T-UTC']);
    expect(await codes({}, 'rival')).toEqual([]);
  });

  it(`pages of ${BOARD_PAGE_SIZE} by code; the token is bound to the period and filters`, async () => {
    await sql`INSERT INTO technicians (code, name, office_id, skills)
              SELECT 'T-X' || lpad(g::text, 3, '0'), 'Extra ' || g, (SELECT id FROM offices WHERE code = 'NORTH'), '{ELEC}'
              FROM generate_series(1, 150) g`.execute(t.db);
    try {
      const pages = await t.pages<BoardTechnician>(readBoard, { query: week });
      expect(pages.map((p) => p.data.length)).toEqual([BOARD_PAGE_SIZE, 55]);
      const all = pages.flatMap((p) => p.data.map((r) => r.technicianCode));
      expect(all).toEqual([...all].sort());
      const token = pages[0].continuationToken as string;
      await refused(
        { ...week, start: `${tuesday}T00:00`, continuationToken: token },
        'slots.continuationToken.invalid',
      );
      await refused({ ...week, q: 'x', continuationToken: token }, 'slots.continuationToken.invalid');
      await refused({ ...week, continuationToken: 'nope' }, 'slots.continuationToken.invalid');
    } finally {
      await sql`DELETE FROM technicians WHERE code LIKE 'T-X%'`.execute(t.db);
    }
  });

  it('bad input: the period, an office outside the tree, unknown parameters', async () => {
    await refused({ start: `${monday}T10:00`, end: `${monday}T10:00` }, 'slots.board.period.invalid');
    await refused(
      { start: `${monday}T00:00`, end: `${plusDays(monday, 32)}T00:00` },
      'slots.board.period.invalid',
    );
    await refused({ end: `${monday}T10:00` }, 'slots.board.start.mandatory');
    await refused({ start: `${monday}T25:00`, end: `${tuesday}T00:00` }, 'slots.board.start.invalid');
    await refused({ ...week, officeCode: 'NOWHERE' }, 'slots.board.office.unknown');
    // Another office's subtree and another tenant read like an office that does not exist.
    await refused({ ...week, officeCode: 'SOUTH' }, 'slots.board.office.unknown', 'north');
    await refused({ ...week, officeCode: 'RIVAL' }, 'slots.board.office.unknown');
    await refused({ ...week, colour: 'red' } as Query, 'slots.board.field.unknown');
    await refused({ ...week, active: 'maybe' }, 'slots.board.active.invalid');
  });
});
