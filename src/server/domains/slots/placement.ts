/**
 * One placement (the dispatch board's feasibility check): would the work, started at
 * `start` on this technician, fit? The search's rules for that one start, in their order:
 * absences, the day's capacity, free time (working windows minus absences minus work
 * orders), then the travel from the place before and on to the next one. Any start, not only
 * the search's grid or starting hours.
 */
import type { Interval } from '../rostering/index.ts';
import type { Booking, Day, Free, TechnicianDays } from './days.ts';
import { Candidate, capacityAllows, Search, TravelFailure } from './engine.ts';
import type { Point, RoadModel, Route } from './road.ts';

export type Placement =
  | { fits: true; day: Day; free: Free; before: Route; after: Route }
  | { fits: false; reason: 'absent'; absences: Interval[] }
  | { fits: false; reason: 'capacity.full'; day: Day }
  | { fits: false; reason: 'no.window'; free: Free | null; overlapping: Booking[] }
  | {
      fits: false;
      reason: 'too.far';
      free: Free;
      route: 'ok' | 'none' | 'unavailable';
      travel: { before: Route; after: Route } | null;
    };

export function placementOf(
  days: TechnicianDays,
  p: { start: number; durationMinutes: number; target: Point; road: RoadModel; visible: Interval },
): Placement {
  const t = days.technician;
  const work = { start: p.start, end: p.start + p.durationMinutes * 60_000 };
  const absences = t.absences.filter((a) => a.start < work.end && a.end > work.start);
  if (absences.length) return { fits: false, reason: 'absent', absences };

  const search = new Search(
    {
      calendars: [days],
      visible: p.visible,
      target: p.target,
      durationMinutes: p.durationMinutes,
      ranges: [work],
      appointmentDate: null,
      firstOfTheDay: false,
      startingHours: null,
      maximumSlotNumber: 1,
      ignoreCapacity: false,
      road: p.road,
      now: Number.NEGATIVE_INFINITY,
    },
    [work],
  );
  const c = new Candidate(search, days, work);
  const day = c.daysOfPeriod().find((d) => d.start <= work.start && work.start < d.end);
  const overlapping = () => days.bookings.filter((b) => b.start < work.end && b.end > work.start);
  if (!day) return { fits: false, reason: 'no.window', free: null, overlapping: overlapping() };
  if (!capacityAllows(t, day, p.durationMinutes)) return { fits: false, reason: 'capacity.full', day };

  const free = day.free.find((f) => f.start <= work.start && work.end <= f.end);
  if (!free) {
    const around = day.free.find((f) => f.start <= work.start && work.start < f.end) ?? null;
    return { fits: false, reason: 'no.window', free: around, overlapping: overlapping() };
  }
  if (!t.home) return { fits: false, reason: 'too.far', free, route: 'unavailable', travel: null };
  let before: Route;
  let after: Route;
  try {
    before = c.travelTo(c.origin(free));
    after = c.travelFrom(c.destination(free));
  } catch (e) {
    if (!(e instanceof TravelFailure)) throw e;
    return {
      fits: false,
      reason: 'too.far',
      free,
      route: e.reason === 'NO_ROUTE' ? 'none' : 'unavailable',
      travel: null,
    };
  }
  if (free.start + before.minutes * 60_000 <= work.start && work.end + after.minutes * 60_000 <= free.end)
    return { fits: true, day, free, before, after };
  return { fits: false, reason: 'too.far', free, route: 'ok', travel: { before, after } };
}
