/**
 * THE REFERENCE: the slot-search engine as it was before the calendar index (issue 28), kept
 * unchanged so that `engine.test.ts` can check the engine the service runs (`engine.ts`)
 * answers exactly what this one does, over thousands of random schedules. Not used by the
 * service.
 *
 * For each technician: working windows (their IANA time zone) minus absences minus
 * scheduled work orders give free intervals. In a free interval the technician comes from
 * the previous place (the work order that ended before it that day, else home), and must
 * travel to the target, do the work and travel on to the next place (the next work order
 * that day, else home) inside it. Slot starts lie on a grid from the start of the working
 * window (SLOT_STEP_MINUTES), or at the starting hours given (local time). The capacity
 * model (work orders and minutes per local day) is honoured unless ignored.
 *
 * Score, out of 100 (SCORE_WEIGHTS): travel (the travel this work adds to the day, full
 * points at 0 minutes, none at SCORE_TRAVEL_HORIZON_MINUTES), earliness (linear over the
 * search period) and workload (the share of the day still free). Within one free interval
 * travel and workload are fixed and earliness falls with the start, so each interval is a
 * stream already in order: the best `maximumSlotNumber` slots are merged from the streams
 * with a heap instead of sorting every candidate.
 */
import { SCORE_TRAVEL_HORIZON_MINUTES, SCORE_WEIGHTS, SLOT_STEP_MINUTES } from '../../../contract/slots.ts';
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
import { type Booking, type EngineTechnician, firstAfter, lastBefore } from './days.ts';
import { Heap } from './heap.ts';
import type { Point, RoadModel, Route } from './road.ts';

export type { Booking, EngineTechnician };

export interface EngineRequest {
  technicians: readonly EngineTechnician[];
  /** Bookings by technician code (any order). */
  bookings: ReadonlyMap<string, readonly Booking[]>;
  target: Point;
  durationMinutes: number;
  /** UTC ranges the work must lie in (null: the appointment day only). */
  ranges: readonly Interval[] | null;
  /** The appointment date (UTC midnight of the date): the technician's whole local day. */
  appointmentDate: number | null;
  firstOfTheDay: boolean;
  /** Local start times in minutes after midnight; null: the grid. */
  startingHours: readonly number[] | null;
  maximumSlotNumber: number;
  /** At most this many slots of one technician (null: no cap). */
  maximumSlotsPerTechnician?: number | null;
  ignoreCapacity: boolean;
  /** A day the technician may not take this work (area scope TIMESLOT). */
  dayAllowed?: (bookingsOfDay: readonly Booking[]) => boolean;
  road: RoadModel;
  now: number;
}

export type Stop = { type: 'home' | 'workOrder'; workOrderCode: string | null };

export interface EngineSlot {
  start: number;
  end: number;
  technicianCode: string;
  travelBefore: Route & { from: Stop };
  travelAfter: Route & { to: Stop };
  score: number;
  scoreDetails: {
    travel: number;
    earliness: number;
    workload: number;
    addedTravelMinutes: number;
    bookedMinutes: number;
    workingMinutes: number;
  };
}

export interface EngineResult {
  slots: EngineSlot[];
  /** Technicians left out because a travel could not be computed, by reason. */
  skipped: { unavailable: number; noRoute: number };
  candidates: number;
}

const STEP = SLOT_STEP_MINUTES * MINUTE;
const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Candidate starts of one free interval, best first (score falls with the start): the
 * grid `first + i * STEP`, or the starting hours in `list`.
 */
interface Stream {
  first: number;
  count: number;
  list: number[] | null;
  technician: EngineTechnician;
  fixedPoints: number;
  travelPoints: number;
  workloadPoints: number;
  before: Route & { from: Stop };
  after: Route & { to: Stop };
  added: number;
  booked: number;
  working: number;
}

class TravelFailure extends Error {
  constructor(readonly reason: 'NO_ROUTE' | 'UNAVAILABLE') {
    super(reason);
  }
}

