import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Booking, type EngineTechnician, TechnicianDays } from './days.ts';
import type { EngineRequest as ReferenceRequest } from './engine.reference.ts';
import { type EngineRequest, type EngineResult, searchSlots } from './engine.ts';
import { drivingMinutes, greatCircleRoadModel, landMassOf } from './road.ts';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const T0 = Date.UTC(2031, 2, 24); // a Monday, two weeks around a DST change in Europe and America
const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata'];

/** Local weekday (1..7), date and minutes of an instant, computed by Intl alone. */
function local(tz: string, t: number) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: tz,
    weekday: 'short',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(t));
  const v = Object.fromEntries(parts.map((p) => [p.type, p.value]));
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(v.weekday) + 1;
  return { weekday, date: `${v.year}-${v.month}-${v.day}`, minutes: Number(v.hour) * 60 + Number(v.minute) };
}
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

const point = fc.record({
  latitude: fc.double({ min: 48.5, max: 49.5, noNaN: true }),
  longitude: fc.double({ min: 2, max: 3, noNaN: true }),
});
const interval = (maxLen: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: 14 * 24 * 4 }), fc.integer({ min: 1, max: maxLen }))
    .map(([q, len]) => ({ start: T0 + q * 15 * MIN, end: T0 + q * 15 * MIN + len * 15 * MIN }));

const technician = fc.record({
  timeZone: fc.constantFrom(...ZONES),
  hours: fc.array(
    fc.tuple(
      fc.integer({ min: 1, max: 7 }),
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 2, max: 40 }),
    ),
    { maxLength: 8 },
  ),
  absences: fc.array(interval(40), { maxLength: 4 }),
  bookings: fc.array(fc.tuple(interval(12), fc.option(point, { nil: null })), { maxLength: 20 }),
  home: fc.option(point, { nil: null, freq: 8 }),
  maxWorkOrders: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
});

const request = fc.record({
  technicians: fc.array(technician, { minLength: 1, maxLength: 4 }),
  target: point,
  duration: fc.integer({ min: 15, max: 240 }),
  ranges: fc.array(interval(14 * 24 * 4), { minLength: 1, maxLength: 3 }),
  firstOfTheDay: fc.boolean(),
  startingHours: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: 95 }), { minLength: 1, maxLength: 4 }), {
    nil: null,
  }),
  max: fc.integer({ min: 1, max: 300 }),
  ignoreCapacity: fc.boolean(),
});

type Generated = typeof request extends fc.Arbitrary<infer T> ? T : never;

/**
 * The engine on a request written for the reference: every work order given is visible (as
 * the reference saw every one it was given), the days worked out afresh.
 */
function fast(req: ReferenceRequest, over: Partial<EngineRequest> = {}): EngineResult {
  const all = [...req.bookings.values()].flat();
  const instants = [
    ...(req.ranges ?? []).flatMap((r) => [r.start, r.end]),
    ...all.flatMap((b) => [b.start, b.end]),
    ...(req.appointmentDate === null ? [] : [req.appointmentDate - 2 * DAY, req.appointmentDate + 3 * DAY]),
  ];
  const visible = { start: Math.min(...instants), end: Math.max(...instants) };
  return searchSlots({
    ...req,
    calendars: req.technicians.map((t) => new TechnicianDays(t, req.bookings.get(t.code) ?? [], visible)),
    visible,
    ...over,
  });
}

