/**
 * "Why not this technician?" (issue 28, `explain: true`): for every technician of the
 * offices searched without a slot in the answer, the first rule of the search that kept them
 * out, with what a planner needs to see it on their day, closest first.
 *
 * The rules in the engine's order: inactive, skills, areas (RESOURCE), then day by day
 * absences, capacity, area scope TIMESLOT, free time long enough for the work, travel; a
 * technician with slots none of which made the answer is outranked. Over several days the
 * closest day speaks (EXCLUSION_REASONS' order): a technician with one day too far and
 * the others full is too far.
 */
import { EXCLUSION_REASONS, type ExcludedTechnician } from '../../../contract/slots.ts';
import { type Interval, MINUTE, subtract } from '../rostering/index.ts';
import type { Day } from './days.ts';
import {
  type Candidate,
  dayOpen,
  type EngineRequest,
  type EngineResult,
  fixedStartsOf,
  startsBetween,
} from './engine.ts';
import type { SearchCandidate } from './queries.ts';
import { utcText } from './utcText.ts';

export interface ExplainInput {
  /** Every technician of the offices searched, with what the filters look at. */
  everyone: SearchCandidate[];
  /** The skills a candidate must hold. */
  needed: string[];
  /** The areas a candidate must cover one of (null: any). */
  areas: string[] | null;
  result: EngineResult;
  engine: EngineRequest;
}

/** An exclusion and how close it came (compared in order, smaller first) within its reason. */
type Excluded = { item: ExcludedTechnician; closeness: number[] };

const localDate = (day: Day) => new Date(day.day).toISOString().slice(0, 10);
const span = (i: Interval) => ({ start: utcText(i.start), end: utcText(i.end) });
const stopOf = (b: Day['bookings'][number] | undefined) =>
  b ? { type: 'workOrder' as const, workOrderCode: b.code } : { type: 'home' as const, workOrderCode: null };

export function explainExclusions(input: ExplainInput): ExcludedTechnician[] {
  const answered = new Set(input.result.slots.map((s) => s.technicianCode));
  const out: Excluded[] = [];
  for (const c of input.everyone) {
    if (answered.has(c.code)) continue;
    const found = filterReason(c, input) ?? engineReason(c.code, input);
    if (found) out.push(found);
  }
  const key = (e: Excluded) => [EXCLUSION_REASONS.indexOf(e.item.reason), ...e.closeness];
  out.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return a.item.technicianCode < b.item.technicianCode ? -1 : 1;
  });
  return out.map((e) => e.item);
}

/** The rules the candidates' statement applies: active, skills, areas (RESOURCE, zone filter). */
function filterReason(c: SearchCandidate, input: ExplainInput): Excluded | undefined {
  const technicianCode = c.code;
  if (c.active === false) return { item: { technicianCode, reason: 'inactive', detail: {} }, closeness: [0] };
  const missing = input.needed.filter((s) => !c.skills?.includes(s));
  if (missing.length)
    return {
      item: { technicianCode, reason: 'skill.missing', detail: { skills: missing } },
      closeness: [missing.length],
    };
  if (input.areas !== null && !c.areas?.some((a) => input.areas?.includes(a)))
    return {
      item: { technicianCode, reason: 'area.outside', detail: { areas: c.areas ?? [], days: [] } },
      closeness: [0],
    };
  return undefined;
}

/** What the engine came to for a candidate, day by day. */
function engineReason(code: string, input: ExplainInput): Excluded | undefined {
  const worked = input.result.worked?.get(code);
  if (!worked) return undefined;
  const c = worked.candidate;
  const technicianCode = code;
  if (worked.best) {
    const { score, start } = worked.best;
    return {
      item: {
        technicianCode,
        reason: 'outranked',
        detail: { score, start: utcText(start), end: utcText(start + c.search.dur) },
      },
      closeness: [-score, start],
    };
  }
  const days = c.daysOfPeriod();
  if (days.length === 0) return noWindow(technicianCode, null, input);
  if (days.every(absentAllDay))
    return {
      item: {
        technicianCode,
        reason: 'absent',
        detail: {
          absences: c.tech.absences.filter((a) => a.end > c.period.start && a.start < c.period.end).map(span),
        },
      },
      closeness: [0],
    };
  if (worked.failure)
    return {
      item: {
        technicianCode,
        reason: 'too.far',
        detail: {
          route: worked.failure === 'NO_ROUTE' ? 'none' : 'unavailable',
          free: null,
          freeMinutes: null,
          neededMinutes: null,
          travelBefore: null,
          travelAfter: null,
        },
      },
      closeness: [Number.POSITIVE_INFINITY],
    };
  return closestDay(c, days, input);
}