export function searchSlots(req: EngineRequest): EngineResult {
  const dur = req.durationMinutes * MINUTE;
  if (req.technicians.length === 0)
    return { slots: [], skipped: { unavailable: 0, noRoute: 0 }, candidates: 0 };
  const periods = req.technicians.map((t) => periodOf(req, t));
  const searchFrom = Math.min(...periods.map((p) => p.start));
  const searchTo = Math.max(...periods.map((p) => p.end));
  const span = Math.max(searchTo - searchFrom, 1);
  const earlinessPoints = (start: number) =>
    round2(SCORE_WEIGHTS.earliness * Math.min(1, Math.max(0, 1 - (start - searchFrom) / span)));

  const streams: Stream[] = [];
  const skipped = { unavailable: 0, noRoute: 0 };
  req.technicians.forEach((tech, i) => {
    try {
      const own = technicianStreams(req, tech, periods[i], dur);
      for (const s of own) streams.push(s);
    } catch (e) {
      if (!(e instanceof TravelFailure)) throw e;
      if (e.reason === 'NO_ROUTE') skipped.noRoute++;
      else skipped.unavailable++;
    }
  });

  // k-way merge of the streams, best slot first: (score desc, start asc, technician asc).
  type Head = { stream: Stream; index: number; score: number; start: number };
  const head = (stream: Stream, index: number): Head => {
    const start = startAt(stream, index);
    return { stream, index, start, score: round2(stream.fixedPoints + earlinessPoints(start)) };
  };
  const better = (a: Head, b: Head) =>
    a.score !== b.score
      ? a.score > b.score
      : a.start !== b.start
        ? a.start < b.start
        : a.stream.technician.code < b.stream.technician.code;
  const heap = new Heap<Head>(better);
  for (const s of streams) if (s.count > 0) heap.push(head(s, 0));
  const slots: EngineSlot[] = [];
  const cap = req.maximumSlotsPerTechnician ?? Number.POSITIVE_INFINITY;
  const taken = new Map<string, number>();
  while (slots.length < req.maximumSlotNumber && heap.size) {
    const h = heap.pop() as Head;
    const s = h.stream;
    const n = taken.get(s.technician.code) ?? 0;
    if (n >= cap) continue;
    taken.set(s.technician.code, n + 1);
    slots.push({
      start: h.start,
      end: h.start + dur,
      technicianCode: s.technician.code,
      travelBefore: s.before,
      travelAfter: s.after,
      score: h.score,
      scoreDetails: {
        travel: s.travelPoints,
        earliness: round2(h.score - s.travelPoints - s.workloadPoints),
        workload: s.workloadPoints,
        addedTravelMinutes: s.added,
        bookedMinutes: s.booked,
        workingMinutes: s.working,
      },
    });
    if (h.index + 1 < s.count) heap.push(head(s, h.index + 1));
  }
  return { slots, skipped, candidates: req.technicians.length };
}

const startAt = (s: Stream, i: number) => (s.list ? s.list[i] : s.first + i * STEP);

/** The UTC span a technician may work in for this search. */
function periodOf(req: EngineRequest, t: EngineTechnician): Interval {
  if (req.appointmentDate !== null) {
    const day = { start: localToUtc(t.timeZone, req.appointmentDate, 0), end: 0 };
    day.end = localToUtc(t.timeZone, req.appointmentDate + DAY, 0);
    if (!req.ranges) return day;
    return {
      start: Math.max(day.start, Math.min(...req.ranges.map((r) => r.start))),
      end: Math.min(day.end, Math.max(...req.ranges.map((r) => r.end))),
    };
  }
  const ranges = req.ranges ?? [];
  return { start: Math.min(...ranges.map((r) => r.start)), end: Math.max(...ranges.map((r) => r.end)) };
}

/** The ranges the work must lie in, for this technician. */
function rangesOf(req: EngineRequest, period: Interval): Interval[] {
  if (req.appointmentDate === null || !req.ranges) return req.ranges ? [...req.ranges] : [period];
  return req.ranges
    .map((r) => ({ start: Math.max(r.start, period.start), end: Math.min(r.end, period.end) }))
    .filter((r) => r.end > r.start);
}

