import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOT_ERRORS, type Slot, type SlotSearchSent, searchSlots } from '../../../contract/slots.ts';
import { runImport } from '../../cli/importFile.ts';
import { codesOf } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { AJACCIO, futureMonday, LILLE, LYON, plusDays, ROUBAIX, slotFixture } from './fixture.ts';

let t: TestApp;
const monday = futureMonday();
const week = { start: `${monday}T00:00`, end: `${plusDays(monday, 5)}T00:00` };
const base: SlotSearchSent = { workOrderType: { code: 'REPAIR' }, timeRanges: [week], location: LILLE };

beforeAll(async () => {
  const unlimited = { perMinute: 1e9, perHour: 1e9 };
  t = await createTestApp({ rateLimits: { high: unlimited, standard: unlimited, low: unlimited } });
  await runImport(t.db, slotFixture(monday));
});
afterAll(() => t.close());

const search = (body: unknown, as: TestClient = 'root') => t.api(searchSlots, { body, as });
async function slots(body: SlotSearchSent, as: TestClient = 'root'): Promise<Slot[]> {
  const res = await search(body, as);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().slots;
}
async function codes(body: unknown, as: TestClient = 'root'): Promise<string[]> {
  const res = await search(body, as);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().errorReference).toBeTruthy();
  return codesOf(res);
}
const technicianSet = async (body: SlotSearchSent, as: TestClient = 'root') =>
  new Set((await slots({ ...body, maximumSlotNumber: 700 }, as)).flatMap((s) => s.technicians));
const pastRange = { start: '2020-01-06T08:00', end: '2020-01-06T18:00' };

