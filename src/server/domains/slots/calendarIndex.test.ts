/**
 * The calendar index (calendarIndex.ts): a search sees every change committed before it,
 * whether made through the API, an import or SQL written by another process, and reads
 * again only the technicians whose calendar changed.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleByCode } from '../../../contract/scheduling.ts';
import { type Slot, SlotSearchRequest, type SlotSearchSent, searchSlots } from '../../../contract/slots.ts';
import { runImport } from '../../cli/importFile.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { CalendarIndex, calendarIndexOf } from './calendarIndex.ts';
import { futureMonday, LILLE, plusDays, ROUBAIX, slotFixture } from './fixture.ts';
import * as service from './service.ts';

const MIN = 60_000;
let t: TestApp;
let index: CalendarIndex;
const monday = futureMonday();
const mondayRange = { start: `${monday}T00:00`, end: `${plusDays(monday, 1)}T00:00` };
/** T-UTC alone (office NORTH-A): Monday 09:00-17:00 UTC, WO-BUSY 11:00-12:30 at Roubaix. */
const uma: SlotSearchSent = {
  workOrderType: { code: 'REPAIR' },
  timeRanges: [mondayRange],
  location: ROUBAIX,
  offices: { codes: ['NORTH-A'] },
  maximumSlotNumber: 700,
  schedulerRequirements: { workingHours: { ignoreFieldResourceCapacityModel: true } },
};

beforeAll(async () => {
  const unlimited = { perMinute: 1e9, perHour: 1e9 };
  t = await createTestApp({ rateLimits: { high: unlimited, standard: unlimited, low: unlimited } });
  await runImport(t.db, slotFixture(monday));
  index = await calendarIndexOf(t.app.fieldwork.dbh);
});
afterAll(() => t.close());

async function rootScope() {
  const root = await t.db
    .selectFrom('offices')
    .select(['id', 'path'])
    .where('code', '=', 'ROOT')
    .executeTakeFirstOrThrow();
  return { officeId: String(root.id), officeCode: 'ROOT', path: root.path };
}

