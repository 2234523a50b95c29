/** The Work orders pages' logic: durations, CSV, column layout, prefetch, the trace. */
import { describe, expect, it } from 'vitest';
import {
  activityFilters,
  addDays,
  clock,
  csvField,
  csvName,
  dayPeriod,
  fitColumnSizes,
  hoursMinutes,
  isoDurationSeconds,
  layoutKey,
  MAX_COLUMN,
  MIN_COLUMN,
  minuteOfDay,
  moveColumn,
  pathOf,
  project,
  readLayout,
  shouldFetchNext,
  toCsv,
  upTo,
  usedItemFilters,
  utcMinute,
} from './model.ts';

describe('filters from the URL', () => {
  it('absent means all', () => {
    expect(activityFilters({})).toEqual({ validationStatus: 'all', invoicingStatus: 'all' });
    expect(activityFilters({ validation: 'validated', invoicing: 'notBillable' })).toEqual({
      validationStatus: 'validated',
      invoicingStatus: 'notBillable',
    });
    expect(usedItemFilters({})).toEqual({ invoiceMode: 'all' });
    expect(usedItemFilters({ invoiceMode: 'internal' })).toEqual({ invoiceMode: 'internal' });
  });
});

describe('durations and times', () => {
  it('reads ISO 8601 durations in hours, minutes and seconds', () => {
    expect(isoDurationSeconds('PT1H30M')).toBe(5400);
    expect(isoDurationSeconds('PT26H')).toBe(93600);
    expect(isoDurationSeconds('PT0S')).toBe(0);
    expect(isoDurationSeconds('PT45S')).toBe(45);
    expect(isoDurationSeconds('P1D')).toBeNull();
    expect(isoDurationSeconds('PT')).toBeNull();
  });
  it('shows hours and minutes, hours not folded into days', () => {
    expect(hoursMinutes(5400)).toBe('1:30');
    expect(hoursMinutes(93600)).toBe('26:00');
    expect(hoursMinutes(59)).toBe('0:01');
  });
  it('UTC minute of an instant', () => {
    expect(utcMinute('2025-06-02T06:15:00Z')).toBe('2025-06-02 06:15');
    expect(utcMinute(null)).toBe('');
  });
});

describe('CSV', () => {
  it('quotes separators, quotes and line breaks; defuses formulas, keeps negative numbers', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField(null)).toBe('');
    expect(csvField(false)).toBe('false');
  });
  it('one header line, one line a row, CRLF', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          [1, null],
          ['x', true],
        ],
      ),
    ).toBe('a,b\r\n1,\r\nx,true\r\n');
    expect(csvName('activities', 'WO/1 A', new Date('2025-06-02T10:00:00Z'))).toBe(
      'activities-WO_1_A-2025-06-02.csv',
    );
  });
});

describe('next page', () => {
  it('asks ahead of the reader, not only at the end', () => {
    expect(shouldFetchNext(-1, 0, 150)).toBe(true);
    expect(shouldFetchNext(30, 200, 150)).toBe(false);
    expect(shouldFetchNext(49, 200, 150)).toBe(true);
    expect(shouldFetchNext(199, 200, 150)).toBe(true);
  });
});

describe('the technician day', () => {
  it('the clock ends the day at 23:59, not 24:00', () => {
    expect(clock(0)).toBe('00:00');
    expect(clock(421)).toBe('07:01');
    expect(clock(1439)).toBe('23:59');
    expect(clock(1440)).toBe('23:59');
  });
  it('steps days across months and years', () => {
    expect(addDays('2025-06-02', 1)).toBe('2025-06-03');
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
  });
});

describe('columns sized from their content', () => {
  // 7 px a letter, 8 in a header (bold).
  const measure = (text: string, kind: string) => text.length * (kind === 'header' ? 8 : 7);
  const columns = [
    { id: 'id', header: 'Activity', size: 100, text: (r: { id: string }) => r.id },
    { id: 'billable', header: 'Billable', size: 140, text: () => 'No' },
    { id: 'agent', header: 'Technician code', size: 90 },
  ];

  it('an identifier whole, a short column narrower, a header by its longest word', () => {
    const rows = [{ id: 'LA-000001-1' }, { id: 'LA-000001-10' }, { id: 'LA-1' }];
    expect(fitColumnSizes(columns, rows, measure)).toEqual({
      // 12 letters x 7 + 18 of padding
      id: 102,
      // "Billable" (8 x 8) + 18, not its 140
      billable: 82,
      // no text of its rows: its declared size (or its longest header word when wider)
      agent: Math.max(90, 'Technician'.length * 8 + 18),
    });
  });

  it('within the bounds of a column, and the declared sizes without rows', () => {
    const long = [{ id: 'X'.repeat(500) }];
    expect(fitColumnSizes(columns, long, measure).id).toBe(800);
    expect(fitColumnSizes(columns, [], measure).billable).toBe(140);
  });
});