describe('slot search: each business code answers 400 with the number as a string', () => {
  const cases: [string, unknown][] = [
    ['1001', { timeRanges: [week], location: LILLE }],
    ['1001', { workOrderType: {}, timeRanges: [week], location: LILLE }],
    ['1002', { workOrderType: { code: 'REPAIR' }, location: LILLE }],
    ['1002', { ...base, timeRanges: [] }],
    ['1003', { ...base, enableZoneFilter: true }],
    ['2001', { ...base, workOrderType: { code: 'NOPE' } }],
    ['2002', { ...base, offices: { codes: ['NOWHERE'] } }],
    ['2002', { ...base, offices: { ids: [987654] } }],
    ['2003', { ...base, timeRanges: [pastRange] }],
    ['2003', { ...base, timeRanges: undefined, availabilities: { appointmentDate: '2020-01-06' } }],
    ['2004', { ...base, timeRanges: [{ start: week.end, end: week.start }] }],
    ['2005', { ...base, timeRanges: [{ start: week.start, end: `${plusDays(monday, 7 * 200 + 1)}T00:00` }] }],
    ['2006', { ...base, offices: { codes: ['NORTH'], ids: [1] } }],
    ['2007', { ...base, areas: { codes: ['LILLE', 'ATLANTIS'] } }],
    ['2008', { ...base, maximumSlotNumber: 701 }],
    ['2009', { ...base, skills: { codes: ['ELEC'], ids: ['ELEC'] } }],
    ['2010', { ...base, workOrder: { code: 'WO-NEW', id: '8e0b6a51-3f7a-4c55-9d2e-0c1f2b3a4d5e' } }],
    ['2011', { ...base, areaScope: 'PLANET' }],
    ['2012', { ...base, areaScope: 'RESOURCE', customerPortalUser: 'portal-a' }],
    ['2013', { ...base, perResource: 'FIRST_OF_THE_DAY', startingHours: { values: ['09:00'] } }],
    [
      '2014',
      {
        ...base,
        timeRanges: undefined,
        perResource: 'FIRST_OF_THE_DAY',
        availabilities: { appointmentDate: monday },
      },
    ],
    ['3011', { ...base, location: { city: 'Nowhereville-sur-Rien', country: 'FR' } }],
    ['3011', { ...base, location: undefined }],
    ['3021', { ...base, location: { latitude: 90, longitude: 3 } }],
    ['3021', { ...base, location: { latitude: 50, longitude: -180 } }],
    ['3021', { ...base, location: { latitude: 50 } }],
    ['3022', { ...base, location: { latitude: 0, longitude: 0 } }],
    // T-NOHOME, the only LIFT technician, has no home: no travel can be computed.
    ['3031', { ...base, workOrderType: { code: 'LIFTFIX' } }],
    // Corsica: no road from the mainland technicians.
    ['3032', { ...base, location: AJACCIO }],
  ];
  it.each(cases)('%s', async (code, body) => {
    const found = await codes(body);
    expect(found).toContain(code);
    const res = await search(body);
    const item = res.json().errors.find((e: { code: string }) => e.code === code);
    expect(item.message).toContain(SLOT_ERRORS[code as keyof typeof SLOT_ERRORS].message);
  });

  it('every business code of the spec is covered above', () => {
    expect(new Set(cases.map((c) => c[0]))).toEqual(new Set(Object.keys(SLOT_ERRORS)));
  });

  it('lists every error found at once', async () => {
    expect(
      (
        await codes({
          maximumSlotNumber: 900,
          areaScope: 'X',
          offices: { codes: ['A'], ids: [1] },
          location: { latitude: 0, longitude: 0 },
        })
      ).sort(),
    ).toEqual(['1001', '1002', '2006', '2008', '2011', '3022']);
  });

  it('an office outside the caller tree is unknown (2002)', async () => {
    expect(await codes({ ...base, offices: { codes: ['SOUTH'] } }, 'north')).toEqual(['2002']);
  });

  it('shape errors: unknown field, wrong type, bad date, malformed JSON', async () => {
    expect(await codes({ ...base, colour: 'red' })).toEqual(['slots.field.unknown']);
    expect(await codes({ ...base, location: { ...LILLE, altitude: 3 } })).toEqual(['slots.field.unknown']);
    expect(await codes({ ...base, maximumSlotNumber: 'ten' })).toEqual(['slots.invalid.json']);
    expect(await codes({ ...base, timeRanges: [{ start: '2030-02-30T08:00', end: week.end }] })).toEqual([
      'slots.invalid.json',
    ]);
    expect(await codes({ ...base, perResource: 'SOME' })).toEqual(['slots.invalid.json']);
    const raw = await t.api(searchSlots, { raw: '{"workOrderType": {"code": "A"}, "workOrderType": {}}' });
    expect(raw.json().errors[0].code).toBe('slots.invalid.json');
  });

  it('references without a number: unknown work order, skill, portal user', async () => {
    expect(await codes({ ...base, workOrder: { code: 'NOPE' } })).toEqual(['slots.workorder.notfound']);
    expect(await codes({ ...base, workOrder: { code: 'WO-SOUTH' } }, 'north')).toEqual([
      'slots.workorder.notfound',
    ]);
    expect(await codes({ ...base, skills: { codes: ['JUGGLING'] } })).toEqual(['slots.skill.unknown']);
    expect(await codes({ ...base, customerPortalUser: 'ghost' })).toEqual([
      'slots.customerportaluser.unknown',
    ]);
  });

  it('a portal user of another office tree answers exactly as one that does not exist (issue 24)', async () => {
    // portal-a is NORTH-A's: SOUTH (a sibling tree) and RIVAL (another tenant) do not learn of it.
    for (const as of ['south', 'rival'] as const) {
      const other = await search({ ...base, customerPortalUser: 'portal-a' }, as);
      const ghost = await search({ ...base, customerPortalUser: 'ghost' }, as);
      expect(other.statusCode, other.body).toBe(400);
      expect(other.statusCode).toBe(ghost.statusCode);
      expect(other.json().errors).toEqual(
        ghost.json().errors.map((e: { code: string; message: string }) => ({
          ...e,
          message: e.message.replace('ghost', 'portal-a'),
        })),
      );
    }
  });
});

