/**
 * The calendar index: each service process keeps the technicians' days (days.ts: working
 * windows minus absences minus work orders, worked out once) in memory between searches,
 * from two days back to INDEX_HORIZON_DAYS ahead, instead of reading and parsing every
 * candidate's weeks of work orders on every search.
 *
 * Kept exact across processes by the calendars' stamps (migration 038): the search's own
 * statement reads each candidate's stamp, and a technician whose stamp moved since it was
 * kept (a work order scheduled through another process, an import...) is read again, in one
 * statement for all of them, before the engine runs. What was committed before the search
 * began is therefore seen, whatever the timing of notifications. The notifications of the
 * channel CALENDARS_CHANNEL (the same LISTEN/NOTIFY the caller cache uses) drop changed
 * technicians at once, so the memory never holds what no search can use.
 *
 * Bounded: at most `maxWorkOrders` work orders are kept (least recently searched
 * technicians out first); a search beyond the horizon reads its own period and keeps nothing.
 */
import type { Db, DbHandle } from '../../db/index.ts';
import { type OfficeScope, tenantOf } from '../../platform/officeScope.ts';
import { DAY, type Interval } from '../rostering/index.ts';
import { TechnicianDays } from './days.ts';
import { type CalendarRow, calendarsOf, type SearchCandidate } from './queries.ts';

/** Channel of migration 038's triggers: '<schema> <tenant>/<code>,...' (migration 090) or '<schema> *'. */
export const CALENDARS_CHANNEL = 'fieldwork_calendars';
/** How far ahead the index keeps work orders: ten weeks. */
export const INDEX_HORIZON_DAYS = 70;
/** At most this many work orders kept per process: about 0.5 KB each with their days, 125 MB. */
export const INDEX_MAX_WORK_ORDERS = 250_000;

/** A technician's key: its tenant's and its code (migration 090: codes are per tenant). */
const keyOf = (scope: OfficeScope, code: string) => `${tenantOf(scope) ?? ''}/${code}`;

interface Kept {
  stamp: string;
  days: TechnicianDays;
}

export class CalendarIndex {
  /** By technician key (keyOf), least recently searched first. */
  private readonly kept = new Map<string, Kept>();
  private workOrders = 0;
  readonly stats = { hits: 0, reads: 0, dropped: 0, evicted: 0, notified: 0 };
  private listening: Promise<void> | undefined;

  constructor(readonly limits = { horizonDays: INDEX_HORIZON_DAYS, maxWorkOrders: INDEX_MAX_WORK_ORDERS }) {}

  /** What is kept: technicians, their work orders, their days worked out. */
  get size() {
    let days = 0;
    for (const k of this.kept.values()) days += k.days.keptDays;
    return { technicians: this.kept.size, workOrders: this.workOrders, days };
  }

  /**
   * The days of these candidates for a search that reads the work orders overlapping
   * `visible`: those kept whose stamp still holds, the others read (one statement). A
   * candidate gone from the caller's tree meanwhile is left out.
   */
  async daysOf(
    db: Db,
    scope: OfficeScope,
    candidates: readonly SearchCandidate[],
    visible: Interval,
    now: number,
  ): Promise<Map<string, TechnicianDays>> {
    const span = { start: now - 2 * DAY, end: now + this.limits.horizonDays * DAY };
    const out = new Map<string, TechnicianDays>();
    if (visible.start < span.start || visible.end > span.end) {
      // Beyond the horizon: this search's period alone, kept by no one.
      for (const row of await this.read(db, scope, candidates, visible))
        out.set(row.code, daysOf(row, visible));
      return out;
    }
    const missing: SearchCandidate[] = [];
    for (const c of candidates) {
      const key = keyOf(scope, c.code);
      const k = this.kept.get(key);
      if (
        k &&
        k.stamp === c.stamp &&
        k.days.covered.start <= visible.start &&
        k.days.covered.end >= visible.end
      ) {
        this.kept.delete(key);
        this.kept.set(key, k);
        this.stats.hits++;
        out.set(c.code, k.days);
      } else missing.push(c);
    }
    if (missing.length)
      for (const row of await this.read(db, scope, missing, span)) {
        const days = daysOf(row, span);
        this.keep(keyOf(scope, row.code), { stamp: row.stamp, days });
        out.set(row.code, days);
      }
    return out;
  }

  private read(db: Db, scope: OfficeScope, candidates: readonly SearchCandidate[], span: Interval) {
    this.stats.reads += candidates.length;
    return calendarsOf(
      db,
      scope,
      candidates.map((c) => c.code),
      { from: span.start, to: span.end },
    );
  }

  private keep(key: string, k: Kept) {
    this.drop(key);
    this.kept.set(key, k);
    this.workOrders += k.days.bookings.length;
    for (const [oldest] of this.kept) {
      if (this.workOrders <= this.limits.maxWorkOrders) break;
      this.drop(oldest);
      this.stats.evicted++;
    }
  }

  /** Forgets a technician ('<tenant>/<code>'): its calendar changed. */
  drop(key: string) {
    const k = this.kept.get(key);
    if (!k) return;
    this.kept.delete(key);
    this.workOrders -= k.days.bookings.length;
  }

  clear() {
    this.kept.clear();
    this.workOrders = 0;
  }

  /** Follows the triggers' notifications on `dbh` (once; resolves when listening). */
  listen(dbh: DbHandle): Promise<void> {
    this.listening ??= dbh
      .listen(
        CALENDARS_CHANNEL,
        (payload) => {
          const space = payload.indexOf(' ');
          if (payload.slice(0, space) !== dbh.schema) return;
          this.stats.notified++;
          const keys = payload.slice(space + 1);
          if (keys === '*') this.clear();
          else
            for (const key of keys.split(',')) {
              if (this.kept.has(key)) this.stats.dropped++;
              this.drop(key);
            }
        },
        () => {},
      )
      .then(() => undefined);
    return this.listening;
  }
}

function daysOf(row: CalendarRow, covered: Interval): TechnicianDays {
  return new TechnicianDays(
    {
      code: row.code,
      timeZone: row.time_zone,
      workingHours: row.working_hours,
      absences: row.absences.map((a) => ({ start: Date.parse(a.start), end: Date.parse(a.end) })),
      home:
        row.home_latitude != null && row.home_longitude != null
          ? { latitude: row.home_latitude, longitude: row.home_longitude }
          : null,
      maxWorkOrdersPerDay: row.max_work_orders_per_day,
      maxMinutesPerDay: row.max_minutes_per_day,
    },
    row.bookings,
    covered,
  );
}

const indexes = new WeakMap<DbHandle, CalendarIndex>();

/** The index of a database (one per process and database), listening to its notifications. */
export async function calendarIndexOf(dbh: DbHandle): Promise<CalendarIndex> {
  let index = indexes.get(dbh);
  if (!index) {
    index = new CalendarIndex();
    indexes.set(dbh, index);
  }
  await index.listen(dbh);
  return index;
}