function technicianStreams(
  req: EngineRequest,
  tech: EngineTechnician,
  period: Interval,
  dur: number,
): Stream[] {
  if (!tech.home) throw new TravelFailure('UNAVAILABLE');
  const home = tech.home;
  const travel = (from: Point | null, to: Point | null): Route => {
    if (!from || !to) return { minutes: 0, kilometres: 0 };
    const r = req.road.travel(from, to);
    if (r === 'NO_ROUTE' || r === 'UNAVAILABLE') throw new TravelFailure(r);
    return r;
  };
  // Travels to and from the target, by place (home and each booking's point object).
  const toTarget = new Map<Point, Route>();
  const fromTarget = new Map<Point, Route>();
  const memo = (m: Map<Point, Route>, p: Point, f: () => Route) => {
    let r = m.get(p);
    if (!r) {
      r = f();
      m.set(p, r);
    }
    return r;
  };
  // A target the technician cannot reach from home is out of reach for every day.
  travel(home, req.target);

  const ranges = rangesOf(req, period);
  const windows = workingWindows(tech.timeZone, tech.workingHours, period.start, period.end);
  const bookings = [...(req.bookings.get(tech.code) ?? [])].sort((a, b) => a.start - b.start);
  const byDay = new Map<number, { windows: Window[]; bookings: Booking[] }>();
  for (const w of windows) {
    const d = byDay.get(w.day) ?? { windows: [], bookings: [] };
    d.windows.push(w);
    byDay.set(w.day, d);
  }
  for (const b of bookings) byDay.get(localDay(tech.timeZone, b.start))?.bookings.push(b);
  const near = (day: number) => [
    ...(byDay.get(day - DAY)?.bookings ?? []),
    ...(byDay.get(day)?.bookings ?? []),
    ...(byDay.get(day + DAY)?.bookings ?? []),
  ];

  const streams: Stream[] = [];
  for (const [day, { windows: dayWindows, bookings: dayBookings }] of byDay) {
    const booked = Math.round(dayBookings.reduce((n, b) => n + (b.end - b.start), 0) / MINUTE);
    if (!req.ignoreCapacity) {
      if (tech.maxWorkOrdersPerDay !== null && dayBookings.length + 1 > tech.maxWorkOrdersPerDay) continue;
      if (tech.maxMinutesPerDay !== null && booked + dur / MINUTE > tech.maxMinutesPerDay) continue;
    }
    if (req.dayAllowed && !req.dayAllowed(dayBookings)) continue;
    const working = Math.round(dayWindows.reduce((n, w) => n + (w.end - w.start), 0) / MINUTE);
    const workloadPoints = round2(SCORE_WEIGHTS.workload * Math.max(0, 1 - booked / Math.max(working, 1)));
    const dayStart = localToUtc(tech.timeZone, day, 0);
    const dayEnd = localToUtc(tech.timeZone, day + DAY, 0);
    // What takes the technician's time around this day (a booking may span midnight).
    const dayBusy = near(day).filter((b) => b.start < dayEnd && b.end > dayStart);
    const dayAbsences = tech.absences.filter((a) => a.start < dayEnd && a.end > dayStart);
    const busy: Interval[] = [...dayAbsences, ...dayBusy];
    const fixedStarts = req.startingHours
      ?.map((m) => localToUtc(tech.timeZone, day, m))
      .sort((a, b) => a - b);
    const dayStreams: Stream[] = [];

    for (const w of dayWindows) {
      for (const free of subtract(w, busy)) {
        if (free.end - free.start < dur) continue;
        // Where the technician comes from and goes to: the neighbouring work order of the
        // day, or home when an absence, the day's edge or nothing lies in between.
        const prev = lastBefore(free.start, dayStart, dayBusy, dayAbsences);
        const next = firstAfter(free.end, dayEnd, dayBusy, dayAbsences);
        const fromPoint = prev?.location ?? (prev ? req.target : home);
        const toPoint = next?.location ?? (next ? req.target : home);
        const before = memo(toTarget, fromPoint, () => travel(fromPoint, req.target));
        const after = memo(fromTarget, toPoint, () => travel(req.target, toPoint));
        const earliest = free.start + before.minutes * MINUTE;
        const latest = free.end - after.minutes * MINUTE - dur;
        if (latest < earliest) continue;
        let direct: Route | undefined;
        for (const r of ranges) {
          const lo = Math.max(earliest, r.start, req.now);
          const hi = Math.min(latest, r.end - dur);
          if (hi < lo) continue;
          let first = 0;
          let count = 0;
          let list: number[] | null = null;
          if (fixedStarts) {
            list = fixedStarts.filter((s) => s >= lo && s <= hi);
            count = list.length;
          } else {
            first = w.start + Math.ceil((lo - w.start) / STEP) * STEP;
            count = first <= hi ? Math.floor((hi - first) / STEP) + 1 : 0;
          }
          if (count === 0) continue;
          direct ??= travel(fromPoint, toPoint);
          const added = Math.max(0, before.minutes + after.minutes - direct.minutes);
          const travelPoints = round2(
            SCORE_WEIGHTS.travel * Math.max(0, 1 - added / SCORE_TRAVEL_HORIZON_MINUTES),
          );
          dayStreams.push({
            first,
            count,
            list,
            technician: tech,
            fixedPoints: travelPoints + workloadPoints,
            travelPoints,
            workloadPoints,
            before: { ...before, from: stopOf(prev) },
            after: { ...after, to: stopOf(next) },
            added,
            booked,
            working,
          });
        }
      }
    }
    if (req.firstOfTheDay) {
      const first = dayStreams.reduce<Stream | undefined>(
        (best, s) => (!best || startAt(s, 0) < startAt(best, 0) ? s : best),
        undefined,
      );
      if (first) streams.push({ ...first, count: 1 });
    } else for (const s of dayStreams) streams.push(s);
  }
  return streams;
}

const stopOf = (b: Booking | undefined): Stop =>
  b ? { type: 'workOrder', workOrderCode: b.code } : { type: 'home', workOrderCode: null };
