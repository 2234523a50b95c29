import { describe, expect, it } from 'vitest';
import type { Slot } from '../../../contract/slots.ts';
import { crewRows } from './crewsModel.ts';
import { scoreBand, scoreParts, slotKey, spansOf, technicianRows } from './slotsModel.ts';
import { assignLanes, barOf, buildAxis, dateBar, dayAxis, xOf } from './timeline.ts';

const PARIS = 'Europe/Paris';
const at = (iso: string) => Date.parse(iso);

function slot(tech: string, start: string, minutes: number, score = 50, travel = [10, 15]): Slot {
  return {
    start,
    end: new Date(at(start) + minutes * 60_000).toISOString().replace('.000', ''),
    technicians: [tech],
    travelBefore: { minutes: travel[0], kilometres: 5, from: { type: 'home', workOrderCode: null } },
    travelAfter: { minutes: travel[1], kilometres: 7, to: { type: 'home', workOrderCode: null } },
    score,
    scoreDetails: {
      travel: 30,
      earliness: 12.5,
      workload: score - 42.5,
      addedTravelMinutes: 25,
      bookedMinutes: 60,
      workingMinutes: 540,
    },
  };
}

describe('the axis: days as columns, the hours that hold something', () => {
  it('every day of the period in the display zone, hours around the spans (whole hours)', () => {
    const period = { start: at('2030-01-13T23:00:00Z'), end: at('2030-01-16T23:00:00Z') }; // 14..16 Jan in Paris
    const spans = [
      { start: at('2030-01-14T07:20:00Z'), end: at('2030-01-14T08:20:00Z') }, // 08:20-09:20 Paris
      { start: at('2030-01-15T15:00:00Z'), end: at('2030-01-15T16:30:00Z') }, // 16:00-17:30 Paris
    ];
    const axis = buildAxis(spans, period, PARIS, { maxDays: 31 });
    expect(axis.days).toEqual(['2030-01-14', '2030-01-15', '2030-01-16']);
    expect([axis.startMinute, axis.endMinute]).toEqual([8 * 60, 18 * 60]);
    expect(axis.truncated).toBe(false);
  });

  it('a long period shows at most maxDays, from the first day holding a span', () => {
    const period = { start: at('2030-01-01T00:00:00Z'), end: at('2030-06-01T00:00:00Z') };
    const spans = [{ start: at('2030-02-10T09:00:00Z'), end: at('2030-02-10T10:00:00Z') }];
    const axis = buildAxis(spans, period, 'UTC', { maxDays: 10 });
    expect(axis.days[0]).toBe('2030-02-10');
    expect(axis.days).toHaveLength(10);
    expect(axis.truncated).toBe(true);
  });

  it('nothing to show: the default hours; no period and no span: no column', () => {
    const axis = buildAxis(
      [],
      { start: at('2030-01-14T00:00:00Z'), end: at('2030-01-15T00:00:00Z') },
      'UTC',
      {
        maxDays: 5,
      },
    );
    expect(axis.days).toEqual(['2030-01-14']);
    expect([axis.startMinute, axis.endMinute]).toEqual([480, 1080]);
    expect(buildAxis([], null, 'UTC', { maxDays: 5 }).days).toEqual([]);
  });

  it('positions in day units, clipped to the columns and their hours', () => {
    const axis = buildAxis(
      [],
      { start: at('2030-01-14T00:00:00Z'), end: at('2030-01-16T00:00:00Z') },
      'UTC',
      {
        maxDays: 5,
        defaultWindow: [8 * 60, 18 * 60],
      },
    );
    expect(xOf(axis, at('2030-01-14T13:00:00Z'))).toBe(0.5);
    expect(xOf(axis, at('2030-01-15T08:00:00Z'))).toBe(1);
    expect(xOf(axis, at('2030-01-15T20:00:00Z'))).toBe(2);
    expect(xOf(axis, at('2030-01-13T12:00:00Z'))).toBe(0);
    expect(xOf(axis, at('2030-01-20T12:00:00Z'))).toBe(2);
    expect(barOf(axis, { start: at('2030-01-14T09:00:00Z'), end: at('2030-01-14T10:00:00Z') })).toEqual({
      x0: 0.1,
      x1: 0.2,
      clippedStart: false,
      clippedEnd: false,
    });
    // Before the first day: cut at the start; in the night only: not shown.
    expect(barOf(axis, { start: at('2030-01-13T09:00:00Z'), end: at('2030-01-14T13:00:00Z') })).toMatchObject(
      {
        x0: 0,
        x1: 0.5,
        clippedStart: true,
      },
    );
    expect(barOf(axis, { start: at('2030-01-14T20:00:00Z'), end: at('2030-01-14T22:00:00Z') })).toBeNull();
  });

  it('crews: whole days, intervals of dates clipped to the period', () => {
    const axis = dayAxis('2030-01-14', '2030-01-27', 366);
    expect(axis.days).toHaveLength(14);
    expect(dateBar(axis, '2025-01-01', '2030-01-20')).toEqual({
      x0: 0,
      x1: 7,
      clippedStart: true,
      clippedEnd: false,
    });
    expect(dateBar(axis, '2030-01-20', '2030-01-20')).toEqual({
      x0: 6,
      x1: 7,
      clippedStart: false,
      clippedEnd: false,
    });
    expect(dateBar(axis, '2030-01-25', '2031-01-01')).toEqual({
      x0: 11,
      x1: 14,
      clippedStart: false,
      clippedEnd: true,
    });
    expect(dateBar(axis, '2030-02-01', '2030-02-03')).toBeNull();
    expect(dayAxis('2030-01-01', '2030-12-31', 100)).toMatchObject({ truncated: true });
  });
});