describe('column layout kept per user', () => {
  const cols = ['a', 'b', 'c'];
  it('a key per user and grid', () => {
    expect(layoutKey('north', 'activities')).toBe('fieldwork.grid.north.activities');
  });
  it('falls back on nothing or garbage', () => {
    expect(readLayout(null, cols)).toEqual({ sizing: {}, order: cols });
    expect(readLayout('{not json', cols)).toEqual({ sizing: {}, order: cols });
    expect(readLayout('42', cols)).toEqual({ sizing: {}, order: cols });
  });
  it('drops unknown columns, clamps widths, appends missing columns', () => {
    const raw = JSON.stringify({
      sizing: { a: 5, b: 10_000, z: 100, c: 'wide' },
      order: ['c', 'z', 'a', 'c'],
    });
    expect(readLayout(raw, cols)).toEqual({
      sizing: { a: MIN_COLUMN, b: MAX_COLUMN },
      order: ['c', 'a', 'b'],
    });
  });
  it('moves a column one place, not past an end', () => {
    expect(moveColumn(cols, 'b', -1)).toEqual(['b', 'a', 'c']);
    expect(moveColumn(cols, 'b', 1)).toEqual(['a', 'c', 'b']);
    expect(moveColumn(cols, 'a', -1)).toEqual(cols);
    expect(moveColumn(cols, 'c', 1)).toEqual(cols);
    expect(moveColumn(cols, 'x', 1)).toEqual(cols);
  });
});

describe('technician day and trace', () => {
  it('a UTC day as the positions period', () => {
    expect(dayPeriod('2025-06-02')).toEqual({
      positionsStartDate: '2025-06-02T00:00',
      positionsEndDate: '2025-06-03T00:00',
    });
    expect(dayPeriod('2024-12-31').positionsEndDate).toBe('2025-01-01T00:00');
    expect(minuteOfDay('2025-06-02T07:00:00Z', '2025-06-02')).toBe(420);
    expect(clock(420)).toBe('07:00');
    expect(clock(1440)).toBe('23:59');
  });

  const pos = [
    { latitude: 50, longitude: 3, timestamp: '2025-06-02T07:00:00Z' },
    { latitude: 50.01, longitude: 3, timestamp: '2025-06-02T07:01:00Z' },
    { latitude: 50.01, longitude: 3.02, timestamp: '2025-06-02T07:02:00Z' },
  ];
  it('projects north up inside the box, with the margin', () => {
    const pts = project(pos, '2025-06-02', 200, 100, 10);
    expect(pts).toHaveLength(3);
    for (const p of pts) {
      expect(p.x).toBeGreaterThanOrEqual(10);
      expect(p.x).toBeLessThanOrEqual(190);
      expect(p.y).toBeGreaterThanOrEqual(10);
      expect(p.y).toBeLessThanOrEqual(90);
    }
    expect(pts[1].y).toBeLessThan(pts[0].y); // north is up
    expect(pts[2].x).toBeGreaterThan(pts[1].x); // east is right
    expect(pts.map((p) => p.minute)).toEqual([420, 421, 422]);
    // Ground proportions: 0.02° of longitude at 50°N is about 1.29 km, 0.01° of latitude 1.11 km.
    const ratio = (pts[2].x - pts[1].x) / (pts[0].y - pts[1].y);
    expect(ratio).toBeCloseTo((0.02 * Math.cos((50.005 * Math.PI) / 180)) / 0.01, 1);
  });
  it('a single position or none', () => {
    expect(project([], '2025-06-02', 100, 100)).toEqual([]);
    expect(project(pos.slice(0, 1), '2025-06-02', 100, 100)).toHaveLength(1);
  });
  it('the trace up to a minute, as an SVG path', () => {
    const pts = project(pos, '2025-06-02', 200, 100);
    expect(upTo(pts, 419)).toEqual([]);
    expect(upTo(pts, 421)).toHaveLength(2);
    expect(pathOf(upTo(pts, 1440))).toMatch(/^M[\d.]+ [\d.]+ L[\d.]+ [\d.]+ L[\d.]+ [\d.]+$/);
    expect(pathOf([])).toBe('');
  });
});
