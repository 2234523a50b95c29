import { describe, expect, it } from 'vitest';
import {
  boardAxis,
  fractionOf,
  instantAt,
  mondayOf,
  moveInstant,
  piecesOf,
  shiftDate,
  ticksOf,
} from './model.ts';
import { validateBoardSearch } from './search.ts';

const at = (text: string) => Date.parse(`${text}Z`);

describe('the board axis', () => {
  it('a day: the whole local day read, 06:00 to 21:00 drawn, a quarter-hour grid', () => {
    const a = boardAxis('2030-02-04', 'day', 'Europe/Paris');
    expect(a.days).toEqual(['2030-02-04']);
    expect(a.period).toEqual({ start: at('2030-02-03T23:00'), end: at('2030-02-04T23:00') });
    expect(a.segments[0]).toMatchObject({ start: at('2030-02-04T05:00'), end: at('2030-02-04T20:00') });
    expect(ticksOf(a).map((t) => t.hour)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  });

  it('a week: Monday to Sunday of the date, an hour grid, a day a column', () => {
    const a = boardAxis('2030-02-07', 'week', 'UTC');
    expect(mondayOf('2030-02-10')).toBe('2030-02-04');
    expect(a.days[0]).toBe('2030-02-04');
    expect(a.days).toHaveLength(7);
    expect(a.period).toEqual({ start: at('2030-02-04T00:00'), end: at('2030-02-11T00:00') });
    expect(ticksOf(a).map((t) => t.date)).toEqual(a.days);
    expect(shiftDate('2030-02-07', 'week', -1)).toBe('2030-01-31');
    expect(shiftDate('2030-02-07', 'day', 1)).toBe('2030-02-08');
  });

  it('a day of the clock change keeps 06:00 to 21:00 local', () => {
    const a = boardAxis('2030-03-31', 'day', 'Europe/Paris');
    expect(a.segments[0]).toMatchObject({ start: at('2030-03-31T04:00'), end: at('2030-03-31T19:00') });
  });

  it('an instant across the lane, clamped to the hours drawn; a span in one piece a day', () => {
    const a = boardAxis('2030-02-04', 'week', 'UTC');
    expect(fractionOf(a, at('2030-02-04T06:00'))).toBe(0);
    expect(fractionOf(a, at('2030-02-04T13:30'))).toBeCloseTo(0.5 / 7);
    // The night between two days is where the next day starts.
    expect(fractionOf(a, at('2030-02-04T23:00'))).toBeCloseTo(1 / 7);
    const pieces = piecesOf(a, at('2030-02-04T20:00'), at('2030-02-05T07:00'));
    expect(pieces).toHaveLength(2);
    expect(pieces[0].left + pieces[0].width).toBeCloseTo(100 / 7);
    expect(piecesOf(a, at('2030-02-04T01:00'), at('2030-02-04T05:00'))).toEqual([]);
  });

  it('the instant under a point lands on the grid, inside the hours drawn', () => {
    const day = boardAxis('2030-02-04', 'day', 'UTC');
    expect(instantAt(day, 0)).toBe(at('2030-02-04T06:00'));
    // 13:07 is nearer 13:00 than 13:15.
    expect(instantAt(day, (7 + 7 / 60) / 15)).toBe(at('2030-02-04T13:00'));
    expect(instantAt(day, 1)).toBe(at('2030-02-04T20:45'));
    const week = boardAxis('2030-02-04', 'week', 'UTC');
    expect(instantAt(week, 1.45 / 7)).toBe(at('2030-02-05T13:00'));
  });

  it('the keyboard moves a step at a time, from one day to the next, never out of the grid', () => {
    const week = boardAxis('2030-02-04', 'week', 'UTC');
    expect(moveInstant(week, at('2030-02-04T10:00'), 1)).toBe(at('2030-02-04T11:00'));
    expect(moveInstant(week, at('2030-02-04T20:00'), 1)).toBe(at('2030-02-05T06:00'));
    expect(moveInstant(week, at('2030-02-04T06:00'), -1)).toBe(at('2030-02-04T06:00'));
    const day = boardAxis('2030-02-04', 'day', 'UTC');
    expect(moveInstant(day, at('2030-02-04T20:45'), 3)).toBe(at('2030-02-04T20:45'));
  });
});

describe('the board URL', () => {
  it('keeps a real day, a known view and codes; drops the rest', () => {
    expect(
      validateBoardSearch({
        date: '2030-02-04',
        view: 'week',
        office: ' fleet ',
        q: 'nora',
        wo: 'wo-e2e',
        type: 'repair',
      }),
    ).toEqual({ date: '2030-02-04', view: 'week', office: 'FLEET', q: 'nora', wo: 'WO-E2E', type: 'REPAIR' });
    expect(validateBoardSearch({ date: '2030-02-30', view: 'month', skill: '' })).toEqual({});
  });
});
