/**
 * Layout of the timelines (pure): days as columns, rows of bars. A column shows the part of
 * its day that holds something (the same hours for every day, e.g. 07:00-18:00), or the
 * whole day (crews). Positions are in day units (0 = start of the first column, n = end of
 * the n-th), so the component only multiplies by its column width.
 */
import { addDays, daysBetween, zoned } from './time.ts';

/** An interval of time, instants in ms. */
export interface Span {
  start: number;
  end: number;
}

export interface Axis {
  /** The columns' days, `YYYY-MM-DD` in the display zone. */
  days: string[];
  /** The part of each day a column shows, minutes since midnight. */
  startMinute: number;
  endMinute: number;
  timeZone: string;
  /** Days were left out (the period is longer than the timeline shows). */
  truncated: boolean;
}

export interface AxisOptions {
  /** At most this many columns. */
  maxDays: number;
  /** Hours shown when nothing gives them, minutes since midnight. */
  defaultWindow?: [number, number];
}

/**
 * The columns for a period and what lies in it: every day of the period (or of the spans
 * when no period is known), at most `maxDays` from the first day holding a span; the hours
 * that hold the spans, whole hours, for every column.
 */
export function buildAxis(
  spans: readonly Span[],
  period: Span | null,
  timeZone: string,
  opts: AxisOptions,
): Axis {
  const [defStart, defEnd] = opts.defaultWindow ?? [8 * 60, 18 * 60];
  const hull =
    period ??
    (spans.length
      ? { start: Math.min(...spans.map((s) => s.start)), end: Math.max(...spans.map((s) => s.end)) }
      : null);
  if (!hull) return { days: [], startMinute: defStart, endMinute: defEnd, timeZone, truncated: false };
  const first = zoned(hull.start, timeZone).date;
  // The end is exclusive: a period ending at midnight does not show the next day.
  const last = zoned(Math.max(hull.start, hull.end - 1), timeZone).date;
  let from = first;
  let count = daysBetween(first, last) + 1;
  let truncated = false;
  if (count > opts.maxDays) {
    truncated = true;
    const firstSpan = spans.length ? zoned(Math.min(...spans.map((s) => s.start)), timeZone).date : first;
    from = daysBetween(first, firstSpan) > 0 ? firstSpan : first;
    count = opts.maxDays;
  }
  const days = Array.from({ length: count }, (_, i) => addDays(from, i));

  let startMinute = Number.POSITIVE_INFINITY;
  let endMinute = Number.NEGATIVE_INFINITY;
  for (const s of spans) {
    const a = zoned(s.start, timeZone);
    const b = zoned(s.end, timeZone);
    if (a.date > days[days.length - 1] || b.date < days[0]) continue;
    startMinute = Math.min(startMinute, a.minutes);
    // An end on a later day than the start runs to midnight.
    endMinute = Math.max(endMinute, b.date > a.date ? 1440 : b.minutes);
  }
  if (!Number.isFinite(startMinute)) {
    startMinute = defStart;
    endMinute = defEnd;
  }
  startMinute = Math.max(0, Math.floor(startMinute / 60) * 60);
  endMinute = Math.min(1440, Math.ceil(endMinute / 60) * 60);
  if (endMinute - startMinute < 60) endMinute = Math.min(1440, startMinute + 60);
  if (endMinute - startMinute < 60) startMinute = endMinute - 60;
  return { days, startMinute, endMinute, timeZone, truncated };
}

/** The whole days `from`..`to` (inclusive) as an axis of full-day columns (the crews). */
export function dayAxis(from: string, to: string, maxDays: number): Axis {
  const count = Math.max(0, daysBetween(from, to) + 1);
  const shown = Math.min(count, maxDays);
  return {
    days: Array.from({ length: shown }, (_, i) => addDays(from, i)),
    startMinute: 0,
    endMinute: 1440,
    timeZone: 'UTC',
    truncated: count > maxDays,
  };
}

/** Where an instant falls on the axis, in day units, clamped to the axis. */
export function xOf(axis: Axis, t: number): number {
  if (axis.days.length === 0) return 0;
  const z = zoned(t, axis.timeZone);
  const d = daysBetween(axis.days[0], z.date);
  if (d < 0) return 0;
  if (d >= axis.days.length) return axis.days.length;
  const frac = (z.minutes - axis.startMinute) / (axis.endMinute - axis.startMinute);
  return d + Math.min(1, Math.max(0, frac));
}

/** A bar in day units, clipped to the axis; null when nothing of it is shown. */
export interface Bar {
  x0: number;
  x1: number;
  /** Cut at the start or the end by the axis (or by the hours shown). */
  clippedStart: boolean;
  clippedEnd: boolean;
}

export function barOf(axis: Axis, span: Span): Bar | null {
  const x0 = xOf(axis, span.start);
  const x1 = xOf(axis, span.end);
  if (x1 <= x0) return null;
  return {
    x0,
    x1,
    clippedStart: x0 === 0 && zoned(span.start, axis.timeZone).date < axis.days[0],
    clippedEnd:
      x1 === axis.days.length && zoned(span.end - 1, axis.timeZone).date > axis.days[axis.days.length - 1],
  };
}

/** The bar of the dates `from`..`to` (both inclusive, `YYYY-MM-DD`) on a day axis, clipped. */
export function dateBar(axis: Axis, from: string, to: string): Bar | null {
  if (axis.days.length === 0) return null;
  const n = axis.days.length;
  const a = daysBetween(axis.days[0], from);
  const b = daysBetween(axis.days[0], to) + 1;
  const x0 = Math.max(0, a);
  const x1 = Math.min(n, b);
  if (x1 <= x0) return null;
  return { x0, x1, clippedStart: a < 0, clippedEnd: b > n };
}

/**
 * Lanes for overlapping intervals (interval partitioning, greedy by start): each interval's
 * lane, and how many lanes the row needs. Intervals touching end to start share a lane.
 */
export function assignLanes(spans: readonly Span[]): { lanes: number[]; count: number } {
  const order = spans
    .map((_, i) => i)
    .sort((a, b) => spans[a].start - spans[b].start || spans[a].end - spans[b].end);
  const laneEnds: number[] = [];
  const lanes = new Array<number>(spans.length).fill(0);
  for (const i of order) {
    let lane = laneEnds.findIndex((end) => end <= spans[i].start);
    if (lane === -1) {
      lane = laneEnds.length;
      laneEnds.push(spans[i].end);
    } else laneEnds[lane] = spans[i].end;
    lanes[i] = lane;
  }
  return { lanes, count: laneEnds.length };
}
