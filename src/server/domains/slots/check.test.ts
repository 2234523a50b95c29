/**
 * POST /rest/v3/slots/check (extension, the dispatch board): would this work order fit this
 * technician at this start, and if not, why; bad input answered with its code, unknown and
 * outside the caller's tree answered alike.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleByCode } from '../../../contract/scheduling.ts';
import { checkSlot, type SlotCheck, type SlotCheckSent } from '../../../contract/slots.ts';
import { runImport } from '../../cli/importFile.ts';
import { expectErrors } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { futureMonday, plusDays, ROUBAIX, slotFixture } from './fixture.ts';

let t: TestApp;
const monday = futureMonday();
const tuesday = plusDays(monday, 1);
/** Lille to Roubaix by the road model: 11 km as the crow flies, 14.3 km of road, 25 minutes. */
const LILLE_ROUBAIX = { minutes: 25, kilometres: 14.3 };

beforeAll(async () => {
  const unlimited = { perMinute: 1e9, perHour: 1e9 };
  t = await createTestApp({ rateLimits: { high: unlimited, standard: unlimited, low: unlimited } });
  await runImport(t.db, slotFixture(monday));
  const wo = (workOrderCode: string, more: object) => ({
    workOrderCode,
    workOrderTypeCode: 'REPAIR',
    status: 'NEW',
    officeCode: 'NORTH',
    ...more,
  });
  await runImport(t.db, {
    workOrders: [
      wo('WO-OTHER', { location: { city: 'Roubaix', ...ROUBAIX } }),
      wo('WO-NOWHERE', {}),
      wo('WO-DUP', { location: ROUBAIX }),
    ],
  });
  // A second live work order with WO-DUP's code (the import refuses one file naming it twice).
  await sql`INSERT INTO work_orders (uuid, code, type_code, status, office_id)
            SELECT gen_random_uuid(), code, type_code, status, office_id FROM work_orders WHERE code = 'WO-DUP'`.execute(
    t.db,
  );
});
afterAll(() => t.close());

const call = (body: unknown, as: TestClient = 'root') => t.api(checkSlot, { body, as });
async function checked(body: SlotCheckSent, as: TestClient = 'root'): Promise<SlotCheck> {
  const res = await call(body, as);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
async function codes(body: unknown, as: TestClient = 'root') {
  const res = await call(body, as);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().errorReference).toBeTruthy();
  return res.json().errors as { code: string; message: string }[];
}
const place = (technicianCode: string, at: string, workOrder = { code: 'WO-NEW' }): SlotCheckSent => ({
  workOrder,
  technicianCode,
  start: at,
});