async function slots(body: SlotSearchSent, as: 'root' | 'rival' = 'root'): Promise<Slot[]> {
  const res = await t.api(searchSlots, { body, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().slots;
}
/** No slot's travel, work and travel overlap [start, end). */
const clear = (list: Slot[], start: number, end: number) =>
  list.every(
    (s) =>
      Date.parse(s.end) + s.travelAfter.minutes * MIN <= start ||
      Date.parse(s.start) - s.travelBefore.minutes * MIN >= end,
  );
/** Notifications reach PostgreSQL's listener after the commit, PGlite's before the statement returns. */
async function eventually(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
}

describe('calendar index', () => {
  it('a second search reads no calendar; a work order scheduled through the API is seen by the next one', async () => {
    const before = await slots(uma);
    expect(before.length).toBeGreaterThan(0);
    const reads = index.stats.reads;
    expect(await slots(uma)).toEqual(before);
    expect(index.stats.reads).toBe(reads);

    // WO-NEW on T-UTC at 14:00, where the first answer had a slot.
    const at = `${monday}T14:00`;
    expect(before.some((s) => s.start === `${at}:00Z`)).toBe(true);
    const dropped = index.stats.dropped;
    const put = await t.api(scheduleByCode, {
      params: { workOrderCode: 'WO-NEW' },
      body: { technicianCode: 'T-UTC', start: at },
    });
    expect(put.statusCode, put.body).toBe(204);
    // The notification dropped T-UTC from the index.
    await eventually(() => index.stats.dropped > dropped);

    const after = await slots({ ...uma, workOrderType: { code: 'GASFIX' } });
    const start = Date.parse(`${at}:00Z`);
    expect(clear(after, start, start + 60 * MIN)).toBe(true);
    // WO-NEW is a place now: a slot travels from it or to it.
    expect(
      after.some(
        (s) => s.travelBefore.from.workOrderCode === 'WO-NEW' || s.travelAfter.to.workOrderCode === 'WO-NEW',
      ),
    ).toBe(true);
    // Placing WO-NEW itself, its own booking is no obstacle.
    const itself = await slots({ ...uma, workOrder: { code: 'WO-NEW' } });
    expect(itself.some((s) => s.start === `${at}:00Z`)).toBe(true);
  });

  it('reads again only the technician whose calendar changed, even with no notification (SQL of another process)', async () => {
    const all: SlotSearchSent = { ...uma, offices: undefined, location: LILLE };
    await slots(all);
    // The index stops listening: only the stamps read by the search can tell.
    const deaf = new CalendarIndex();
    const scope = await rootScope();
    const search = (body: SlotSearchSent) =>
      service.search(t.db, scope, SlotSearchRequest.parse(body), { ...service.defaultServices, index: deaf });
    const first = await search(all);
    const reads = deaf.stats.reads;
    expect(reads).toBeGreaterThan(1);
    // T-UTC now starts at 15:00 on Monday, written straight to the table.
    await sql`UPDATE technicians SET working_hours = '[{"weekday": 1, "start": "15:00", "end": "17:00"}]'::jsonb
              WHERE code = 'T-UTC'`.execute(t.db);
    const second = await search(all);
    expect(deaf.stats.reads).toBe(reads + 1);
    const early = (list: Slot[]) =>
      list.filter(
        (s) => s.technicians[0] === 'T-UTC' && Date.parse(s.start) < Date.parse(`${monday}T15:00:00Z`),
      );
    expect(early(first.slots).length).toBeGreaterThan(0);
    expect(early(second.slots)).toEqual([]);
    await sql`UPDATE technicians SET working_hours = '[{"weekday": 1, "start": "09:00", "end": "17:00"}]'::jsonb
              WHERE code = 'T-UTC'`.execute(t.db);
  });

  it('work orders inserted and deleted by SQL statements are seen by the next search (no notification)', async () => {
    const deaf = new CalendarIndex();
    const scope = await rootScope();
    const search = async () =>
      (
        await service.search(t.db, scope, SlotSearchRequest.parse(uma), {
          ...service.defaultServices,
          index: deaf,
        })
      ).slots;
    const at = { start: Date.parse(`${monday}T15:00:00Z`), end: Date.parse(`${monday}T16:00:00Z`) };
    expect(clear(await search(), at.start, at.end)).toBe(false);
    await sql`INSERT INTO work_orders (uuid, code, type_code, status, office_id, technician_code, scheduled_start,
                                       latitude, longitude)
              SELECT gen_random_uuid(), 'WO-SQL', 'REPAIR', 'SCHEDULED', office_id, 'T-UTC', ${`${monday}T15:00:00Z`},
                     latitude, longitude
              FROM work_orders WHERE code = 'WO-BUSY'`.execute(t.db);
    expect(clear(await search(), at.start, at.end)).toBe(true);
    await sql`DELETE FROM work_orders WHERE code = 'WO-SQL'`.execute(t.db);
    expect(clear(await search(), at.start, at.end)).toBe(false);
  });

  it('a new duration of a type moves the end of its work orders', async () => {
    // WO-BUSY (GASFIX, 90 minutes from 11:00) runs to 13:00 with 120 minutes.
    const busy = { start: Date.parse(`${monday}T11:00:00Z`), end: Date.parse(`${monday}T13:00:00Z`) };
    const before = await slots(uma);
    await sql`UPDATE work_order_types SET duration_minutes = 120 WHERE code = 'GASFIX'`.execute(t.db);
    const after = await slots(uma);
    await sql`UPDATE work_order_types SET duration_minutes = 90 WHERE code = 'GASFIX'`.execute(t.db);
    expect(
      before.some(
        (s) => s.start === `${monday}T12:30:00Z` && s.travelBefore.from.workOrderCode === 'WO-BUSY',
      ),
    ).toBe(true);
    expect(clear(after, busy.start, busy.end)).toBe(true);
  });

  it('keeps at most its bound of work orders, least recently searched out first', async () => {
    const small = new CalendarIndex({ horizonDays: 70, maxWorkOrders: 1 });
    const scope = await rootScope();
    const stamps = await t.db
      .selectFrom('slot_calendars')
      .select(['technician_code as code', 'stamp'])
      .execute();
    const now = Date.now();
    const visible = {
      start: Date.parse(`${monday}T00:00Z`),
      end: Date.parse(`${plusDays(monday, 5)}T00:00Z`),
    };
    const days = await small.daysOf(t.db, scope, stamps, visible, now);
    // Every calendar is answered, but only one work order is kept.
    expect(days.size).toBe(stamps.length);
    expect(small.size.workOrders).toBeLessThanOrEqual(1);
    expect(small.stats.evicted).toBeGreaterThan(0);
  });

  it('a search beyond the horizon reads its own period and keeps nothing', async () => {
    const far = plusDays(monday, 7 * 20);
    const kept = index.size.technicians;
    index.clear();
    const list = await slots({
      ...uma,
      timeRanges: [{ start: `${far}T00:00`, end: `${plusDays(far, 1)}T00:00` }],
    });
    expect(list.length).toBeGreaterThan(0);
    expect(index.size.technicians).toBe(0);
    expect(kept).toBeGreaterThan(0);
  });

  it("keeps each tenant's technician of one code apart: another tenant's T-UTC neither answers for ours nor pushes ours out", async () => {
    await runImport(
      t.db,
      {
        skills: [{ skillCode: 'ELEC', name: 'Electricity' }],
        workOrderTypes: [
          { workOrderTypeCode: 'REPAIR', name: 'Repair', durationMinutes: 60, skills: ['ELEC'] },
        ],
        technicians: [
          {
            technicianCode: 'T-UTC',
            name: 'Rival Uma',
            officeCode: 'RIVAL',
            skills: ['ELEC'],
            home: ROUBAIX,
            workingHours: [{ weekday: 1, start: '15:00', end: '17:00' }],
          },
        ],
      },
      { tenant: 'RIVAL' },
    );
    const ours = await slots(uma);
    const reads = index.stats.reads;
    const theirs = await slots({ ...uma, offices: { codes: ['RIVAL'] } }, 'rival');
    // Their T-UTC, read once: from 15:00 only, where ours starts at 09:00.
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.every((s) => Date.parse(s.start) >= Date.parse(`${monday}T15:00:00Z`))).toBe(true);
    expect(ours.some((s) => Date.parse(s.start) < Date.parse(`${monday}T15:00:00Z`))).toBe(true);
    expect(index.stats.reads).toBe(reads + 1);
    // Ours is still kept: the same answer, no calendar read.
    expect(await slots(uma)).toEqual(ours);
    expect(index.stats.reads).toBe(reads + 1);
  });
});
