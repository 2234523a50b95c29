/** Dates and times of the planning pages in the UI language and the display time zone. */
const cache = new Map<string, Intl.DateTimeFormat>();
function fmt(lang: string, timeZone: string, opts: Intl.DateTimeFormatOptions) {
  const key = `${lang}|${timeZone}|${JSON.stringify(opts)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(lang, { timeZone, ...opts });
    cache.set(key, f);
  }
  return f;
}

export interface Formats {
  /** A column's day: "Tue 14 Jan". */
  day: (date: string) => string;
  /** "09:30" */
  time: (ms: number) => string;
  /** "Tue 14 Jan 2030, 09:30" */
  dateTime: (ms: number) => string;
  /** "Tue 14 Jan, 09:30 – 10:30" */
  span: (start: number, end: number) => string;
  /** A date `YYYY-MM-DD` in full: "Tuesday 14 January 2030". */
  longDate: (date: string) => string;
  /** Narrow day headers: "Tue", "14", "14 Jan". */
  weekday: (date: string) => string;
  dayNumber: (date: string) => string;
  dayMonth: (date: string) => string;
}

export function formats(lang: string, timeZone: string): Formats {
  const day = fmt(lang, 'UTC', { weekday: 'short', day: 'numeric', month: 'short' });
  const longDate = fmt(lang, 'UTC', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const time = fmt(lang, timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const dateTime = fmt(lang, timeZone, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const shortDay = fmt(lang, timeZone, { weekday: 'short', day: 'numeric', month: 'short' });
  const weekday = fmt(lang, 'UTC', { weekday: 'short' });
  const dayNumber = fmt(lang, 'UTC', { day: 'numeric' });
  const dayMonth = fmt(lang, 'UTC', { day: 'numeric', month: 'short' });
  const utcDay = (d: string) => new Date(`${d}T12:00:00Z`);
  return {
    day: (d) => day.format(utcDay(d)),
    time: (ms) => time.format(ms),
    dateTime: (ms) => dateTime.format(ms),
    span: (a, b) => `${shortDay.format(a)}, ${time.format(a)} – ${time.format(b)}`,
    longDate: (d) => longDate.format(utcDay(d)),
    weekday: (d) => weekday.format(utcDay(d)),
    dayNumber: (d) => dayNumber.format(utcDay(d)),
    dayMonth: (d) => dayMonth.format(utcDay(d)),
  };
}
