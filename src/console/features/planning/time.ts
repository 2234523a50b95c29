/**
 * Time of the planner: the API speaks UTC (`YYYY-MM-DDTHH:MM` in requests, RFC 3339 in
 * answers); the planner reads and types times in one display time zone (the browser's,
 * named on the page). Pure: the zone is a parameter, so the tests pin it.
 */

export const MINUTE = 60_000;
export const DAY = 86_400_000;

/** The browser's IANA time zone (UTC when the runtime does not say). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();
function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    partsFormats.set(timeZone, f);
  }
  return f;
}

/** The wall clock of an instant in a zone. */
export interface Zoned {
  /** `YYYY-MM-DD` */
  date: string;
  /** Minutes since the local midnight, 0..1439. */
  minutes: number;
}

export function zoned(ms: number, timeZone: string): Zoned {
  const p: Record<string, string> = {};
  for (const part of partsFormat(timeZone).formatToParts(new Date(ms))) p[part.type] = part.value;
  return {
    date: `${p.year}-${p.month}-${p.day}`,
    minutes: Number(p.hour) * 60 + Number(p.minute),
  };
}

/** `YYYY-MM-DDTHH:MM` of an instant in a zone (what a datetime-local input holds). */
export function toLocalInput(ms: number, timeZone: string): string {
  const z = zoned(ms, timeZone);
  return `${z.date}T${hhmm(z.minutes)}`;
}

/** `HH:MM` of minutes since midnight. */
export function hhmm(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * The instant of a wall-clock time `YYYY-MM-DDTHH:MM` in a zone, or null when the text is
 * not such a time. A time that does not exist (skipped by a clock change) moves forward by
 * the gap, as clocks do.
 */
export function fromLocalInput(text: string, timeZone: string): number | null {
  const m = LOCAL.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  if (new Date(asUtc).getUTCDate() !== d) return null;
  // The zone's offset at the guess, then again at the corrected instant (clock changes).
  let t = asUtc - offsetOf(asUtc, timeZone);
  t = asUtc - offsetOf(t, timeZone);
  return t;
}

/** Milliseconds the zone is ahead of UTC at an instant. */
export function offsetOf(ms: number, timeZone: string): number {
  const z = zoned(ms, timeZone);
  const [y, mo, d] = z.date.split('-').map(Number);
  const wall = Date.UTC(y, mo - 1, d) + z.minutes * MINUTE;
  return wall - Math.floor(ms / MINUTE) * MINUTE;
}

/** `YYYY-MM-DDTHH:MM` in UTC (the API's date-time input). */
export function toApiDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16);
}

/** An API date-time (`YYYY-MM-DDTHH:MM`, with seconds, with `Z` or not) as an instant, or null. */
export function fromApiDateTime(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?$/.test(text)) return null;
  const ms = Date.parse(text.endsWith('Z') ? text : `${text}Z`);
  return Number.isNaN(ms) ? null : ms;
}

/** `YYYY-MM-DD` plus n days (calendar arithmetic, no zone). */
export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
}

/** Days from `a` to `b` (`YYYY-MM-DD`), negative when b is before a. */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);
}

/** Is `text` a calendar date `YYYY-MM-DD` that exists? */
export function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}