describe('lanes and rows', () => {
  it('overlapping intervals get their own lane; touching ones share', () => {
    const h = (a: number, b: number) => ({ start: a * 60, end: b * 60 });
    // A 60-minute job on a 30-minute grid: two lanes.
    expect(assignLanes([h(8, 9), h(8.5, 9.5), h(9, 10), h(9.5, 10.5)])).toEqual({
      lanes: [0, 1, 0, 1],
      count: 2,
    });
    expect(assignLanes([])).toEqual({ lanes: [], count: 0 });
    expect(assignLanes([h(10, 11), h(8, 12), h(9, 10.5)]).count).toBe(3);
    expect(assignLanes([h(10, 11), h(8, 12), h(9, 9.5)]).count).toBe(2);
  });

  it('one row per technician, bookings first, ordered by best slot', () => {
    const slots = [
      slot('TECH-B', '2030-01-14T08:00:00Z', 60, 60),
      slot('TECH-A', '2030-01-14T08:00:00Z', 60, 80),
      slot('TECH-A', '2030-01-14T08:30:00Z', 60, 75),
    ];
    const bookings = [
      {
        technicianCode: 'TECH-A',
        workOrderCode: 'WO-1',
        start: at('2030-01-14T10:00:00Z'),
        end: at('2030-01-14T11:00:00Z'),
      },
      {
        technicianCode: 'TECH-C',
        workOrderCode: 'WO-2',
        start: at('2030-01-14T10:00:00Z'),
        end: at('2030-01-14T11:00:00Z'),
      },
    ];
    const rows = technicianRows(slots, bookings);
    expect(rows.map((r) => [r.technicianCode, r.lanes, r.slotCount, r.best])).toEqual([
      ['TECH-A', 3, 2, 80],
      ['TECH-B', 1, 1, 60],
      ['TECH-C', 1, 0, -1],
    ]);
    expect(rows[0].items.map((i) => [i.kind, i.lane])).toEqual([
      ['booking', 0],
      ['slot', 1],
      ['slot', 2],
    ]);
    expect(rows[0].items[1].key).toBe(slotKey(slots[1]));
  });

  it('the axis makes room for the travel around a slot', () => {
    const [span] = spansOf([slot('T', '2030-01-14T08:00:00Z', 60, 50, [30, 45])], []);
    expect(span).toEqual({ start: at('2030-01-14T07:30:00Z'), end: at('2030-01-14T09:45:00Z') });
  });

  it('a score in parts out of their weights, and its colour band', () => {
    const s = slot('T', '2030-01-14T08:00:00Z', 60, 62.5);
    expect(scoreParts(s)).toEqual([
      { key: 'travel', points: 30, max: 50 },
      { key: 'earliness', points: 12.5, max: 30 },
      { key: 'workload', points: 20, max: 20 },
    ]);
    expect([scoreBand(90), scoreBand(50), scoreBand(10)]).toEqual(['high', 'mid', 'low']);
  });
});

describe('crews: a heading row per crew, then its main and secondary members', () => {
  it('rows and bars clipped to the period; an interval outside it draws nothing', () => {
    const axis = dayAxis('2030-01-14', '2030-01-20', 366);
    const rows = crewRows(
      [
        {
          crewCode: 'CREW-A',
          mainResource: { technicianCode: 'T1', intervals: [{ from: '2030-01-14', to: '2030-01-20' }] },
          secondaryResources: [
            {
              technicianCode: 'T2',
              intervals: [
                { from: '2030-01-14', to: '2030-01-15' },
                { from: '2030-01-18', to: '2030-01-18' },
              ],
            },
            { technicianCode: 'T3', intervals: [{ from: '2030-02-01', to: '2030-02-02' }] },
          ],
        },
      ],
      axis,
    );
    expect(
      rows.map((r) => [r.kind, r.technicianCode ?? r.crewCode, r.bars.map((b) => [b.bar.x0, b.bar.x1])]),
    ).toEqual([
      ['crew', 'CREW-A', []],
      ['main', 'T1', [[0, 7]]],
      [
        'secondary',
        'T2',
        [
          [0, 2],
          [4, 5],
        ],
      ],
      ['secondary', 'T3', []],
    ]);
    expect(rows[0].memberCount).toBe(3);
  });
});
