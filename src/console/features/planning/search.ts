/**
 * The URL search params of the planning routes, validated by the router (pages read them
 * through `getRouteApi`). Light on purpose: they load with the shell.
 *
 * The planner's URL holds the inputs of the slot search, so a link reproduces the search
 * (the results are fetched again from it). Values are kept as given (trimmed and bounded),
 * not judged: a wrong date or a type that does not exist reaches the form's checks or the
 * service, which say what is wrong on the field.
 */

import { defined, flag, list, num, text as read } from '../../app/searchParams.ts';

// `?wo=123` arrives as the number 123: a value is kept as its text.
const text = (v: unknown, max = 200) => read(v, { max, scalars: true });
const code = (v: unknown) => text(v)?.toUpperCase();

/** Where the work is: a work order (its code), or a type and a place. */
export type PlannerTarget = 'workOrder' | 'place';
/** How the period is given: time ranges, or an appointment date. */
export type PeriodMode = 'ranges' | 'date';

export interface PlannerSearch {
  /** The work order to place (its code): it gives the place, and its type gives the needs. */
  wo?: string;
  /** Work order type code (required by the search; taken from the work order when one is picked). */
  type?: string;
  /** A place without a work order: address, zip code, city, country, or coordinates. */
  address?: string;
  zip?: string;
  city?: string;
  country?: string;
  lat?: number;
  lon?: number;
  /** Present once a search was asked for: the page searches from the URL when it is there. */
  period?: PeriodMode;
  /** Time ranges, UTC, each `YYYY-MM-DDTHH:MM/YYYY-MM-DDTHH:MM` (ISO 8601 interval). */
  ranges?: string[];
  /** Appointment date `YYYY-MM-DD`. */
  date?: string;
  offices?: string[];
  areas?: string[];
  areaScope?: string;
  /** Skills added to the type's. */
  skills?: string[];
  /** Zone filter on, with its zip code. */
  zone?: true;
  zoneZip?: string;
  portalUser?: string;
  firstOfDay?: true;
  /** Local starting hours `HH:MM`. */
  hours?: string[];
  max?: number;
  /** At most this many slots of one technician (absent: the planner's default, PLANNER_SLOTS_PER_TECHNICIAN). */
  perTech?: number;
  ignoreCapacity?: true;
  /** The results shown as a list (default: the timeline). */
  view?: 'list';
}

export function validatePlannerSearch(raw: Record<string, unknown>): PlannerSearch {
  const period = raw.period === 'ranges' || raw.period === 'date' ? raw.period : undefined;
  const out: PlannerSearch = {
    wo: code(raw.wo),
    type: code(raw.type),
    address: text(raw.address, 1000),
    zip: text(raw.zip, 20),
    city: text(raw.city, 256),
    country: code(raw.country)?.slice(0, 2),
    lat: num(raw.lat),
    lon: num(raw.lon),
    period,
    ranges: list(raw.ranges, (x) => text(x, 40)),
    date: text(raw.date, 10),
    offices: list(raw.offices, code),
    areas: list(raw.areas, code),
    areaScope: code(raw.areaScope)?.slice(0, 50),
    skills: list(raw.skills, code),
    zone: flag(raw.zone),
    zoneZip: text(raw.zoneZip, 20),
    portalUser: text(raw.portalUser, 256),
    firstOfDay: flag(raw.firstOfDay),
    hours: list(raw.hours, (x) => text(x, 5), 96),
    max: num(raw.max),
    perTech: num(raw.perTech),
    ignoreCapacity: flag(raw.ignoreCapacity),
    view: raw.view === 'list' ? 'list' : undefined,
  };
  return defined(out);
}

/** The crews page: the period (`YYYY-MM-DD`, both inclusive). Defaults: this week and the next. */
export interface CrewsSearch {
  from?: string;
  to?: string;
}
export function validateCrewsSearch(raw: Record<string, unknown>): CrewsSearch {
  const date = (v: unknown) => {
    const s = text(v, 10);
    return s && /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : undefined;
  };
  const out: CrewsSearch = { from: date(raw.from), to: date(raw.to) };
  return defined(out);
}
