/**
 * The one adapter between the board and HTTP, each call a row of the contract's endpoint
 * table: the board's read (a page of technicians with their period), the queue (the work
 * order list, unscheduled statuses), the feasibility check, the scheduling PUT and the
 * lists of the filters.
 */
import type { Client } from '../../../client/index.ts';
import type { Page } from '../../../contract/common.ts';
import { listWorkOrders, listWorkOrderTypes, type WorkOrder } from '../../../contract/fieldService.ts';
import { listOffices } from '../../../contract/referentials.ts';
import { listAreas } from '../../../contract/rostering.ts';
import { scheduleByCode, unscheduleByCode } from '../../../contract/scheduling.ts';
import { type BoardTechnician, checkSlot, readBoard, type SlotCheck } from '../../../contract/slots.ts';
import { listSkills } from '../../../contract/staff.ts';
import { toApiDateTime } from '../planning/index.ts';

/** The queue: work orders of the tree not yet scheduled (issue 28). */
export const QUEUE_STATUSES = 'NEW,QUALIFIED,PRE_SCHEDULED';

export interface BoardFilters {
  officeCode?: string;
  skillCode?: string;
  areaCode?: string;
  q?: string;
}
export interface Period {
  start: number;
  end: number;
}
export interface QueueFilters {
  q?: string;
  workOrderTypeCode?: string;
}

export function boardApi(client: Client) {
  async function all<T>(pages: AsyncGenerator<{ data: T[] }>): Promise<T[]> {
    const out: T[] = [];
    for await (const page of pages) out.push(...page.data);
    return out;
  }
  const boardPage = (
    period: Period,
    filters: BoardFilters,
    continuationToken: string | undefined,
    signal?: AbortSignal,
  ): Promise<Page<BoardTechnician>> =>
    client.call(readBoard, {
      query: {
        start: toApiDateTime(period.start),
        end: toApiDateTime(period.end),
        ...filters,
        continuationToken,
      },
      signal,
    });
  return {
    boardPage,
    /** One technician's row again (after a drop touched it): null when the filters no longer show it. */
    async boardRow(
      period: Period,
      filters: BoardFilters,
      technicianCode: string,
    ): Promise<BoardTechnician | null> {
      const page = await boardPage(period, { ...filters, q: technicianCode }, undefined);
      return page.data.find((t) => t.technicianCode === technicianCode) ?? null;
    },
    queuePage: (
      filters: QueueFilters,
      continuationToken: string | undefined,
      signal?: AbortSignal,
    ): Promise<Page<WorkOrder>> =>
      client.call(listWorkOrders, {
        query: { ...filters, status: QUEUE_STATUSES, continuationToken },
        signal,
      }),
    check: (
      workOrderCode: string,
      technicianCode: string,
      start: number,
      signal?: AbortSignal,
    ): Promise<SlotCheck> =>
      client.call(checkSlot, {
        body: { workOrder: { code: workOrderCode }, technicianCode, start: toApiDateTime(start) },
        signal,
      }),
    async schedule(workOrderCode: string, technicianCode: string, start: number): Promise<void> {
      await client.request(scheduleByCode, {
        params: { workOrderCode },
        body: { technicianCode, start: toApiDateTime(start) },
      });
    },
    /** Back to the work to schedule (the scheduling extension's DELETE). */
    async unschedule(workOrderCode: string): Promise<void> {
      await client.request(unscheduleByCode, { params: { workOrderCode } });
    },
    offices: (signal?: AbortSignal) => all(client.pages(listOffices, { signal })),
    skills: (signal?: AbortSignal) => all(client.pages(listSkills, { signal })),
    areas: (signal?: AbortSignal) => all(client.pages(listAreas, { signal })),
    workOrderTypes: (signal?: AbortSignal) => all(client.pages(listWorkOrderTypes, { signal })),
  };
}
export type BoardApi = ReturnType<typeof boardApi>;
