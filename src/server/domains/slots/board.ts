/**
 * Rules of the dispatch board's read (issue 28): technicians of the caller's tree, a page at
 * a time by code, each with their working hours, absences and scheduled work orders over a
 * period, and the travel between them from the search's road model: one read per visible
 * window of the board.
 */

import type { Page } from '../../../contract/common.ts';
import {
  BOARD_MAX_DAYS,
  BOARD_PAGE_SIZE,
  type BoardTechnician,
  readBoard,
  SlotBoardCodes,
  type SlotBoardQuery,
} from '../../../contract/slots.ts';
import type { Db } from '../../db/index.ts';
import { badRequest } from '../../platform/errors.ts';
import { type OfficeScope, officeFilterPath } from '../../platform/officeScope.ts';
import { isString, type PageTokens, pageRequest } from '../../platform/pagination.ts';
import { DAY, type Interval, localDay, workingWindows } from '../rostering/index.ts';
import { type BoardBooking, type BoardRow, boardPage } from './queries.ts';
import type { Point, RoadModel } from './road.ts';
import { defaultServices, type SlotServices } from './service.ts';
import { utcText } from './utcText.ts';

const span = (i: Interval) => ({ start: utcText(i.start), end: utcText(i.end) });

export async function board(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  query: SlotBoardQuery,
  services: SlotServices = defaultServices,
): Promise<Page<BoardTechnician>> {
  const { continuationToken, ...filters } = query;
  const period = { start: filters.start.getTime(), end: filters.end.getTime() };
  if (period.end <= period.start || period.end - period.start > BOARD_MAX_DAYS * DAY)
    throw badRequest(
      SlotBoardCodes.periodInvalid,
      `The period must end after it starts, at most ${BOARD_MAX_DAYS} days later`,
    );
  const officePath = await officeFilterPath(db, scope, filters.officeCode, SlotBoardCodes.officeUnknown);
  const q = filters.q?.trim() || undefined;
  const request = pageRequest(
    tokens,
    {
      id: readBoard.id,
      filters: { ...filters, q: q ?? null },
      invalidCode: SlotBoardCodes.continuationTokenInvalid,
      isKey: isString,
    },
    continuationToken,
  );
  // A day each side: the work orders next to those of the period, for the travel between them.
  const rows = await boardPage(
    db,
    scope,
    { ...filters, q, officePath, after: request.after, limit: BOARD_PAGE_SIZE },
    { from: period.start - DAY, to: period.end + DAY },
  );
  return request.page(
    rows,
    BOARD_PAGE_SIZE,
    (r) => boardRow(r, period, services.road),
    (r) => r.code,
  );
}

function boardRow(r: BoardRow, period: Interval, road: RoadModel): BoardTechnician {
  const home =
    r.home_latitude !== null && r.home_longitude !== null
      ? { latitude: r.home_latitude, longitude: r.home_longitude }
      : null;
  const inPeriod = (i: Interval) => i.end > period.start && i.start < period.end;
  const travel = (from: Point | null, to: Point | null) => {
    if (!from || !to) return null;
    const route = road.travel(from, to);
    return typeof route === 'object' ? route : null;
  };
  // The place of a neighbour: a work order outside the caller's tree keeps its place to itself.
  const placeOf = (b: BoardBooking | undefined) => (b ? (b.visible ? b.location : null) : home);
  const sameDay = (a: BoardBooking, b: BoardBooking | undefined) =>
    b !== undefined && localDay(r.time_zone, a.start) === localDay(r.time_zone, b.start);
  const all = r.work_orders;
  return {
    technicianCode: r.code,
    name: r.name,
    officeCode: r.office_code,
    active: r.active,
    skills: r.skills,
    areas: r.areas,
    timeZone: r.time_zone,
    home,
    capacity: { maxWorkOrdersPerDay: r.max_work_orders_per_day, maxMinutesPerDay: r.max_minutes_per_day },
    workingHours: workingWindows(r.time_zone, r.working_hours, period.start, period.end).map(span),
    absences: r.absences
      .map((a) => ({ start: Date.parse(a.start), end: Date.parse(a.end) }))
      .filter(inPeriod)
      .map(span),
    busy: all.filter((b) => !b.visible && inPeriod(b)).map(span),
    workOrders: all.flatMap((b, i) => {
      if (!b.visible || !inPeriod(b)) return [];
      const prev = sameDay(b, all[i - 1]) ? all[i - 1] : undefined;
      const next = sameDay(b, all[i + 1]) ? all[i + 1] : undefined;
      return [
        {
          workOrderCode: b.code,
          uuid: b.uuid,
          workOrderTypeCode: b.type_code,
          workOrderTypeName: b.type_name,
          status: b.status,
          customerCode: b.customer_code,
          crewCode: b.crew_code,
          start: utcText(b.start),
          end: utcText(b.end),
          location: b.location,
          travelBefore: travel(placeOf(prev), b.location),
          travelAfter: travel(b.location, placeOf(next)),
        },
      ];
    }),
  };
}
