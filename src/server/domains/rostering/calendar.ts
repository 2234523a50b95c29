/**
 * A technician's calendar in their IANA time zone: working windows as UTC instants. Pure
 * (no database); the slot search and the scheduling checks both read calendars through it.
 */
import { DEFAULT_WORKING_HOURS } from '../../../contract/rostering.ts';
import type { WorkingHours } from './tables.ts';

export const MINUTE = 60_000;
export const DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** An IANA time zone name this runtime knows (`UTC`, `Europe/Paris`...). */
export function isTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

const QUARTER = 15 * 60_000;
/** Offsets by zone and quarter hour: zones change offset on quarter hours, Intl is slow. */
const offsetCache = new Map<string, number>();

/** local time minus UTC at instant `t`, in ms. */
export function offsetAt(tz: string, t: number): number {
  if (tz === 'UTC') return 0;
  const key = `${tz}|${Math.floor(t / QUARTER)}`;
  let offset = offsetCache.get(key);
  if (offset === undefined) {
    offset = computeOffset(tz, Math.floor(t / QUARTER) * QUARTER);
    if (offsetCache.size > 200_000) offsetCache.clear();
    offsetCache.set(key, offset);
  }
  return offset;
}

function computeOffset(tz: string, t: number): number {
  const parts = formatter(tz).formatToParts(new Date(t));
  const v: Record<string, number> = {};
  for (const p of parts) if (p.type !== 'literal') v[p.type] = Number(p.value);
  const asUtc = Date.UTC(v.year, v.month - 1, v.day, v.hour, v.minute, v.second);
  return asUtc - Math.floor(t / 1000) * 1000;
}

/** Conversions are cached: technicians share time zones and working hours. */
const utcCache = new Map<string, number>();

/**
 * The instant of local `day` (UTC midnight of the local date, in ms) at `minutes` after
 * local midnight. In a spring-forward gap the time moves forward with the clock.
 */
export function localToUtc(tz: string, day: number, minutes: number): number {
  const wall = day + minutes * MINUTE;
  if (tz === 'UTC') return wall;
  const key = `${tz}|${wall}`;
  const cached = utcCache.get(key);
  if (cached !== undefined) return cached;
  const o1 = offsetAt(tz, wall);
  let utc = wall - o1;
  const o2 = offsetAt(tz, utc);
  if (o2 !== o1) utc = wall - o2;
  if (utcCache.size > 200_000) utcCache.clear();
  utcCache.set(key, utc);
  return utc;
}

/** The local date of instant `t` as UTC midnight of that date (ms). */
export function localDay(tz: string, t: number): number {
  const local = t + offsetAt(tz, t);
  return local - (((local % DAY) + DAY) % DAY);
}

/** ISO weekday (Monday = 1) of a day given as UTC midnight ms. */
export const weekdayOf = (day: number) => ((new Date(day).getUTCDay() + 6) % 7) + 1;

export const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export interface Window {
  /** Local date (UTC midnight ms) the window belongs to. */
  day: number;
  start: number;
  end: number;
}

/**
 * The working windows of a technician overlapping [from, to), in start order, not clipped.
 * `hours` null: the default week (Monday to Friday, 08:00 to 17:00).
 */
export function workingWindows(
  tz: string,
  hours: readonly WorkingHours[] | null,
  from: number,
  to: number,
): Window[] {
  const week = hours ?? DEFAULT_WORKING_HOURS;
  const out: Window[] = [];
  for (let day = localDay(tz, from) - DAY; day <= localDay(tz, to) + DAY; day += DAY) {
    const weekday = weekdayOf(day);
    for (const h of week) {
      if (h.weekday !== weekday) continue;
      const start = localToUtc(tz, day, minutesOf(h.start));
      const end = localToUtc(tz, day, minutesOf(h.end));
      if (end > from && start < to && end > start) out.push({ day, start, end });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Half-open intervals [start, end) in ms. */
export interface Interval {
  start: number;
  end: number;
}

/** `base` minus every interval of `cuts` (both sorted or not), in start order. */
export function subtract(base: Interval, cuts: readonly Interval[]): Interval[] {
  let pieces: Interval[] = [base];
  for (const c of cuts) {
    if (c.end <= base.start || c.start >= base.end) continue;
    const next: Interval[] = [];
    for (const p of pieces) {
      if (c.end <= p.start || c.start >= p.end) next.push(p);
      else {
        if (c.start > p.start) next.push({ start: p.start, end: c.start });
        if (c.end < p.end) next.push({ start: c.end, end: p.end });
      }
    }
    pieces = next;
  }
  return pieces.sort((a, b) => a.start - b.start);
}
