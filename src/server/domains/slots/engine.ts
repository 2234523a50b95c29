/**
 * The slot-search engine, pure and in memory: the service hands it the candidates' days
 * (days.ts: working windows minus absences minus work orders, kept between searches by the
 * calendar index) and the engine places the work.
 *
 * In a free interval the technician comes from the previous place (the work order that ended
 * before it that day, else home), and must travel to the target, do the work and travel on to
 * the next place (the next work order that day, else home) inside it. Slot starts lie on a
 * grid from the start of the working window (SLOT_STEP_MINUTES), or at the starting hours
 * given (local time). The capacity model (work orders and minutes per local day) is honoured
 * unless ignored.
 *
 * Score, out of 100 (SCORE_WEIGHTS): travel (the travel this work adds to the day, full
 * points at 0 minutes, none at SCORE_TRAVEL_HORIZON_MINUTES), earliness (linear over the
 * search period) and workload (the share of the day still free). Within one free interval
 * travel and workload are fixed and earliness falls with the start, so each interval is a
 * stream already in order, and the best `maximumSlotNumber` slots are merged from the streams
 * with a heap.
 *
 * Best bound first: when the road model tells how travel grows with distance
 * (`RoadModel.geometry`), a technician enters the heap as an upper bound of any score they can
 * reach (the least travel their places allow, full workload and earliness points), is opened
 * into days (each day's own bound) only when that bound comes out first, and a day into its
 * streams likewise; whoever cannot beat the last slot taken is never worked out. A bound
 * comes out before any slot it could precede (score, then start, then code), so the answer is
 * exactly the full merge's (`engine.reference.ts`, checked by engine.test.ts).
 */
import { SCORE_TRAVEL_HORIZON_MINUTES, SCORE_WEIGHTS, SLOT_STEP_MINUTES } from '../../../contract/slots.ts';
import { DAY, type Interval, localToUtc, MINUTE } from '../rostering/index.ts';
import type { Booking, Day, EngineTechnician, Free, TechnicianDays } from './days.ts';
import { Heap } from './heap.ts';
import { type Geometry, greatCircleKm, type Point, type RoadModel, type Route } from './road.ts';

export type { Booking, EngineTechnician } from './days.ts';

export interface EngineRequest {
  /** The candidates, the work order being placed left out of their work orders. */
  calendars: readonly TechnicianDays[];
  /** The work orders the search sees: those overlapping this span. */
  visible: Interval;
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
  /** At most this many slots of one technician (extension; null: no cap): the offers spread. */
  maximumSlotsPerTechnician?: number | null;
  ignoreCapacity: boolean;
  /** A day the technician may not take this work (area scope TIMESLOT). */
  dayAllowed?: (bookingsOfDay: readonly Booking[]) => boolean;
  road: RoadModel;
  now: number;
  /** Work out every candidate (nothing left out on a bound): explain.ts reads them all. */
  everyCandidate?: boolean;
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
  /** Candidates whose days were worked out (the others could not make the answer). */
  opened: number;
  /** With `everyCandidate`: what each candidate came to (explain.ts). */
  worked?: Map<string, Worked>;
}

/** A candidate worked out whole: its best slot, or why travel failed. */
export interface Worked {
  candidate: Candidate;
  best: { score: number; start: number } | null;
  failure: 'NO_ROUTE' | 'UNAVAILABLE' | null;
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
  code: string;
  fixedPoints: number;
  travelPoints: number;
  workloadPoints: number;
  before: Route;
  after: Route;
  free: Free;
  added: number;
  booked: number;
  working: number;
}

export class TravelFailure extends Error {
  constructor(readonly reason: 'NO_ROUTE' | 'UNAVAILABLE') {
    super(reason);
  }
}

/** The search's constants: what every candidate is measured against. */
export class Search {
  readonly dur: number;
  readonly searchFrom: number;
  readonly span: number;

