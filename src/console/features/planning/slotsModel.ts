/**
 * The slots of a search as the planner shows them (pure): one timeline row per technician
 * (their booked work orders on the first lane, the slots on the lanes below, overlapping
 * slots on lanes of their own), rows ordered by their best slot; and the parts of a score.
 */
import { SCORE_WEIGHTS, type Slot } from '../../../contract/slots.ts';
import { assignLanes, type Span } from './timeline.ts';

export type { Slot };

/** A work order booked on a technician (the timeline's first lane of that row). */
export interface Booking {
  technicianCode: string;
  workOrderCode: string;
  start: number;
  end: number;
  /** The work order of the search, scheduled from the planner. */
  picked?: boolean;
}

/** One slot: its technician and start make it unique in an answer. */
export const slotKey = (s: Pick<Slot, 'technicians' | 'start'>) => `${s.technicians.join('+')}|${s.start}`;
export const slotSpan = (s: Pick<Slot, 'start' | 'end'>): Span => ({
  start: Date.parse(s.start),
  end: Date.parse(s.end),
});

export type RowItem =
  | { kind: 'slot'; key: string; slot: Slot; span: Span; lane: number }
  | { kind: 'booking'; key: string; booking: Booking; span: Span; lane: number };

export interface TechnicianRow {
  technicianCode: string;
  items: RowItem[];
  /** Lanes the row needs (at least 1). */
  lanes: number;
  /** Best score of its slots (rows are ordered by it), -1 without slot. */
  best: number;
  slotCount: number;
}

/**
 * The rows: every technician of a slot or a booking; bookings on lane 0 when the row has
 * any, slots below on as many lanes as their overlaps need. Ordered by best slot (the
 * technicians without slot last), then code.
 */
export function technicianRows(slots: readonly Slot[], bookings: readonly Booking[]): TechnicianRow[] {
  const byTech = new Map<string, { slots: Slot[]; bookings: Booking[] }>();
  const entry = (code: string) => {
    let e = byTech.get(code);
    if (!e) {
      e = { slots: [], bookings: [] };
      byTech.set(code, e);
    }
    return e;
  };
  for (const s of slots) for (const code of s.technicians.slice(0, 1)) entry(code).slots.push(s);
  for (const b of bookings) entry(b.technicianCode).bookings.push(b);

  const rows: TechnicianRow[] = [];
  for (const [technicianCode, e] of byTech) {
    const bookingLanes = e.bookings.length ? assignLanes(e.bookings.map((b) => b)) : { lanes: [], count: 0 };
    const slotSpans = e.slots.map(slotSpan);
    const slotLanes = assignLanes(slotSpans);
    const items: RowItem[] = [
      ...e.bookings.map(
        (b, i): RowItem => ({
          kind: 'booking',
          key: `booking|${b.workOrderCode}|${b.start}`,
          booking: b,
          span: { start: b.start, end: b.end },
          lane: bookingLanes.lanes[i],
        }),
      ),
      ...e.slots.map(
        (s, i): RowItem => ({
          kind: 'slot',
          key: slotKey(s),
          slot: s,
          span: slotSpans[i],
          lane: bookingLanes.count + slotLanes.lanes[i],
        }),
      ),
    ];
    rows.push({
      technicianCode,
      items,
      lanes: Math.max(1, bookingLanes.count + slotLanes.count),
      best: e.slots.length ? Math.max(...e.slots.map((s) => s.score)) : -1,
      slotCount: e.slots.length,
    });
  }
  return rows.sort((a, b) => b.best - a.best || a.technicianCode.localeCompare(b.technicianCode));
}

/** Every span of the rows (what the axis must show), travel included around the slots. */
export function spansOf(slots: readonly Slot[], bookings: readonly Booking[]): Span[] {
  return [
    ...slots.map((s) => {
      const span = slotSpan(s);
      return {
        start: span.start - s.travelBefore.minutes * 60_000,
        end: span.end + s.travelAfter.minutes * 60_000,
      };
    }),
    ...bookings.map((b) => ({ start: b.start, end: b.end })),
  ];
}

/** A part of a score: points earned out of the part's weight. */
export interface ScorePart {
  key: keyof typeof SCORE_WEIGHTS;
  points: number;
  max: number;
}

export function scoreParts(s: Pick<Slot, 'scoreDetails'>): ScorePart[] {
  return (Object.keys(SCORE_WEIGHTS) as (keyof typeof SCORE_WEIGHTS)[]).map((key) => ({
    key,
    points: s.scoreDetails[key],
    max: SCORE_WEIGHTS[key],
  }));
}

/** A colour band for a score out of 100 (the timeline's bars, the list's badges). */
export function scoreBand(score: number): 'high' | 'mid' | 'low' {
  return score >= 70 ? 'high' : score >= 45 ? 'mid' : 'low';
}

/** Rounded points for display: one decimal at most. */
export const points = (n: number) => Math.round(n * 10) / 10;