describe('slot search: the engine', () => {
  it('answers slots sorted by score then start, each with travel and a score breakdown', async () => {
    const found = await slots(base);
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThanOrEqual(50);
    for (let i = 1; i < found.length; i++) {
      const [a, b] = [found[i - 1], found[i]];
      expect(a.score > b.score || (a.score === b.score && a.start <= b.start)).toBe(true);
    }
    for (const s of found) {
      const d = s.scoreDetails;
      expect(s.score).toBeCloseTo(d.travel + d.earliness + d.workload, 1);
      expect(Date.parse(s.end) - Date.parse(s.start)).toBe(60 * 60_000);
      expect(s.travelBefore.minutes).toBeGreaterThanOrEqual(0);
    }
    // T-OFF is inactive; T-NOHOME lacks ELEC; T-SOUTH is far away but in the tree of ROOT.
    expect(new Set(found.flatMap((s) => s.technicians))).not.toContain('T-OFF');
  });

  it('works in the technician time zone: Europe/Paris 08:00-12:00 is 07:00-11:00 UTC in winter', async () => {
    const found = await slots({ ...base, maximumSlotNumber: 700, offices: { codes: ['NORTH'] } });
    const paula = found.filter((s) => s.technicians[0] === 'T-PARIS');
    expect(paula.length).toBeGreaterThan(0);
    for (const s of paula) {
      const local = new Date(s.start).toLocaleTimeString('en-GB', {
        timeZone: 'Europe/Paris',
        hour12: false,
      });
      const localEnd = new Date(s.end).toLocaleTimeString('en-GB', {
        timeZone: 'Europe/Paris',
        hour12: false,
      });
      expect(local >= '08:00:00').toBe(true);
      expect(localEnd <= '12:00:00').toBe(true);
    }
    // The absence: nothing on Tuesday.
    expect(paula.some((s) => s.start.startsWith(plusDays(monday, 1)))).toBe(false);
  });

  it('never overlaps a scheduled work order, and travels to and from it', async () => {
    const found = await slots({ ...base, maximumSlotNumber: 700, offices: { codes: ['NORTH-A'] } });
    const busyStart = Date.parse(`${monday}T11:00:00Z`);
    const busyEnd = busyStart + 90 * 60_000;
    expect(found.length).toBeGreaterThan(0);
    for (const s of found) {
      const from = Date.parse(s.start) - s.travelBefore.minutes * 60_000;
      const to = Date.parse(s.end) + s.travelAfter.minutes * 60_000;
      expect(to <= busyStart || from >= busyEnd).toBe(true);
    }
    const after = found.find((s) => s.travelBefore.from.workOrderCode === 'WO-BUSY');
    expect(after?.travelBefore.from.type).toBe('workOrder');
    expect(found.some((s) => s.travelAfter.to.workOrderCode === 'WO-BUSY')).toBe(true);
  });

  it('FIRST_OF_THE_DAY: one slot per technician and day', async () => {
    const found = await slots({ ...base, perResource: 'FIRST_OF_THE_DAY', maximumSlotNumber: 700 });
    const keys = found.map((s) => `${s.technicians[0]} ${s.start.slice(0, 10)}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('startingHours: slots start only at those local times', async () => {
    const found = await slots({ ...base, startingHours: { values: ['09:00'] }, maximumSlotNumber: 700 });
    expect(found.length).toBeGreaterThan(0);
    for (const s of found) {
      const tz = s.technicians[0] === 'T-UTC' ? 'UTC' : 'Europe/Paris';
      expect(new Date(s.start).toLocaleTimeString('en-GB', { timeZone: tz })).toBe('09:00:00');
    }
  });

  it('maximumSlotNumber caps the answer (default 50)', async () => {
    expect(await slots({ ...base, maximumSlotNumber: 3 })).toHaveLength(3);
    const twoWeeks = { start: week.start, end: `${plusDays(monday, 12)}T00:00` };
    expect(await slots({ ...base, timeRanges: [twoWeeks] })).toHaveLength(50);
  });

  it('maximumSlotsPerTechnician (extension): at most that many slots of one technician, the best of each', async () => {
    const all = await slots({ ...base, maximumSlotNumber: 700 });
    const count = (found: Slot[]) => {
      const by = new Map<string, number>();
      for (const s of found) by.set(s.technicians[0], (by.get(s.technicians[0]) ?? 0) + 1);
      return by;
    };
    // Without the cap, the first 10 slots are not spread: one technician holds more than 2.
    expect(Math.max(...count(all.slice(0, 10)).values())).toBeGreaterThan(2);
    const capped = await slots({ ...base, maximumSlotNumber: 10, maximumSlotsPerTechnician: 2 });
    const by = count(capped);
    expect(Math.max(...by.values())).toBeLessThanOrEqual(2);
    // Each technician's slots are their best two, in the order of the uncapped answer.
    for (const [code, n] of by) {
      const theirs = all.filter((s) => s.technicians[0] === code).slice(0, n);
      expect(capped.filter((s) => s.technicians[0] === code)).toEqual(theirs);
    }
    expect(capped.length).toBe(Math.min(10, 2 * count(all).size));
    expect(await codes({ ...base, maximumSlotsPerTechnician: 0 })).toEqual(['slots.invalid.json']);
  });

  it('capacity: at most 2 work orders a day for T-UTC unless the model is ignored', async () => {
    await runImport(t.db, {
      workOrders: [
        {
          workOrderCode: 'WO-BUSY2',
          workOrderTypeCode: 'REPAIR',
          status: 'SCHEDULED',
          officeCode: 'NORTH',
          technicianCode: 'T-UTC',
          scheduledStart: `${monday}T15:00`,
          location: LILLE,
        },
      ],
    });
    const onlyUma = { ...base, offices: { codes: ['NORTH-A'] }, maximumSlotNumber: 700 };
    expect(await slots(onlyUma)).toHaveLength(0);
    const ignored = await slots({
      ...onlyUma,
      schedulerRequirements: { workingHours: { ignoreFieldResourceCapacityModel: true } },
    });
    expect(ignored.length).toBeGreaterThan(0);
    await t.db.deleteFrom('work_orders').where('code', '=', 'WO-BUSY2').execute();
  });

  it('areas (RESOURCE), zone filter and customer portal user narrow the technicians', async () => {
    const techs = async (body: SlotSearchSent) =>
      new Set((await slots({ ...body, maximumSlotNumber: 700 })).flatMap((s) => s.technicians));
    expect(await techs({ ...base, areas: { codes: ['LILLE'] } })).toEqual(new Set(['T-PARIS']));
    expect(await techs({ ...base, location: LYON, enableZoneFilter: true, zipCode: '69001' })).toEqual(
      new Set(['T-SOUTH']),
    );
    expect(await techs({ ...base, enableZoneFilter: true, zipCode: '59000' })).toEqual(new Set(['T-PARIS']));
    expect(await techs({ ...base, customerPortalUser: 'portal-a' })).toEqual(new Set(['T-UTC']));
    // TIMESLOT: T-UTC's Monday holds WO-BUSY in 59100 (LILLE area): allowed for LILLE, not for LYON.
    const uma = { ...base, offices: { codes: ['NORTH-A'] } };
    expect(await techs({ ...uma, areas: { codes: ['LILLE'] }, areaScope: 'TIMESLOT' })).toEqual(
      new Set(['T-UTC']),
    );
    expect(await techs({ ...uma, areas: { codes: ['LYON'] }, areaScope: 'TIMESLOT' })).toEqual(new Set());
  });

  it('the work order gives the place; the gazetteer locates zip codes and cities', async () => {
    const res = await search({ ...base, location: undefined, workOrder: { code: 'WO-NEW' } });
    expect(res.json().target.source).toBe('workOrder');
    const byZip = await search({ ...base, location: { zipCode: '99999', country: 'FR' } });
    expect(byZip.json().target).toEqual({ latitude: 50.5, longitude: 3.1, source: 'gazetteer' });
    const byCity = await search({ ...base, location: { city: 'Lille', country: 'FR' } });
    expect(byCity.statusCode).toBe(200);
    expect(byCity.json().target.latitude).toBeCloseTo(50.63, 1);
    const frZip = await search({ ...base, location: { zipCode: '59000' } });
    expect(frZip.json().target.longitude).toBeCloseTo(3.06, 1);
  });

  it('appointmentDate: the technician local day only', async () => {
    const found = await slots({
      ...base,
      timeRanges: undefined,
      availabilities: { appointmentDate: monday },
      maximumSlotNumber: 700,
    });
    expect(found.length).toBeGreaterThan(0);
    for (const s of found) expect(s.start.slice(0, 10)).toBe(monday);
  });

  it('timeRanges with appointmentDate: only slots inside both the ranges and the local day', async () => {
    const morning = { start: `${monday}T09:00`, end: `${monday}T10:30` };
    const tuesday = { start: `${plusDays(monday, 1)}T00:00`, end: `${plusDays(monday, 1)}T23:00` };
    const both = { ...base, availabilities: { appointmentDate: monday }, maximumSlotNumber: 700 };
    const found = await slots({ ...both, timeRanges: [morning, tuesday] });
    expect(found.length).toBeGreaterThan(0);
    for (const s of found) {
      expect(Date.parse(s.start)).toBeGreaterThanOrEqual(Date.parse(`${morning.start}:00Z`));
      expect(Date.parse(s.end)).toBeLessThanOrEqual(Date.parse(`${morning.end}:00Z`));
    }
    // T-PARIS works 07:00-11:00 UTC from a home at the target: the 30-minute grid inside the range.
    const paula = found.filter((s) => s.technicians[0] === 'T-PARIS').map((s) => s.start);
    expect(paula.sort()).toEqual([`${monday}T09:00:00Z`, `${monday}T09:30:00Z`]);
    // A range outside the appointment day gives no slot at all.
    expect(await slots({ ...both, timeRanges: [tuesday] })).toEqual([]);
  });

  it('skills are added to the type skills: only technicians holding both get slots', async () => {
    expect(await technicianSet(base)).toEqual(new Set(['T-PARIS', 'T-UTC']));
    // REPAIR needs ELEC; only T-UTC also holds GAS (a skill id is its code).
    expect(await technicianSet({ ...base, skills: { codes: ['GAS'] } })).toEqual(new Set(['T-UTC']));
    expect(await technicianSet({ ...base, skills: { ids: ['gas'] } })).toEqual(new Set(['T-UTC']));
    // Nobody holds ELEC and LIFT: a successful search without slots.
    expect(await slots({ ...base, skills: { codes: ['LIFT'] } })).toEqual([]);
  });

  it('offices by ids: the technicians of those offices and below', async () => {
    const offices = await t.db.selectFrom('offices').select(['code', 'id']).execute();
    const id = (code: string) => String(offices.find((o) => o.code === code)?.id);
    expect(await technicianSet({ ...base, offices: { ids: [id('NORTH')] } })).toEqual(
      new Set(['T-PARIS', 'T-UTC']),
    );
    const lyon = { ...base, location: LYON };
    expect(await technicianSet({ ...lyon, offices: { ids: [Number(id('SOUTH'))] } })).toEqual(
      new Set(['T-SOUTH']),
    );
    expect(await technicianSet({ ...base, offices: { ids: [id('NORTH-A')] } }, 'north')).toEqual(
      new Set(['T-UTC']),
    );
    expect(await codes({ ...base, offices: { ids: [id('SOUTH')] } }, 'north')).toEqual(['2002']);
  });

  it('capacity: maxMinutesPerDay counts the booked minutes of the day unless the model is ignored', async () => {
    const onlyUma = { ...base, offices: { codes: ['NORTH-A'] }, maximumSlotNumber: 700 };
    const maxMinutes = (m: number | null) =>
      t.db.updateTable('technicians').set({ max_minutes_per_day: m }).where('code', '=', 'T-UTC').execute();
    try {
      // WO-BUSY holds 90 minutes of T-UTC's only working day; a REPAIR takes 60 more.
      await maxMinutes(150);
      const fits = await slots(onlyUma);
      expect(fits.length).toBeGreaterThan(0);
      await maxMinutes(149);
      expect(await slots(onlyUma)).toEqual([]);
      const ignored = await slots({
        ...onlyUma,
        schedulerRequirements: { workingHours: { ignoreFieldResourceCapacityModel: true } },
      });
      expect(ignored).toEqual(fits);
    } finally {
      await maxMinutes(null);
    }
  });
});

describe('a search naming a work order (its type, place and calendars read in one statement)', () => {
  const named = { location: undefined, workOrder: { code: 'WO-NEW' } };
  const all = { maximumSlotNumber: 700 };

  it('answers what the same search at the work order place answers, for every filter', async () => {
    const bodies: SlotSearchSent[] = [
      base,
      { ...base, areas: { codes: ['LILLE'] } },
      { ...base, areas: { codes: ['lille'] }, areaScope: 'RESOURCE' },
      { ...base, skills: { codes: ['GAS'] } },
      { ...base, skills: { codes: ['LIFT'] } },
      { ...base, offices: { codes: ['NORTH-A'] } },
      { ...base, offices: { codes: ['NORTH-A'] }, areas: { codes: ['LILLE'] }, areaScope: 'TIMESLOT' },
      { ...base, enableZoneFilter: true, zipCode: '59000' },
      { ...base, customerPortalUser: 'portal-a' },
      { ...base, timeRanges: undefined, availabilities: { appointmentDate: monday } },
    ];
    for (const body of bodies) {
      const atPlace = await slots({ ...body, ...all });
      const byWorkOrder = await slots({ ...body, ...all, ...named });
      expect(byWorkOrder, JSON.stringify(body)).toEqual(atPlace);
    }
  });

  it('errors of the references and of the request are still listed together', async () => {
    expect(await codes({ ...base, ...named, workOrderType: { code: 'NOPE' } })).toEqual(['2001']);
    expect(await codes({ ...base, ...named, areas: { codes: ['NOWHERE'] } })).toEqual(['2007']);
    expect(await codes({ ...base, ...named, skills: { codes: ['NOPE'] } })).toEqual(['slots.skill.unknown']);
    expect(
      await codes({
        ...base,
        location: undefined,
        workOrder: { code: 'NOPE' },
        workOrderType: { code: 'NOPE' },
      }),
    ).toEqual(['2001', 'slots.workorder.notfound', '3011']);
  });

  it('the work order being placed is not a booking of its own technician', async () => {
    const busy = { workOrderType: { code: 'GASFIX' }, timeRanges: [week], ...all };
    const aside = await slots({ ...busy, location: undefined, workOrder: { code: 'WO-BUSY' } });
    const uuid = (
      await t.db
        .selectFrom('work_orders')
        .select('uuid')
        .where('code', '=', 'WO-BUSY')
        .executeTakeFirstOrThrow()
    ).uuid;
    expect(await slots({ ...busy, location: undefined, workOrder: { id: uuid } })).toEqual(aside);
    const stops = aside.flatMap((s) => [s.travelBefore.from.workOrderCode, s.travelAfter.to.workOrderCode]);
    expect(stops).not.toContain('WO-BUSY');
    const busyStart = Date.parse(`${monday}T11:00:00Z`);
    const overlapping = aside.filter(
      (s) =>
        s.technicians[0] === 'T-UTC' &&
        Date.parse(s.start) < busyStart + 90 * 60_000 &&
        Date.parse(s.end) > busyStart,
    );
    expect(overlapping.length).toBeGreaterThan(0);
    // Named at its place instead, it is a booking again.
    const booked = await slots({ ...busy, location: ROUBAIX });
    expect(
      booked.flatMap((s) => [s.travelBefore.from.workOrderCode, s.travelAfter.to.workOrderCode]),
    ).toContain('WO-BUSY');
  });

  it('a code carried by two live work orders is ambiguous; validated and live: the live one', async () => {
    const copy = (status: string) => sql`
      INSERT INTO work_orders (uuid, code, type_code, status, office_id, latitude, longitude, last_update)
      SELECT gen_random_uuid(), code, type_code, ${status}, office_id, 0.5, 0.5, now() + interval '1 day'
      FROM work_orders WHERE code = 'WO-NEW'`;
    // More validated copies than the 3 rows findWorkOrder reads, all newer than the live one.
    for (let i = 0; i < 4; i++) await copy('VALIDATED').execute(t.db);
    try {
      // The validated copies are newer but not live: the live one (at Lille) is placed.
      expect(await slots({ ...base, ...all, ...named })).toEqual(await slots({ ...base, ...all }));
      await copy('NEW').execute(t.db);
      expect(await codes({ ...base, ...named })).toEqual(['slots.workorder.code.ambiguous', '3011']);
    } finally {
      await t.db.deleteFrom('work_orders').where('code', '=', 'WO-NEW').where('latitude', '=', 0.5).execute();
    }
  });
});
