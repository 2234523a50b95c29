/**
 * The board's URL search params, validated by the router: the day shown, day or week, the
 * technicians' filters and the queue's. Light on purpose: it loads with the shell. A wrong
 * value is dropped (the page falls back to today, the day view, no filter).
 */
import { code, defined, isDay, oneOf, text } from '../../app/searchParams.ts';

export const BOARD_VIEWS = ['day', 'week'] as const;
export type BoardView = (typeof BOARD_VIEWS)[number];

export interface BoardSearch {
  /** The day shown (`YYYY-MM-DD`), or a day of the week shown. */
  date?: string;
  view?: BoardView;
  /** Technicians: office (and below), skill, area, text in code or name. */
  office?: string;
  skill?: string;
  area?: string;
  q?: string;
  /** The queue: start of a work order code, and a type. */
  wo?: string;
  type?: string;
}

export function validateBoardSearch(raw: Record<string, unknown>): BoardSearch {
  const out: BoardSearch = {
    date: isDay(raw.date) ? raw.date : undefined,
    view: oneOf(BOARD_VIEWS, raw.view),
    office: code(raw.office, { scalars: true }),
    skill: code(raw.skill, { scalars: true }),
    area: code(raw.area, { scalars: true }),
    q: text(raw.q, { scalars: true }),
    wo: code(raw.wo, { scalars: true }),
    type: code(raw.type, { scalars: true }),
  };
  return defined(out);
}
