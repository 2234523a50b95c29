/**
 * "Why not this technician?" (`explain: true`): every technician of the offices searched
 * without a slot in the answer, with the first rule that kept them out, closest first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXCLUSION_REASONS,
  type ExcludedTechnician,
  type SlotSearchResponse,
  type SlotSearchSent,
  searchSlots,
} from '../../../contract/slots.ts';
import { runImport } from '../../cli/importFile.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { AJACCIO, futureMonday, LILLE, plusDays, slotFixture } from './fixture.ts';

let t: TestApp;
const monday = futureMonday();
const week = { start: `${monday}T00:00`, end: `${plusDays(monday, 5)}T00:00` };
const base: SlotSearchSent = { workOrderType: { code: 'REPAIR' }, timeRanges: [week], location: LILLE };
const weekdays = [1, 2, 3, 4, 5];
const lilleTech = (technicianCode: string, more: object) => ({
  technicianCode,
  name: technicianCode,
  officeCode: 'NORTH',
  skills: ['ELEC'],
  home: LILLE,
  timeZone: 'UTC',
  ...more,
});

beforeAll(async () => {
  const unlimited = { perMinute: 1e9, perHour: 1e9 };
  t = await createTestApp({ rateLimits: { high: unlimited, standard: unlimited, low: unlimited } });
  await runImport(t.db, slotFixture(monday));
  await runImport(t.db, {
    technicians: [
      lilleTech('T-ABSENT', {
        absences: [{ start: `${plusDays(monday, -1)}T00:00`, end: `${plusDays(monday, 6)}T00:00` }],
      }),
      lilleTech('T-FULL', { capacity: { maxWorkOrdersPerDay: 0 } }),
      lilleTech('T-SHORT', {
        workingHours: weekdays.map((weekday) => ({ weekday, start: '08:00', end: '08:30' })),
      }),
      lilleTech('T-CORSE', { home: AJACCIO }),
      lilleTech('T-HOMELESS', { home: undefined }),
    ],
  });
  // Another tenant's technician, with the skills and types in that tenant's catalog.
  await runImport(
    t.db,
    {
      skills: slotFixture(monday).skills,
      workOrderTypes: slotFixture(monday).workOrderTypes,
      technicians: [{ ...lilleTech('T-RIVAL', {}), officeCode: 'RIVAL' }],
    },
    { tenant: 'RIVAL' },
  );
});
afterAll(() => t.close());

async function explained(body: SlotSearchSent, as: TestClient = 'root'): Promise<SlotSearchResponse> {
  const res = await t.api(searchSlots, { body: { ...body, explain: true }, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const why = (answer: SlotSearchResponse, code: string) =>
  answer.excluded?.find((e) => e.technicianCode === code) as ExcludedTechnician;

describe('slot search explain (extension)', () => {
  it('without explain the answer is unchanged; with it, the same slots and `excluded`', async () => {
    const plain = await t.api(searchSlots, { body: base });
    expect(Object.keys(plain.json())).toEqual(['slots', 'target']);
    const off = await t.api(searchSlots, { body: { ...base, explain: false } });
    expect(off.body).toBe(plain.body);
    const answer = await explained(base);
    expect(answer.slots).toEqual(plain.json().slots);
    expect(Array.isArray(answer.excluded)).toBe(true);
  });

  it('lists every technician of the offices searched without a slot, closest reason first, none with a slot', async () => {
    const answer = await explained(base);
    const withSlot = new Set(answer.slots.flatMap((s) => s.technicians));
    const excluded = answer.excluded ?? [];
    expect(excluded.map((e) => e.technicianCode).sort()).toEqual(
      ['T-ABSENT', 'T-CORSE', 'T-FULL', 'T-HOMELESS', 'T-NOHOME', 'T-OFF', 'T-SHORT', 'T-SOUTH'].sort(),
    );
    for (const e of excluded) expect(withSlot.has(e.technicianCode)).toBe(false);
    const ranks = excluded.map((e) => EXCLUSION_REASONS.indexOf(e.reason));
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
    // Another tenant's technicians are not named, nor those outside the caller's tree.
    expect(excluded.some((e) => e.technicianCode === 'T-RIVAL')).toBe(false);
    const north = await explained(base, 'north');
    expect(north.excluded?.some((e) => e.technicianCode === 'T-SOUTH')).toBe(false);
    const rival = await explained(base, 'rival');
    const named = [
      ...rival.slots.flatMap((s) => s.technicians),
      ...(rival.excluded ?? []).map((e) => e.technicianCode),
    ];
    expect(new Set(named)).toEqual(new Set(['T-RIVAL']));
  });

  it('inactive', async () => {
    expect(why(await explained(base), 'T-OFF')).toEqual({
      technicianCode: 'T-OFF',
      reason: 'inactive',
      detail: {},
    });
  });

  it('skill.missing: the skills lacking (the type and the request)', async () => {
    expect(why(await explained(base), 'T-NOHOME')).toEqual({
      technicianCode: 'T-NOHOME',
      reason: 'skill.missing',
      detail: { skills: ['ELEC'] },
    });
    const gas = await explained({ ...base, skills: { codes: ['GAS'] } });
    expect(why(gas, 'T-PARIS')).toEqual({
      technicianCode: 'T-PARIS',
      reason: 'skill.missing',
      detail: { skills: ['GAS'] },
    });
  });

  it('area.outside: not covering an area searched (RESOURCE), or every day outside them (TIMESLOT)', async () => {
    const lille = await explained({ ...base, areas: { codes: ['LILLE'] } });
    expect(why(lille, 'T-SOUTH')).toEqual({
      technicianCode: 'T-SOUTH',
      reason: 'area.outside',
      detail: { areas: ['LYON'], days: [] },
    });
    expect(why(lille, 'T-UTC').reason).toBe('area.outside');
    // TIMESLOT: T-UTC's only working day (Monday) holds WO-BUSY in 59100, outside LYON.
    const timeslot = await explained({
      ...base,
      offices: { codes: ['NORTH-A'] },
      areas: { codes: ['LYON'] },
      areaScope: 'TIMESLOT',
    });
    expect(why(timeslot, 'T-UTC')).toEqual({
      technicianCode: 'T-UTC',
      reason: 'area.outside',
      detail: { areas: [], days: [monday] },
    });
  });

  it('absent: the absences covering the period', async () => {
    expect(why(await explained(base), 'T-ABSENT')).toEqual({
      technicianCode: 'T-ABSENT',
      reason: 'absent',
      detail: {
        absences: [{ start: `${plusDays(monday, -1)}T00:00:00Z`, end: `${plusDays(monday, 6)}T00:00:00Z` }],
      },
    });
  });

  it('capacity.full: the days at capacity', async () => {
    expect(why(await explained(base), 'T-FULL')).toEqual({
      technicianCode: 'T-FULL',
      reason: 'capacity.full',
      detail: {
        days: [0, 1, 2, 3, 4].map((d) => plusDays(monday, d)),
        maxWorkOrdersPerDay: 0,
        maxMinutesPerDay: null,
      },
    });
    // Ignoring the capacity model, T-FULL has slots.
    const ignored = await explained({
      ...base,
      maximumSlotNumber: 700,
      schedulerRequirements: { workingHours: { ignoreFieldResourceCapacityModel: true } },
    });
    expect(ignored.slots.some((s) => s.technicians[0] === 'T-FULL')).toBe(true);
  });

  it('no.window: no free time long enough for the work, the longest shown', async () => {
    expect(why(await explained(base), 'T-SHORT')).toEqual({
      technicianCode: 'T-SHORT',
      reason: 'no.window',
      detail: {
        longestFree: { start: `${monday}T08:00:00Z`, end: `${monday}T08:30:00Z` },
        freeMinutes: 30,
        durationMinutes: 60,
      },
    });
  });

  it('too.far: the work fits their free time but not with the travel; no road; no home', async () => {
    const answer = await explained(base);
    const south = why(answer, 'T-SOUTH');
    expect(south.reason).toBe('too.far');
    if (south.reason !== 'too.far') return;
    expect(south.detail.route).toBe('ok');
    expect(south.detail.neededMinutes).toBeGreaterThan(south.detail.freeMinutes ?? Number.POSITIVE_INFINITY);
    expect(south.detail.freeMinutes).toBeGreaterThanOrEqual(60);
    expect(south.detail.travelBefore?.from).toEqual({ type: 'home', workOrderCode: null });
    expect((south.detail.travelBefore?.minutes ?? 0) + (south.detail.travelAfter?.minutes ?? 0) + 60).toBe(
      south.detail.neededMinutes,
    );
    const route = (code: string) => {
      const e = why(answer, code);
      return e.reason === 'too.far' ? e.detail.route : e.reason;
    };
    expect(route('T-CORSE')).toBe('none');
    expect(route('T-HOMELESS')).toBe('unavailable');
  });

  it('outranked: has slots, none in the answer; its best one, best first', async () => {
    const answer = await explained({ ...base, maximumSlotNumber: 1 });
    const outranked = (answer.excluded ?? []).filter((e) => e.reason === 'outranked');
    expect(outranked.map((e) => e.technicianCode).sort()).toEqual(
      ['T-PARIS', 'T-UTC'].filter((c) => c !== answer.slots[0].technicians[0]),
    );
    for (const e of outranked) {
      if (e.reason !== 'outranked') continue;
      // Its best slot, as a search of that technician alone answers it.
      const office = e.technicianCode === 'T-UTC' ? 'NORTH-A' : 'NORTH';
      const alone = await explained({ ...base, offices: { codes: [office] }, maximumSlotNumber: 700 });
      const best = alone.slots.filter((s) => s.technicians[0] === e.technicianCode)[0];
      expect(e.detail).toEqual({ score: best.score, start: best.start, end: best.end });
      expect(e.detail.score).toBeLessThanOrEqual(answer.slots[0].score);
    }
  });

  it('the offices filter narrows who is explained', async () => {
    const answer = await explained({ ...base, offices: { codes: ['NORTH-A'] }, maximumSlotNumber: 700 });
    expect(answer.slots.every((s) => s.technicians[0] === 'T-UTC')).toBe(true);
    expect(answer.excluded).toEqual([]);
  });
});
