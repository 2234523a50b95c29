/**
 * The one adapter between the planning pages and HTTP: every call the pages make, each a
 * row of the contract's endpoint table through the typed client (`src/client`).
 */
import type { Client } from '../../../client/index.ts';
import type { Page } from '../../../contract/common.ts';
import { listWorkOrderTypes, type WorkOrderType } from '../../../contract/fieldService.ts';
import { type LinkableWorkOrder, listLinkableWorkOrders } from '../../../contract/projectManagement.ts';
import { listOffices, type Office } from '../../../contract/referentials.ts';
import { type Crew, listAreas, listCrews } from '../../../contract/rostering.ts';
import {
  getScheduleByCode,
  type ScheduleBody,
  scheduleByCode,
  type WorkOrderSchedule,
} from '../../../contract/scheduling.ts';
import {
  getWorkOrderNeeds,
  type SlotSearchResponse,
  type SlotSearchSent,
  searchSlots,
  type WorkOrderNeeds,
} from '../../../contract/slots.ts';
import { listSkills } from '../../../contract/staff.ts';

export interface Area {
  areaCode: string;
  name: string;
  zipCodes: string[];
}
export interface Skill {
  skillCode: string;
  name: string;
}

/** Crews a page of the crews timeline asks for. */
export const CREWS_PAGE = 50;

export function planningApi(client: Client) {
  /** Every element of a paginated list. */
  async function all<T>(pages: AsyncGenerator<unknown>): Promise<T[]> {
    const out: T[] = [];
    for await (const page of pages) out.push(...(page as Page<T>).data);
    return out;
  }
  return {
    async searchSlots(body: SlotSearchSent, signal?: AbortSignal): Promise<SlotSearchResponse> {
      return (await client.call(searchSlots, { body, signal })) as SlotSearchResponse;
    },
    async needs(workOrderCode: string, signal?: AbortSignal): Promise<WorkOrderNeeds> {
      return (await client.call(getWorkOrderNeeds, { params: { workOrderCode }, signal })) as WorkOrderNeeds;
    },
    async schedule(workOrderCode: string, body: ScheduleBody): Promise<void> {
      await client.request(scheduleByCode, { params: { workOrderCode }, body });
    },
    async getSchedule(workOrderCode: string, signal?: AbortSignal): Promise<WorkOrderSchedule> {
      return (await client.call(getScheduleByCode, {
        params: { workOrderCode },
        signal,
      })) as WorkOrderSchedule;
    },
    /** Work orders of the caller's tree whose code contains `q` (first page: the picker's choices). */
    async findWorkOrders(q: string, signal?: AbortSignal): Promise<LinkableWorkOrder[]> {
      const page = (await client.call(listLinkableWorkOrders, {
        query: { q: q || undefined },
        signal,
      })) as Page<LinkableWorkOrder>;
      return page.data;
    },
    async crews(
      q: { from: string; to: string; continuationToken?: string },
      signal?: AbortSignal,
    ): Promise<Page<Crew>> {
      return (await client.call(listCrews, {
        query: {
          crewsStartDate: q.from,
          crewsEndDate: q.to,
          crewsSize: String(CREWS_PAGE),
          continuationToken: q.continuationToken,
        },
        signal,
      })) as Page<Crew>;
    },
    workOrderTypes: (signal?: AbortSignal) =>
      all<WorkOrderType>(client.pages(listWorkOrderTypes, { signal })),
    offices: (signal?: AbortSignal) => all<Office>(client.pages(listOffices, { signal })),
    areas: (signal?: AbortSignal) => all<Area>(client.pages(listAreas, { signal })),
    skills: (signal?: AbortSignal) => all<Skill>(client.pages(listSkills, { signal })),
  };
}
export type PlanningApi = ReturnType<typeof planningApi>;