describe('slot check (extension)', () => {
  it('fits: free time for the travel from the work order before, the work and the travel home', async () => {
    // T-UTC: Monday 09:00-17:00 UTC at Roubaix, WO-BUSY (Roubaix) 11:00-12:30.
    expect(await checked(place('T-UTC', `${monday}T14:00`))).toEqual({
      fits: true,
      start: `${monday}T14:00:00Z`,
      end: `${monday}T15:00:00Z`,
      travel: {
        before: { ...LILLE_ROUBAIX, from: { type: 'workOrder', workOrderCode: 'WO-BUSY' } },
        after: { ...LILLE_ROUBAIX, to: { type: 'home', workOrderCode: null } },
      },
    });
    // Any start, not only the search's grid.
    expect((await checked(place('T-UTC', `${monday}T13:07`))).fits).toBe(true);
  });

  it('too.far: the work fits the free time, not with the travel', async () => {
    expect(await checked(place('T-UTC', `${monday}T12:40`))).toEqual({
      fits: false,
      reason: 'too.far',
      detail: {
        route: 'ok',
        free: { start: `${monday}T12:30:00Z`, end: `${monday}T17:00:00Z` },
        neededMinutes: 25 + 60 + 25,
      },
      start: `${monday}T12:40:00Z`,
      end: `${monday}T13:40:00Z`,
      travel: {
        before: { ...LILLE_ROUBAIX, from: { type: 'workOrder', workOrderCode: 'WO-BUSY' } },
        after: { ...LILLE_ROUBAIX, to: { type: 'home', workOrderCode: null } },
      },
    });
  });

  it('no.window: over a work order, or outside working hours', async () => {
    const busy = await checked(place('T-UTC', `${monday}T11:30`));
    expect(busy).toMatchObject({
      fits: false,
      reason: 'no.window',
      detail: { workOrders: ['WO-BUSY'], free: null },
    });
    expect(busy.travel).toBeNull();
    const late = await checked(place('T-UTC', `${monday}T16:30`));
    expect(late).toMatchObject({
      fits: false,
      reason: 'no.window',
      detail: { workOrders: [], free: { start: `${monday}T12:30:00Z`, end: `${monday}T17:00:00Z` } },
    });
    // T-UTC works on Mondays only.
    expect(await checked(place('T-UTC', `${tuesday}T10:00`))).toMatchObject({ reason: 'no.window' });
  });

  it('absent: the absence met', async () => {
    // T-PARIS is absent on Tuesday (00:00-23:59 UTC).
    expect(await checked(place('T-PARIS', `${tuesday}T08:00`))).toMatchObject({
      fits: false,
      reason: 'absent',
      detail: { absences: [{ start: `${tuesday}T00:00:00Z`, end: `${tuesday}T23:59:00Z` }] },
    });
  });

  it('capacity.full: the day at its capacity', async () => {
    // T-UTC takes 2 work orders a day: WO-BUSY and WO-EXTRA on Monday.
    await runImport(t.db, {
      workOrders: [
        {
          workOrderCode: 'WO-EXTRA',
          workOrderTypeCode: 'REPAIR',
          status: 'SCHEDULED',
          officeCode: 'NORTH',
          technicianCode: 'T-UTC',
          scheduledStart: `${monday}T09:00`,
          location: ROUBAIX,
        },
      ],
    });
    const full = await checked(place('T-UTC', `${monday}T14:00`));
    await t.db.deleteFrom('work_orders').where('code', '=', 'WO-EXTRA').execute();
    expect(full).toMatchObject({
      fits: false,
      reason: 'capacity.full',
      detail: { day: monday, maxWorkOrdersPerDay: 2, maxMinutesPerDay: null },
    });
    expect((await checked(place('T-UTC', `${monday}T14:00`))).fits).toBe(true);
  });

  it('skill.missing and inactive', async () => {
    expect(await checked(place('T-NOHOME', `${monday}T09:00`))).toMatchObject({
      fits: false,
      reason: 'skill.missing',
      detail: { skills: ['ELEC'] },
    });
    expect(await checked(place('T-OFF', `${monday}T09:00`))).toMatchObject({
      fits: false,
      reason: 'inactive',
    });
  });

  it('the work order placed is no obstacle to itself; it is to another one', async () => {
    // T-PARIS (no capacity limit) works 08:00-12:00 Paris time: 08:00 UTC is inside, winter or summer.
    const at = `${monday}T08:00`;
    const put = await t.api(scheduleByCode, {
      params: { workOrderCode: 'WO-NEW' },
      body: { technicianCode: 'T-PARIS', start: at },
    });
    expect(put.statusCode, put.body).toBe(204);
    try {
      expect((await checked(place('T-PARIS', at))).fits).toBe(true);
      expect(await checked(place('T-PARIS', at, { code: 'WO-OTHER' }))).toMatchObject({
        fits: false,
        reason: 'no.window',
        detail: { workOrders: ['WO-NEW'] },
      });
      const { uuid } = await t.db
        .selectFrom('work_orders')
        .select('uuid')
        .where('code', '=', 'WO-NEW')
        .executeTakeFirstOrThrow();
      expect((await checked(place('T-PARIS', at, { id: uuid.toUpperCase() } as never))).fits).toBe(true);
    } finally {
      await t.db
        .updateTable('work_orders')
        .set({ technician_code: null, scheduled_start: null, status: 'NEW' })
        .where('code', '=', 'WO-NEW')
        .execute();
    }
  });

  it('unknown work order or technician, and those of another office or tenant, read alike (400)', async () => {
    const notFound = async (body: SlotCheckSent, as: TestClient) =>
      (await codes(body, as)).map(({ code, message }) => ({ code, message }));
    const missingWo = await notFound(place('T-UTC', `${monday}T14:00`, { code: 'WO-NOPE' }), 'root');
    expect(missingWo.map((e) => e.code)).toEqual(['slots.workorder.notfound']);
    // WO-SOUTH is in SOUTH: outside NORTH's tree; WO-NEW is outside the RIVAL tenant.
    expect(await notFound(place('T-UTC', `${monday}T14:00`, { code: 'WO-SOUTH' }), 'north')).toEqual(
      missingWo,
    );
    const missingTech = await notFound(place('T-NOBODY', `${monday}T14:00`), 'root');
    expect(missingTech.map((e) => e.code)).toEqual(['slots.technician.notfound']);
    expect(await notFound(place('T-SOUTH', `${monday}T14:00`), 'north')).toEqual(
      missingTech.map((e) => ({ ...e, message: e.message.replace('T-NOBODY', 'T-SOUTH') })),
    );
    const rival = await notFound(place('T-UTC', `${monday}T14:00`), 'rival');
    expect(rival.map((e) => e.code)).toEqual(['slots.workorder.notfound', 'slots.technician.notfound']);
    // An id that is no uuid names no work order.
    expect(
      (await codes(place('T-UTC', `${monday}T14:00`, { id: 'not-a-uuid' } as never))).map((e) => e.code),
    ).toEqual(['slots.workorder.notfound']);
  });

  it('the work order named both ways, or not at all; ambiguous; not located', async () => {
    const at = `${monday}T14:00`;
    expect(
      (await codes(place('T-UTC', at, { code: 'WO-NEW', id: crypto.randomUUID() } as never))).map(
        (e) => e.code,
      ),
    ).toEqual(['2010']);
    expect((await codes(place('T-UTC', at, {} as never))).map((e) => e.code)).toEqual([
      'slots.check.workorder.mandatory',
    ]);
    expect((await codes(place('T-UTC', at, { code: 'WO-DUP' }))).map((e) => e.code)).toEqual([
      'slots.workorder.code.ambiguous',
    ]);
    expect((await codes(place('T-UTC', at, { code: 'WO-NOWHERE' }))).map((e) => e.code)).toEqual(['3011']);
  });

  it('shape errors: unknown field, missing or malformed field, malformed JSON; rights', async () => {
    const ok = place('T-UTC', `${monday}T14:00`);
    const first = async (body: unknown) => (await codes(body)).map((e) => e.code);
    expect(await first({ ...ok, colour: 'red' })).toEqual(['slots.check.field.unknown']);
    expect(await first({ ...ok, technicianCode: undefined })).toEqual([
      'slots.check.techniciancode.mandatory',
    ]);
    expect(await first({ ...ok, start: `${monday}T25:00` })).toEqual(['slots.check.start.invalid']);
    expect(await first({ ...ok, workOrder: undefined })).toEqual(['slots.check.workorder.mandatory']);
    const raw = await t.api(checkSlot, { raw: '{"technicianCode": "T-UTC", "technicianCode": "T-UTC"}' });
    expectErrors(raw, 400, 'slots.check.invalid.json');
    // A read-only application holds no slots:write.
    expectErrors(await call(ok, 'readonly'), 403, 'access.forbiden');
  });
});
