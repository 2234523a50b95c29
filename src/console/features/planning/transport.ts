/**
 * The one adapter between the planning pages and HTTP: every call the pages make, each a
 * row of the contract's endpoint table through the typed client (`src/client`).
 */
import type { Client } from '../../../client/index.ts';
import type { Page } from '../../../contract/common.ts';
import {
  type FlagsBody,
  getDiagnosticByCode,
  listFlags,
  type NoteBody,
  putFlagsByCode,
  putNoteByCode,
  type WorkOrderDiagnostic,
} from '../../../contract/diagnostic.ts';
import { listWorkOrders, listWorkOrderTypes, type WorkOrder } from '../../../contract/fieldService.ts';
import { listOffices } from '../../../contract/referentials.ts';
import { type Crew, listAreas, listCrews } from '../../../contract/rostering.ts';
import {
  getScheduleByCode,
  type ScheduleBody,
  scheduleByCode,
  type WorkOrderSchedule,
} from '../../../contract/scheduling.ts';
import {
  type BoardTechnician,
  getWorkOrderNeeds,
  readBoard,
  type SlotSearchResponse,
  type SlotSearchSent,
  searchSlots,
  type WorkOrderNeeds,
} from '../../../contract/slots.ts';
import { listSkills } from '../../../contract/staff.ts';

/** The rows the planning pages write with: what their actions ask for (app/permissions.ts). */
export const writeRows = {
  schedule: scheduleByCode,
  flags: putFlagsByCode,
  note: putNoteByCode,
  searchSlots,
} as const;

export interface Area {
  areaCode: string;
  name: string;
  zipCodes: string[];
}
/** A flag a work order may carry. */
export interface Flag {
  flagId: number;
  label: string;
}
export interface Skill {
  skillCode: string;
  name: string;
}

/** Crews a page of the crews timeline asks for. */
export const CREWS_PAGE = 50;
/** Work orders still to do: what the planner places. */
export const TO_PLAN = 'NEW,QUALIFIED,PRE_SCHEDULED,SCHEDULED,IN_PROGRESS';
/** Pages of a technician's work orders read for the timeline (100 each), at most. */
export const BOOKING_PAGES = 3;

export function planningApi(client: Client) {
  /** Every element of a paginated list. */
  async function all<T>(pages: AsyncGenerator<{ data: T[] }>): Promise<T[]> {
    const out: T[] = [];
    for await (const page of pages) out.push(...page.data);
    return out;
  }
  return {
    async searchSlots(body: SlotSearchSent, signal?: AbortSignal): Promise<SlotSearchResponse> {
      return await client.call(searchSlots, { body, signal });
    },
    /** One technician's day as the dispatch board reads it (the "Why not…?" drawing). */
    async technicianDay(
      technicianCode: string,
      period: { start: string; end: string },
      signal?: AbortSignal,
    ): Promise<BoardTechnician | null> {
      const page = await client.call(readBoard, { query: { ...period, q: technicianCode }, signal });
      return page.data.find((r) => r.technicianCode === technicianCode) ?? null;
    },
    async needs(workOrderCode: string, signal?: AbortSignal): Promise<WorkOrderNeeds> {
      return await client.call(getWorkOrderNeeds, { params: { workOrderCode }, signal });
    },
    async schedule(workOrderCode: string, body: ScheduleBody): Promise<void> {
      await client.request(scheduleByCode, { params: { workOrderCode }, body });
    },
    async getSchedule(workOrderCode: string, signal?: AbortSignal): Promise<WorkOrderSchedule> {
      return await client.call(getScheduleByCode, { params: { workOrderCode }, signal });
    },
    /** Work orders still to do of the caller's tree whose code starts with `q` (the picker's choices). */
    async findWorkOrders(q: string, signal?: AbortSignal): Promise<WorkOrder[]> {
      const page = await client.call(listWorkOrders, {
        query: { q: q || undefined, status: TO_PLAN },
        signal,
      });
      return page.data;
    },
    /**
     * The work orders booked on a technician (still to do, with a schedule): the first
     * BOOKING_PAGES pages of the work order list filtered on the technician.
     */
    async technicianWorkOrders(technicianCode: string, signal?: AbortSignal): Promise<WorkOrder[]> {
      const out: WorkOrder[] = [];
      let pages = 0;
      for await (const page of client.pages(listWorkOrders, {
        query: { technicianCode, status: TO_PLAN },
        signal,
      })) {
        out.push(...page.data.filter((w) => w.schedule.scheduledStart));
        if (++pages >= BOOKING_PAGES) break;
      }
      return out;
    },
    async crews(
      q: { from: string; to: string; continuationToken?: string },
      signal?: AbortSignal,
    ): Promise<Page<Crew>> {
      return await client.call(listCrews, {
        query: {
          crewsStartDate: q.from,
          crewsEndDate: q.to,
          crewsSize: String(CREWS_PAGE),
          continuationToken: q.continuationToken,
        },
        signal,
      });
    },
    /** The flags and notes of a work order (diagnostic extension). */
    async diagnostic(workOrderCode: string, signal?: AbortSignal): Promise<WorkOrderDiagnostic> {
      return await client.call(getDiagnosticByCode, { params: { workOrderCode }, signal });
    },
    async putFlags(workOrderCode: string, body: FlagsBody): Promise<void> {
      await client.request(putFlagsByCode, { params: { workOrderCode }, body });
    },
    async putNote(workOrderCode: string, noteCode: string, body: NoteBody): Promise<void> {
      await client.request(putNoteByCode, { params: { workOrderCode, noteCode }, body });
    },
    flags: (signal?: AbortSignal) => all(client.pages(listFlags, { signal })),
    workOrderTypes: (signal?: AbortSignal) => all(client.pages(listWorkOrderTypes, { signal })),
    offices: (signal?: AbortSignal) => all(client.pages(listOffices, { signal })),
    areas: (signal?: AbortSignal) => all(client.pages(listAreas, { signal })),
    skills: (signal?: AbortSignal) => all(client.pages(listSkills, { signal })),
  };
}
export type PlanningApi = ReturnType<typeof planningApi>;