  constructor(
    readonly req: EngineRequest,
    readonly periods: Interval[],
  ) {
    this.dur = req.durationMinutes * MINUTE;
    this.searchFrom = Math.min(...periods.map((p) => p.start));
    const searchTo = Math.max(...periods.map((p) => p.end));
    this.span = Math.max(searchTo - this.searchFrom, 1);
  }

  earlinessPoints(start: number) {
    return round2(
      SCORE_WEIGHTS.earliness * Math.min(1, Math.max(0, 1 - (start - this.searchFrom) / this.span)),
    );
  }

  travel(from: Point, to: Point): Route {
    const r = this.req.road.travel(from, to);
    if (r === 'NO_ROUTE' || r === 'UNAVAILABLE') throw new TravelFailure(r);
    return r;
  }
}

/** One technician of a search: their period, ranges and travels to and from the target. */
export class Candidate {
  readonly tech: EngineTechnician;
  readonly ranges: readonly Interval[];
  /** Travels to and from the target, by place (home and each work order's point object). */
  private toTarget: Map<Point, Route> | undefined;
  private fromTarget: Map<Point, Route> | undefined;

  constructor(
    readonly search: Search,
    readonly days: TechnicianDays,
    readonly period: Interval,
  ) {
    this.tech = days.technician;
    this.ranges = rangesOf(search.req, period);
  }

  /** The days of the period with working windows. */
  daysOfPeriod(): Day[] {
    return this.days.daysOf(this.period, this.search.req.visible);
  }

  travelTo(from: Point): Route {
    this.toTarget ??= new Map();
    let r = this.toTarget.get(from);
    if (!r) {
      r = this.search.travel(from, this.search.req.target);
      this.toTarget.set(from, r);
    }
    return r;
  }

  travelFrom(to: Point): Route {
    this.fromTarget ??= new Map();
    let r = this.fromTarget.get(to);
    if (!r) {
      r = this.search.travel(this.search.req.target, to);
      this.fromTarget.set(to, r);
    }
    return r;
  }

  /** Where the technician comes from before a free interval (a work order without a place: the target). */
  origin(f: Free): Point {
    return f.prev ? (f.prev.location ?? this.search.req.target) : this.home();
  }

  destination(f: Free): Point {
    return f.next ? (f.next.location ?? this.search.req.target) : this.home();
  }

  /** Callers check home first (technicianStreams, placement): without it travel is unavailable. */
  private home(): Point {
    const home = this.tech.home;
    if (!home) throw new TravelFailure('UNAVAILABLE');
    return home;
  }

  /** travel(origin, destination), kept on the free interval when it does not involve the target. */
  direct(f: Free): Route {
    const road = this.search.req.road;
    if (f.direct?.road === road) return f.direct.route;
    const route = this.search.travel(this.origin(f), this.destination(f));
    if ((!f.prev || f.prev.location) && (!f.next || f.next.location)) f.direct = { road, route };
    return route;
  }
}

