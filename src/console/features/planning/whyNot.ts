/**
 * "Why not this technician?" (issue 28, 2), pure: what to draw on an excluded technician's
 * day for the reason the slot search gave (`excluded` of `explain: true`): the day to show
 * and the span the reason is about (the best slot that came too late, the free time too
 * short, an absence), or the whole day (its capacity is full), or nothing timed (skills, area,
 * inactive).
 */
import type { ExcludedTechnician } from '../../../contract/slots.ts';
import { addDays, fromApiDateTime, fromLocalInput, zoned } from './time.ts';

export type ReasonMark = 'best' | 'free' | 'absence' | 'full';

export interface ReasonFocus {
  /** The local day shown (`YYYY-MM-DD` in the display zone). */
  day: string;
  /** The span drawn for the reason, if it has one. */
  span: { start: number; end: number; mark: ReasonMark } | null;
}

const instant = (text: string) => fromApiDateTime(text) ?? 0;

export function reasonFocus(e: ExcludedTechnician, periodStart: number, timeZone: string): ReasonFocus {
  const dayOf = (ms: number) => zoned(ms, timeZone).date;
  const spanOn = (
    s: { start: string; end: string } | null | undefined,
    mark: ReasonMark,
  ): ReasonFocus | null =>
    s ? { day: dayOf(instant(s.start)), span: { start: instant(s.start), end: instant(s.end), mark } } : null;
  const wholeDay = (day: string | undefined): ReasonFocus | null => {
    if (!day) return null;
    const start = fromLocalInput(`${day}T00:00`, timeZone) ?? 0;
    const end = fromLocalInput(`${addDays(day, 1)}T00:00`, timeZone) ?? start;
    return { day, span: { start, end, mark: 'full' } };
  };
  const focus = (() => {
    switch (e.reason) {
      case 'outranked':
        return spanOn(e.detail, 'best');
      case 'too.far':
        return spanOn(e.detail.free, 'free');
      case 'no.window':
        return spanOn(e.detail.longestFree, 'free');
      case 'absent':
        return spanOn(e.detail.absences[0], 'absence');
      case 'capacity.full':
        return wholeDay(e.detail.days[0]);
      case 'area.outside':
        return e.detail.days[0] ? { day: e.detail.days[0], span: null } : null;
      default:
        return null;
    }
  })();
  return focus ?? { day: dayOf(periodStart), span: null };
}

/** The board read of that local day: `YYYY-MM-DDTHH:MM` UTC from its midnight to the next. */
export function dayPeriod(day: string, timeZone: string): { start: string; end: string } {
  const utc = (ms: number) => new Date(ms).toISOString().slice(0, 16);
  const start = fromLocalInput(`${day}T00:00`, timeZone) ?? Date.parse(`${day}T00:00:00Z`);
  const end = fromLocalInput(`${addDays(day, 1)}T00:00`, timeZone) ?? start + 86_400_000;
  return { start: utc(start), end: utc(end) };
}