function build(r: Generated) {
  const technicians: EngineTechnician[] = r.technicians.map((t, i) => ({
    code: `T${i}`,
    timeZone: t.timeZone,
    workingHours: t.hours.map(([weekday, s, len]) => ({
      weekday,
      start: hhmm(6 * 60 + s * 15),
      end: hhmm(Math.min(24 * 60, 6 * 60 + s * 15 + len * 15)),
    })),
    absences: t.absences,
    home: t.home,
    maxWorkOrdersPerDay: t.maxWorkOrders,
    maxMinutesPerDay: null,
  }));
  const bookings = new Map<string, Booking[]>(
    r.technicians.map((t, i) => [
      `T${i}`,
      t.bookings.map(([iv, location], j) => ({ code: `W${i}-${j}`, ...iv, location, zipCode: null })),
    ]),
  );
  const req: ReferenceRequest = {
    technicians,
    bookings,
    target: r.target,
    durationMinutes: r.duration,
    ranges: r.ranges,
    appointmentDate: null,
    firstOfTheDay: r.firstOfTheDay,
    startingHours: r.firstOfTheDay ? null : (r.startingHours?.map((q) => q * 15) ?? null),
    maximumSlotNumber: r.max,
    ignoreCapacity: r.ignoreCapacity,
    road: greatCircleRoadModel,
    now: T0,
  };
  return req;
}