/** The UTC span a technician may work in for this search. */
export function periodOf(req: EngineRequest, t: EngineTechnician): Interval {
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
function rangesOf(req: EngineRequest, period: Interval): readonly Interval[] {
  if (req.appointmentDate === null || !req.ranges) return req.ranges ?? [period];
  return req.ranges
    .map((r) => ({ start: Math.max(r.start, period.start), end: Math.min(r.end, period.end) }))
    .filter((r) => r.end > r.start);
}

/** Capacity model: one more work order of `durMinutes` keeps the day within its limits. */
export function capacityAllows(t: EngineTechnician, day: Day, durMinutes: number): boolean {
  if (t.maxWorkOrdersPerDay !== null && day.bookings.length + 1 > t.maxWorkOrdersPerDay) return false;
  if (t.maxMinutesPerDay !== null && day.bookedMinutes + durMinutes > t.maxMinutesPerDay) return false;
  return true;
}

/** A day the search may place the work on: capacity (unless ignored) and area scope TIMESLOT. */
export function dayOpen(
  search: Search,
  t: EngineTechnician,
  day: Day,
): 'open' | 'capacity.full' | 'area.outside' {
  const req = search.req;
  if (!req.ignoreCapacity && !capacityAllows(t, day, req.durationMinutes)) return 'capacity.full';
  if (req.dayAllowed && !req.dayAllowed(day.bookings)) return 'area.outside';
  return 'open';
}

/** Workload score: the share of the day's working minutes still free. */
const workloadPoints = (day: Day) =>
  round2(SCORE_WEIGHTS.workload * Math.max(0, 1 - day.bookedMinutes / Math.max(day.workingMinutes, 1)));

/** Travel score: full at no added travel, none at the horizon. */
const travelPoints = (addedMinutes: number) =>
  round2(SCORE_WEIGHTS.travel * Math.max(0, 1 - addedMinutes / SCORE_TRAVEL_HORIZON_MINUTES));

/** The starting hours of the request on this local day, as instants in order. */
export function fixedStartsOf(req: EngineRequest, t: EngineTechnician, day: Day): number[] | undefined {
  return req.startingHours?.map((m) => localToUtc(t.timeZone, day.day, m)).sort((a, b) => a - b);
}

/** The slot starts in [lo, hi]: on the window's grid, or the starting hours among `fixed`. */
export function startsBetween(lo: number, hi: number, windowStart: number, fixed: number[] | undefined) {
  if (fixed) {
    const list = fixed.filter((s) => s >= lo && s <= hi);
    return { first: 0, count: list.length, list };
  }
  const first = windowStart + Math.ceil((lo - windowStart) / STEP) * STEP;
  return { first, count: first <= hi ? Math.floor((hi - first) / STEP) + 1 : 0, list: null };
}

const stopOf = (b: Booking | undefined): Stop =>
  b ? { type: 'workOrder', workOrderCode: b.code } : { type: 'home', workOrderCode: null };

/**
 * The streams of one day (`out`): in each free interval long enough, the technician travels
 * from the previous place, works and travels on to the next one; the starts that allow it in
 * each range form a stream. FIRST_OF_THE_DAY keeps the day's earliest start only.
 */
export function dayStreams(c: Candidate, day: Day, out: Stream[]): void {
  const search = c.search;
  const req = search.req;
  const dur = search.dur;
  if (dayOpen(search, c.tech, day) !== 'open') return;
  const workload = workloadPoints(day);
  const fixed = fixedStartsOf(req, c.tech, day);
  const from = out.length;
  for (const f of day.free) {
    if (f.end - f.start < dur) continue;
    const before = c.travelTo(c.origin(f));
    const after = c.travelFrom(c.destination(f));
    const earliest = f.start + before.minutes * MINUTE;
    const latest = f.end - after.minutes * MINUTE - dur;
    if (latest < earliest) continue;
    let direct: Route | undefined;
    for (const r of c.ranges) {
      const lo = Math.max(earliest, r.start, req.now);
      const hi = Math.min(latest, r.end - dur);
      if (hi < lo) continue;
      const starts = startsBetween(lo, hi, f.windowStart, fixed);
      if (starts.count === 0) continue;
      // Kept by the index for the next searches: travel(prev, next) does not involve the target.
      direct ??= c.direct(f);
      const added = Math.max(0, before.minutes + after.minutes - direct.minutes);
      const travel = travelPoints(added);
      out.push({
        ...starts,
        code: c.tech.code,
        fixedPoints: travel + workload,
        travelPoints: travel,
        workloadPoints: workload,
        before,
        after,
        free: f,
        added,
        booked: day.bookedMinutes,
        working: day.workingMinutes,
      });
    }
  }
  if (req.firstOfTheDay && out.length > from) {
    let first = out[from];
    for (let i = from + 1; i < out.length; i++) if (startAt(out[i], 0) < startAt(first, 0)) first = out[i];
    out.length = from;
    out.push({ ...first, count: 1 });
  }
}

/** Every stream of a technician, day by day (a travel that cannot be computed throws TravelFailure). */
export function technicianStreams(c: Candidate): Stream[] {
  if (!c.tech.home) throw new TravelFailure('UNAVAILABLE');
  // A target the technician cannot reach from home is out of reach for every day.
  c.travelTo(c.tech.home);
  const out: Stream[] = [];
  for (const day of c.daysOfPeriod()) dayStreams(c, day, out);
  return out;
}

const startAt = (s: Stream, i: number) => (s.list ? s.list[i] : s.first + i * STEP);

/**
 * An entry of the merge: a slot of a stream, or the bound of a technician or day not opened
 * yet. Every kind carries every field (null where it has none): the heap holds objects of
 * one shape, and the kind narrows the type.
 */
interface EntryBase {
  score: number;
  start: number;
  code: string;
  travelBound: number;
  index: number;
}
/** A technician's bound (0) or a day's (1): bounds come out first on a tie. */
interface BoundEntry extends EntryBase {
  kind: 0 | 1;
  candidate: Candidate;
  day: Day | null;
  stream: null;
}
/** A slot of a stream (2). */
interface SlotEntry extends EntryBase {
  kind: 2;
  candidate: null;
  day: null;
  stream: Stream;
}
type Entry = BoundEntry | SlotEntry;

const better = (a: Entry, b: Entry) =>
  a.score !== b.score
    ? a.score > b.score
    : a.start !== b.start
      ? a.start < b.start
      : a.code !== b.code
        ? a.code < b.code
        : a.kind < b.kind;

/**
 * The least travel points a technician can lose, from where their places lie: every place is
 * within `radius` of home, so none is nearer the target than (distance from home - radius),
 * and a travel between two of them is at most the one over 2 * radius.
 */
function travelBound(c: Candidate, home: Point, geometry: Geometry, unlocated: boolean, radiusKm: number) {
  if (unlocated) return SCORE_WEIGHTS.travel;
  const slack = 1e-6;
  const nearest = Math.max(0, greatCircleKm(home, c.search.req.target) - radiusKm - slack);
  const added = 2 * geometry.minutesAt(nearest) - geometry.minutesAt(2 * radiusKm + slack);
  return travelPoints(Math.max(0, added));
}

export function searchSlots(req: EngineRequest): EngineResult {
  const skipped = { unavailable: 0, noRoute: 0 };
  if (req.calendars.length === 0) return { slots: [], skipped, candidates: 0, opened: 0 };
  const search = new Search(
    req,
    req.calendars.map((d) => periodOf(req, d.technician)),
  );
  const heap = new Heap<Entry>(better);
  let opened = 0;
  const worked = req.everyCandidate ? new Map<string, Worked>() : undefined;
  const geometry = req.everyCandidate ? undefined : req.road.geometry;
  const targetRegion = geometry?.region(req.target);

  const pushStreams = (streams: Stream[]) => {
    for (const s of streams) if (s.count > 0) heap.push(slotEntry(search, s, 0));
  };
  req.calendars.forEach((days, i) => {
    const c = new Candidate(search, days, search.periods[i]);
    const home = c.tech.home;
    const spread = home && geometry ? days.spread(geometry) : undefined;
    if (home && geometry && spread && spread.regions.size === 1) {
      // Every place in one region: travel fails for none or, from home already, for all.
      if (geometry.region(home) !== targetRegion) skipped.noRoute++;
      else {
        const bound = travelBound(c, home, geometry, spread.unlocated, spread.radiusKm);
        heap.push(boundEntry(c, bound, SCORE_WEIGHTS.workload, c.period.start, 0, null));
      }
      return;
    }
    opened++;
    try {
      const streams = technicianStreams(c);
      pushStreams(streams);
      worked?.set(c.tech.code, { candidate: c, best: bestOf(search, streams), failure: null });
    } catch (e) {
      if (!(e instanceof TravelFailure)) throw e;
      if (e.reason === 'NO_ROUTE') skipped.noRoute++;
      else skipped.unavailable++;
      worked?.set(c.tech.code, { candidate: c, best: null, failure: e.reason });
    }
  });

  const slots: EngineSlot[] = [];
  const dayStreamsOut: Stream[] = [];
  const cap = req.maximumSlotsPerTechnician ?? Number.POSITIVE_INFINITY;
  const taken = new Map<string, number>();
  while (slots.length < req.maximumSlotNumber) {
    const h = heap.pop();
    if (!h) break;
    if (h.kind === 0) {
      opened++;
      openTechnician(search, h, heap);
    } else if (h.kind === 1) {
      dayStreamsOut.length = 0;
      if (h.day) dayStreams(h.candidate, h.day, dayStreamsOut);
      pushStreams(dayStreamsOut);
    } else if (h.kind === 2) {
      const s = h.stream;
      // A technician who has their share: their other slots are passed over.
      const n = taken.get(s.code) ?? 0;
      if (n >= cap) continue;
      taken.set(s.code, n + 1);
      slots.push(toSlot(search, h, s));
      if (h.index + 1 < s.count) heap.push(slotEntry(search, s, h.index + 1));
    }
  }
  return { slots, skipped, candidates: req.calendars.length, opened, worked };
}

/** A technician's bound came out first: each open day enters with its own bound. */
function openTechnician(search: Search, h: BoundEntry, heap: Heap<Entry>) {
  const c = h.candidate;
  for (const day of c.daysOfPeriod()) {
    if (dayOpen(search, c.tech, day) !== 'open') continue;
    // No slot of the day starts before its earliest free interval long enough for the work.
    let first = Number.POSITIVE_INFINITY;
    for (const f of day.free) if (f.end - f.start >= search.dur && f.start < first) first = f.start;
    if (first === Number.POSITIVE_INFINITY) continue;
    heap.push(boundEntry(c, h.travelBound, workloadPoints(day), Math.max(first, search.req.now), 1, day));
  }
}

function boundEntry(
  c: Candidate,
  travel: number,
  workload: number,
  start: number,
  kind: 0 | 1,
  day: Day | null,
): BoundEntry {
  return {
    score: round2(travel + workload + c.search.earlinessPoints(start)),
    start,
    code: c.tech.code,
    kind,
    candidate: c,
    travelBound: travel,
    day,
    stream: null,
    index: 0,
  };
}

function slotEntry(search: Search, stream: Stream, index: number): SlotEntry {
  const start = startAt(stream, index);
  return {
    score: round2(stream.fixedPoints + search.earlinessPoints(start)),
    start,
    code: stream.code,
    kind: 2,
    candidate: null,
    travelBound: 0,
    day: null,
    stream,
    index,
  };
}

/** The best slot of a technician's streams (the first of each is its best). */
function bestOf(search: Search, streams: Stream[]): Worked['best'] {
  let best: Entry | undefined;
  for (const s of streams) {
    if (s.count === 0) continue;
    const e = slotEntry(search, s, 0);
    if (!best || better(e, best)) best = e;
  }
  return best ? { score: best.score, start: best.start } : null;
}

function toSlot(search: Search, h: Entry, s: Stream): EngineSlot {
  return {
    start: h.start,
    end: h.start + search.dur,
    technicianCode: s.code,
    travelBefore: { ...s.before, from: stopOf(s.free.prev) },
    travelAfter: { ...s.after, to: stopOf(s.free.next) },
    score: h.score,
    scoreDetails: {
      travel: s.travelPoints,
      earliness: round2(h.score - s.travelPoints - s.workloadPoints),
      workload: s.workloadPoints,
      addedTravelMinutes: s.added,
      bookedMinutes: s.booked,
      workingMinutes: s.working,
    },
  };
}
