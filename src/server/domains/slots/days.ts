/**
 * A technician's days as the slot search sees them before any target is known: working
 * windows (their IANA time zone) minus absences minus scheduled work orders give free
 * intervals, each with the place the technician comes from (the work order that ended before
 * it that day, else home) and goes to (the next one that day, else home).
 *
 * None of this depends on where the work is, so the calendar index (calendarIndex.ts) keeps
 * it between searches: a day is worked out once, and again only when the technician or one
 * of their work orders changes. A search sees the work orders overlapping the period it reads
 * (`visible`) and the working windows overlapping its period; a day whose neighbours both lie
 * inside them is the same for every such search and is kept, the days at a period's edges
 * are worked out for that search alone.
 */

import type { WorkingHours } from '../rostering/index.ts';
import {
  DAY,
  type Interval,
  localDay,
  localToUtc,
  MINUTE,
  subtract,
  type Window,
  workingWindows,
} from '../rostering/index.ts';
import { type Geometry, greatCircleKm, type Point, type Route } from './road.ts';

export interface EngineTechnician {
  code: string;
  timeZone: string;
  workingHours: readonly WorkingHours[] | null;
  absences: readonly Interval[];
  home: Point | null;
  maxWorkOrdersPerDay: number | null;
  maxMinutesPerDay: number | null;
}

/** A scheduled work order of a technician (its location null when unknown). */
export interface Booking {
  /** The work order's uuid: the work order being placed is not its own obstacle. */
  uuid?: string;
  code: string;
  start: number;
  end: number;
  location: Point | null;
  zipCode: string | null;
}

/** A free interval of a working window, between its neighbouring work orders. */
export interface Free {
  start: number;
  end: number;
  /** The start of its working window: the grid of slot starts begins there. */
  windowStart: number;
  /** The work order the technician comes from (undefined: home). */
  prev: Booking | undefined;
  /** The work order the technician goes on to (undefined: home). */
  next: Booking | undefined;
  /** travel(prev, next) once computed, when both have a place (it does not depend on the target). */
  direct?: { road: unknown; route: Route };
}

/** One local day of a technician that has working windows in a search's period. */
export interface Day {
  /** The local date (UTC midnight ms of the date). */
  day: number;
  /** Local midnight at its start and at its end, as instants. */
  start: number;
  end: number;
  windows: Window[];
  /** Its work orders (those starting that local day): the capacity and area scope count them. */
  bookings: Booking[];
  bookedMinutes: number;
  workingMinutes: number;
  /** Every free interval of every window, window by window, each in start order. */
  free: Free[];
  /** The absences and work orders that take time that day (a work order may span midnight). */
  absences: Interval[];
}

/** How far the technician's places lie from home, for the search's lower bound on travel. */
export interface Spread {
  /** The greatest great-circle distance from home to a work order's place, in km. */
  radiusKm: number;
  /** A work order without a place: its travel is taken as none, no bound holds. */
  unlocated: boolean;
  /** The road regions of home and every work order's place (one: travel never fails). */
  regions: Set<string>;
}

/**
 * A technician and their work orders (sorted by start) overlapping `covered`: every work
 * order of the technician overlapping it is there.
 */
export class TechnicianDays {
  readonly bookings: readonly Booking[];
  /** Local date of each booking's start (same order). */
  private readonly bookingDays: number[];
  private windowsCache:
    | { from: number; to: number; windows: Window[]; byDay: Map<number, Window[]> }
    | undefined;
  /** Days whose neighbours lie wholly inside the search period (the same for every search). */
  private readonly kept = new Map<number, Day>();
  private spreadCache: { of: unknown; spread: Spread } | undefined;
  private recent: { key: string; days: Day[] }[] = [];

  constructor(
    readonly technician: EngineTechnician,
    bookings: readonly Booking[],
    readonly covered: Interval,
  ) {
    this.bookings = [...bookings].sort((a, b) => a.start - b.start);
    this.bookingDays = this.bookings.map((b) => localDay(technician.timeZone, b.start));
  }