describe('slot engine properties (fast-check)', () => {
  it('a slot never overlaps a booking or an absence, lies in working hours with its travel, and is sorted', () => {
    let found = 0;
    fc.assert(
      fc.property(request, (r) => {
        const req = build(r);
        const { slots } = fast(req);
        found += slots.length;
        expect(slots.length).toBeLessThanOrEqual(req.maximumSlotNumber);
        for (let i = 1; i < slots.length; i++) {
          const [a, b] = [slots[i - 1], slots[i]];
          expect(a.score > b.score || (a.score === b.score && a.start <= b.start)).toBe(true);
        }
        const perDay = new Set<string>();
        for (const s of slots) {
          const tech = req.technicians.find((t) => t.code === s.technicianCode) as EngineTechnician;
          const busy = [...tech.absences, ...(req.bookings.get(tech.code) ?? [])];
          const from = s.start - s.travelBefore.minutes * MIN;
          const to = s.end + s.travelAfter.minutes * MIN;
          expect(s.end - s.start).toBe(req.durationMinutes * MIN);
          // Travel and work fit between the bookings and absences.
          for (const b of busy) expect(to <= b.start || from >= b.end).toBe(true);
          // ... inside one working period of one local day.
          const a = local(tech.timeZone, from);
          const z = local(tech.timeZone, to);
          const endMinutes = z.date === a.date ? z.minutes : z.minutes === 0 ? 24 * 60 : -1;
          expect(
            (tech.workingHours ?? []).some(
              (h) =>
                h.weekday === a.weekday &&
                Number(h.start.slice(0, 2)) * 60 + Number(h.start.slice(3)) <= a.minutes &&
                Number(h.end.slice(0, 2)) * 60 + Number(h.end.slice(3)) >= endMinutes &&
                endMinutes >= 0,
            ),
          ).toBe(true);
          // ... within a range asked for, never before now.
          expect(req.ranges?.some((g) => s.start >= g.start && s.end <= g.end)).toBe(true);
          expect(s.start).toBeGreaterThanOrEqual(req.now);
          // The travel is the road model's from the place named.
          const prev = (req.bookings.get(tech.code) ?? []).find(
            (b) => b.code === s.travelBefore.from.workOrderCode,
          );
          const origin = s.travelBefore.from.type === 'home' ? tech.home : (prev?.location ?? req.target);
          const expected = greatCircleRoadModel.travel(origin ?? req.target, req.target);
          expect(typeof expected === 'object' && expected.minutes).toBe(s.travelBefore.minutes);
          if (prev) expect(prev.end).toBeLessThanOrEqual(from);
          if (req.startingHours) expect(req.startingHours).toContain(local(tech.timeZone, s.start).minutes);
          if (req.firstOfTheDay) {
            const key = `${s.technicianCode} ${local(tech.timeZone, s.start).date}`;
            expect(perDay.has(key)).toBe(false);
            perDay.add(key);
          }
          expect(tech.home).not.toBeNull();
        }
      }),
      { numRuns: 150 },
    );
    // The generated calendars leave room: the properties were checked on real slots.
    expect(found).toBeGreaterThan(100);
  });

  it('capacity: a day already holding maxWorkOrdersPerDay work orders gets no slot unless ignored', () => {
    fc.assert(
      fc.property(request, (r) => {
        const req = build(r);
        if (req.ignoreCapacity) return;
        for (const s of fast(req).slots) {
          const tech = req.technicians.find((t) => t.code === s.technicianCode) as EngineTechnician;
          if (tech.maxWorkOrdersPerDay === null) continue;
          const day = local(tech.timeZone, s.start).date;
          const same = (req.bookings.get(tech.code) ?? []).filter(
            (b) => local(tech.timeZone, b.start).date === day,
          );
          expect(same.length + 1).toBeLessThanOrEqual(tech.maxWorkOrdersPerDay);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('slot engine: capacity in minutes', () => {
  const home = { latitude: 48.85, longitude: 2.35 };
  const tech: EngineTechnician = {
    code: 'T',
    timeZone: 'UTC',
    workingHours: [1, 2].map((weekday) => ({ weekday, start: '08:00', end: '12:00' })),
    absences: [],
    home,
    maxWorkOrdersPerDay: null,
    maxMinutesPerDay: 120,
  };
  // Monday 08:00-09:30 is booked (90 minutes); Tuesday is free.
  const booking: Booking = {
    code: 'W',
    start: T0 + 8 * 60 * MIN,
    end: T0 + 9.5 * 60 * MIN,
    location: home,
    zipCode: null,
  };
  const days = (over: Partial<ReferenceRequest>) =>
    new Set(
      fast({
        technicians: [tech],
        bookings: new Map([['T', [booking]]]),
        target: home,
        durationMinutes: 60,
        ranges: [{ start: T0, end: T0 + 2 * 24 * 60 * MIN }],
        appointmentDate: null,
        firstOfTheDay: false,
        startingHours: null,
        maximumSlotNumber: 700,
        ignoreCapacity: false,
        road: greatCircleRoadModel,
        now: T0,
        ...over,
      }).slots.map((s) => new Date(s.start).toISOString().slice(0, 10)),
    );

  it('a day whose minutes are used up gets no slot; ignoring the capacity model lifts it', () => {
    // 90 booked + 60 asked > 120: Monday is full, Tuesday is not.
    expect(days({})).toEqual(new Set(['2031-03-25']));
    expect(days({ ignoreCapacity: true })).toEqual(new Set(['2031-03-24', '2031-03-25']));
    // 90 + 60 = 150 fits a cap of 150 exactly.
    expect(days({ technicians: [{ ...tech, maxMinutesPerDay: 150 }] })).toEqual(
      new Set(['2031-03-24', '2031-03-25']),
    );
  });
});

describe('road model', () => {
  it('drives the first 10 km at 30 km/h, up to 50 km at 60, then 90', () => {
    expect(drivingMinutes(10)).toBe(20);
    expect(drivingMinutes(50)).toBe(60);
    expect(drivingMinutes(140)).toBe(120);
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 2000, noNaN: true }),
        (km) => drivingMinutes(km + 1) >= drivingMinutes(km),
      ),
    );
  });

  it('has no road across the sea: Corsica, Great Britain, the Americas', () => {
    const paris = { latitude: 48.85, longitude: 2.35 };
    expect(greatCircleRoadModel.travel(paris, { latitude: 41.92, longitude: 8.74 })).toBe('NO_ROUTE');
    expect(greatCircleRoadModel.travel(paris, { latitude: 51.5, longitude: -0.12 })).toBe('NO_ROUTE');
    expect(greatCircleRoadModel.travel(paris, { latitude: 40.7, longitude: -74 })).toBe('NO_ROUTE');
    expect(landMassOf({ latitude: 52.52, longitude: 13.4 })).toBe('Afro-Eurasia');
    const lille = greatCircleRoadModel.travel(paris, { latitude: 50.63, longitude: 3.06 });
    expect(typeof lille === 'object' && lille.kilometres).toBeGreaterThan(200);
  });
});