/** Every working window of the day lies in an absence. */
const absentAllDay = (day: Day) => day.windows.every((w) => subtract(w, day.absences).length === 0);

/** The day that came closest: travel that does not fit, else free time too short, else capacity or area scope. */
function closestDay(c: Candidate, days: Day[], input: ExplainInput): Excluded {
  const technicianCode = c.tech.code;
  const search = c.search;
  const req = search.req;
  const dur = search.dur;
  const full: string[] = [];
  const outside: string[] = [];
  let longest: Interval | null = null;
  let tooFar: { free: Interval; needed: number; missing: number; f: Day['free'][number] } | null = null;
  for (const day of days) {
    if (absentAllDay(day)) continue;
    const open = dayOpen(search, c.tech, day);
    if (open === 'capacity.full') full.push(localDate(day));
    if (open === 'area.outside') outside.push(localDate(day));
    if (open !== 'open') continue;
    const fixed = fixedStartsOf(req, c.tech, day);
    for (const f of day.free)
      for (const r of c.ranges) {
        // The free time the range leaves, from now on.
        const usable = { start: Math.max(f.start, r.start, req.now), end: Math.min(f.end, r.end) };
        if (usable.end <= usable.start) continue;
        if (!longest || usable.end - usable.start > longest.end - longest.start) longest = usable;
        // Would the work fit without travel?
        if (startsBetween(usable.start, usable.end - dur, f.windowStart, fixed).count === 0) continue;
        const needed =
          (c.travelTo(c.origin(f)).minutes + c.travelFrom(c.destination(f)).minutes) * MINUTE + dur;
        const missing = needed - (usable.end - usable.start);
        if (!tooFar || missing < tooFar.missing) tooFar = { free: usable, needed, missing, f };
      }
  }
  if (tooFar) {
    const before = c.travelTo(c.origin(tooFar.f));
    const after = c.travelFrom(c.destination(tooFar.f));
    const freeMinutes = Math.round((tooFar.free.end - tooFar.free.start) / MINUTE);
    const neededMinutes = Math.round(tooFar.needed / MINUTE);
    return {
      item: {
        technicianCode,
        reason: 'too.far',
        detail: {
          route: 'ok',
          free: span(tooFar.free),
          freeMinutes,
          neededMinutes,
          travelBefore: { ...before, from: stopOf(tooFar.f.prev) },
          travelAfter: { ...after, to: stopOf(tooFar.f.next) },
        },
      },
      closeness: [neededMinutes - freeMinutes],
    };
  }
  if (longest) return noWindow(technicianCode, longest, input);
  if (full.length)
    return {
      item: {
        technicianCode,
        reason: 'capacity.full',
        detail: {
          days: full,
          maxWorkOrdersPerDay: c.tech.maxWorkOrdersPerDay,
          maxMinutesPerDay: c.tech.maxMinutesPerDay,
        },
      },
      closeness: [-full.length],
    };
  if (outside.length)
    return {
      item: { technicianCode, reason: 'area.outside', detail: { areas: [], days: outside } },
      closeness: [-outside.length],
    };
  // Working days whose free time lies outside the ranges (or before now): no window.
  return noWindow(technicianCode, null, input);
}

function noWindow(technicianCode: string, longest: Interval | null, input: ExplainInput): Excluded {
  const freeMinutes = longest ? Math.round((longest.end - longest.start) / MINUTE) : 0;
  return {
    item: {
      technicianCode,
      reason: 'no.window',
      detail: {
        longestFree: longest ? span(longest) : null,
        freeMinutes,
        durationMinutes: input.engine.durationMinutes,
      },
    },
    closeness: [-freeMinutes],
  };
}