  /** The same technician without the work order `uuid` (the one being placed). */
  without(uuid: string): TechnicianDays {
    return new TechnicianDays(
      this.technician,
      this.bookings.filter((b) => b.uuid !== uuid),
      this.covered,
    );
  }

  get keptDays() {
    return this.kept.size;
  }

  /**
   * The days with working windows overlapping `period`, in order, seeing the work orders
   * overlapping `visible` (a superset of `period`, inside `covered`).
   */
  daysOf(period: Interval, visible: Interval): Day[] {
    // A planner's searches share their period ("next week"): the last two answers are kept.
    const key = `${period.start} ${period.end} ${visible.start} ${visible.end}`;
    const memo = this.recent.find((r) => r.key === key);
    if (memo) return memo.days;
    const days = this.worksOut(period, visible);
    this.recent = [{ key, days }, ...this.recent.slice(0, 1)];
    return days;
  }

  private worksOut(period: Interval, visible: Interval): Day[] {
    const overlaps = (w: Window) => w.end > period.start && w.start < period.end;
    // Days in the order of their first window overlapping the period, with how many do.
    const order: number[] = [];
    const overlapping = new Map<number, number>();
    for (const w of this.windowsAround(period)) {
      if (!overlaps(w)) continue;
      const n = overlapping.get(w.day);
      if (n === undefined) order.push(w.day);
      overlapping.set(w.day, (n ?? 0) + 1);
    }
    const worked = (d: number) => overlapping.has(d);
    const days: Day[] = [];
    for (const day of order) {
      const all = this.windowsOn(day);
      if (overlapping.get(day) === all.length && this.sameForEverySearch(day, visible, worked)) {
        let kept = this.kept.get(day);
        if (!kept) {
          kept = this.dayOf(day, all, (d) => this.windowsOn(d).length > 0, undefined);
          this.kept.set(day, kept);
        }
        days.push(kept);
      } else days.push(this.dayOf(day, all.filter(overlaps), worked, visible));
    }
    return days;
  }

  /**
   * A day seen with all its windows reads the same in every search whose neighbouring days
   * are worked or not as in the whole calendar, and that sees every work order of the three.
   */
  private sameForEverySearch(day: number, visible: Interval, worked: (day: number) => boolean): boolean {
    for (const d of [day - DAY, day + DAY]) if (worked(d) !== this.windowsOn(d).length > 0) return false;
    for (let i = this.firstOn(day - DAY); i < this.bookings.length && this.bookingDays[i] <= day + DAY; i++) {
      const b = this.bookings[i];
      if (b.start >= visible.end || b.end <= visible.start) return false;
    }
    return true;
  }

  /** How far the technician's places spread, and over which road regions. */
  spread(geometry: Geometry): Spread {
    if (this.spreadCache && this.spreadCache.of === geometry) return this.spreadCache.spread;
    const region = geometry.region;
    const home = this.technician.home;
    const spread: Spread = { radiusKm: 0, unlocated: false, regions: new Set(home ? [region(home)] : []) };
    for (const b of this.bookings) {
      if (!b.location) {
        spread.unlocated = true;
        continue;
      }
      spread.regions.add(region(b.location));
      if (home) spread.radiusKm = Math.max(spread.radiusKm, greatCircleKm(home, b.location));
    }
    this.spreadCache = { of: geometry, spread };
    return spread;
  }

  /**
   * The working windows around `period` (worked out once over the periods asked so far), in
   * start order: every window of each local day the period meets and of the day on each side,
   * whole, since a day is kept on what its neighbours' windows are.
   */
  private windowsAround(period: Interval): Window[] {
    const t = this.technician;
    let cache = this.windowsCache;
    const from = Math.min(period.start, cache?.from ?? period.start);
    const to = Math.max(period.end, cache?.to ?? period.end);
    if (!cache || cache.from > from || cache.to < to) {
      // From local midnight the day before to local midnight two days after (not 24 h either
      // side: a neighbour's window may lie further from the period than that).
      const first = localToUtc(t.timeZone, localDay(t.timeZone, from) - DAY, 0);
      const last = localToUtc(t.timeZone, localDay(t.timeZone, to) + 2 * DAY, 0);
      const windows = workingWindows(t.timeZone, t.workingHours, first, last);
      const byDay = new Map<number, Window[]>();
      for (const w of windows) byDay.set(w.day, [...(byDay.get(w.day) ?? []), w]);
      cache = { from, to, windows, byDay };
      this.windowsCache = cache;
    }
    return cache.windows;
  }

