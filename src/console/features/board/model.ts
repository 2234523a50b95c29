/**
 * The board's time axis, pure (the zone is a parameter, so tests pin it): the period read
 * (whole local days), the hours drawn of each day, where an instant falls across the lane
 * (a fraction of its width) and the instant under a point (snapped to the step).
 */
import { addDays, fromLocalInput, MINUTE } from '../planning/index.ts';
import type { BoardView } from './search.ts';

/** Hours drawn of each day: a field-service day, not the night. */
export const FIRST_HOUR = 6;
export const LAST_HOUR = 21;
/** A drop lands on this grid: a quarter of an hour on a day, an hour on a week. */
export const STEP_MINUTES: Record<BoardView, number> = { day: 15, week: 60 };

export interface Segment {
  date: string;
  start: number;
  end: number;
}

export interface Axis {
  view: BoardView;
  days: string[];
  /** One a day, side by side across the lane, of the same width. */
  segments: Segment[];
  /** What the board reads: the whole local days. */
  period: { start: number; end: number };
  step: number;
}

/** The Monday of a date's week (ISO weeks). */
export function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

export function boardAxis(date: string, view: BoardView, timeZone: string): Axis {
  const first = view === 'week' ? mondayOf(date) : date;
  const days = Array.from({ length: view === 'week' ? 7 : 1 }, (_, i) => addDays(first, i));
  const at = (d: string, hour: number) =>
    fromLocalInput(`${d}T${String(hour).padStart(2, '0')}:00`, timeZone) ?? Date.parse(`${d}T00:00:00Z`);
  return {
    view,
    days,
    segments: days.map((d) => ({ date: d, start: at(d, FIRST_HOUR), end: at(d, LAST_HOUR) })),
    period: { start: at(days[0], 0), end: at(addDays(days[days.length - 1], 1), 0) },
    step: STEP_MINUTES[view] * MINUTE,
  };
}

/** Previous or next period: a day or a week. */
export const shiftDate = (date: string, view: BoardView, dir: 1 | -1) =>
  addDays(date, dir * (view === 'week' ? 7 : 1));

/** Where an instant falls across the lane (0..1), clamped to the hours drawn of its day. */
export function fractionOf(axis: Axis, ms: number): number {
  const n = axis.segments.length;
  for (let i = 0; i < n; i++) {
    const s = axis.segments[i];
    if (ms < s.start) return i / n;
    if (ms <= s.end) return (i + (ms - s.start) / (s.end - s.start)) / n;
  }
  return 1;
}

/** The pieces of a span across the lane, as percentages, one per day it crosses (none when hidden). */
export function piecesOf(axis: Axis, start: number, end: number): { left: number; width: number }[] {
  const out: { left: number; width: number }[] = [];
  for (const s of axis.segments) {
    const a = Math.max(start, s.start);
    const b = Math.min(end, s.end);
    if (b <= a) continue;
    const left = fractionOf(axis, a) * 100;
    out.push({ left, width: fractionOf(axis, b) * 100 - left });
  }
  return out;
}

/** The instant under a point of the lane (0..1 of its width), on the step's grid. */
export function instantAt(axis: Axis, fraction: number): number {
  const n = axis.segments.length;
  const x = Math.min(Math.max(fraction, 0), 0.999999) * n;
  const s = axis.segments[Math.floor(x)];
  const raw = s.start + (x - Math.floor(x)) * (s.end - s.start);
  return Math.min(s.start + Math.round((raw - s.start) / axis.step) * axis.step, s.end - axis.step);
}

/** The instant `steps` steps away, kept inside the hours drawn (the keyboard's move). */
export function moveInstant(axis: Axis, ms: number, steps: number): number {
  const grid = axis.segments.flatMap((s) => {
    const out: number[] = [];
    for (let t = s.start; t < s.end; t += axis.step) out.push(t);
    return out;
  });
  let i = grid.findIndex((t) => t >= ms);
  if (i < 0) i = grid.length - 1;
  return grid[Math.min(Math.max(i + steps, 0), grid.length - 1)];
}

/** The labels across the top: each hour of a day, or each day of a week. */
export function ticksOf(
  axis: Axis,
): { key: string; left: number; width: number; hour?: number; date: string }[] {
  if (axis.view === 'week')
    return axis.segments.map((s, i) => ({
      key: s.date,
      date: s.date,
      left: (i / axis.segments.length) * 100,
      width: 100 / axis.segments.length,
    }));
  const hours = LAST_HOUR - FIRST_HOUR;
  return Array.from({ length: hours }, (_, h) => ({
    key: String(h),
    date: axis.days[0],
    hour: FIRST_HOUR + h,
    left: (h / hours) * 100,
    width: 100 / hours,
  }));
}