  /** Every working window of a local day (of the days around what was asked). */
  private windowsOn(day: number): Window[] {
    return this.windowsCache?.byDay.get(day) ?? [];
  }

  /** Index of the first work order starting on local `day` or later. */
  private firstOn(day: number): number {
    let lo = 0;
    let hi = this.bookingDays.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.bookingDays[mid] < day) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The work orders starting on local `day` (`visible`: only those overlapping it). */
  private bookingsOn(day: number, visible: Interval | undefined, into: Booking[]) {
    for (let i = this.firstOn(day); i < this.bookings.length && this.bookingDays[i] === day; i++) {
      const b = this.bookings[i];
      if (!visible || (b.start < visible.end && b.end > visible.start)) into.push(b);
    }
  }

  /**
   * Working windows minus absences minus work orders, for one day: the work orders of the
   * neighbouring days count when those days are worked too (`worked`), as they may run over
   * midnight.
   */
  private dayOf(
    day: number,
    windows: Window[],
    worked: (day: number) => boolean,
    visible: Interval | undefined,
  ): Day {
    const t = this.technician;
    const start = localToUtc(t.timeZone, day, 0);
    const end = localToUtc(t.timeZone, day + DAY, 0);
    const bookings: Booking[] = [];
    this.bookingsOn(day, visible, bookings);
    const near: Booking[] = [];
    if (worked(day - DAY)) this.bookingsOn(day - DAY, visible, near);
    near.push(...bookings);
    if (worked(day + DAY)) this.bookingsOn(day + DAY, visible, near);
    const busy = near.filter((b) => b.start < end && b.end > start);
    const met = t.absences.filter((a) => a.start < end && a.end > start);
    const absences = met.length ? met : NONE;
    const cuts: Interval[] = [...absences, ...busy];
    const free: Free[] = [];
    for (const w of windows)
      for (const f of subtract(w, cuts))
        free.push({
          start: f.start,
          end: f.end,
          windowStart: w.start,
          prev: lastBefore(f.start, start, busy, absences),
          next: firstAfter(f.end, end, busy, absences),
          direct: undefined,
        });
    return {
      day,
      start,
      end,
      windows,
      bookings,
      bookedMinutes: Math.round(bookings.reduce((n, b) => n + (b.end - b.start), 0) / MINUTE),
      workingMinutes: Math.round(windows.reduce((n, w) => n + (w.end - w.start), 0) / MINUTE),
      free,
      absences,
    };
  }
}

/** Most days meet no absence: one empty list for all of them. */
const NONE: Interval[] = [];

/** The booking the technician leaves from at `t`: the last one ending by then that day, unless an absence came after it. */
export function lastBefore(
  t: number,
  dayStart: number,
  bookings: readonly Booking[],
  absences: readonly Interval[],
) {
  let found: Booking | undefined;
  for (const b of bookings) if (b.end <= t && b.end > dayStart && (!found || b.end >= found.end)) found = b;
  if (found && absences.some((a) => a.end <= t && a.end > found.end)) return undefined;
  return found;
}

/** The booking the technician goes on to from `t`: the first one starting then or later that day, unless an absence comes first. */
export function firstAfter(
  t: number,
  dayEnd: number,
  bookings: readonly Booking[],
  absences: readonly Interval[],
) {
  let found: Booking | undefined;
  for (const b of bookings)
    if (b.start >= t && b.start < dayEnd && (!found || b.start < found.start)) found = b;
  if (found && absences.some((a) => a.start >= t && a.start < found.start)) return undefined;
  return found;
}
