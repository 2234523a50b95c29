/**
 * The one adapter between the Work orders pages and HTTP: every call the pages make, each one
 * row of the contract's endpoint tables (src/contract/fieldService.ts, fieldTracking.ts,
 * rostering.ts) through the typed client. A work order is named by code or by uuid
 * (`WorkOrderRef`): the `code:` or the `uuid:` row of the same endpoint.
 */
import type { Client } from '../../../client/index.ts';
import type { Page } from '../../../contract/common.ts';
import {
  deleteWorkOrderByCode,
  deleteWorkOrderByUuid,
  getWorkOrderByCode,
  getWorkOrderByUuid,
  type InvoiceMode,
  listUsedItemsByCode,
  listUsedItemsByUuid,
  listWorkOrders,
  listWorkOrderTypes,
  type UsedItem,
  type UsedItemTotals,
  usedItemTotalsByCode,
  usedItemTotalsByUuid,
  validateWorkOrderByCode,
  validateWorkOrderByUuid,
  type WorkOrder,
  type WorkOrderType,
} from '../../../contract/fieldService.ts';
import {
  type Activity,
  type ActivityTotals,
  activityTotalsByCode,
  activityTotalsByUuid,
  type InvoicingStatus,
  listActivitiesByCode,
  listActivitiesByUuid,
  listActivityTypes,
  listPositions,
  type Position,
  type PositionsSpan,
  positionsSpan,
  type ValidationStatus,
} from '../../../contract/fieldTracking.ts';
import { getTechnician, listTechnicians, type Technician } from '../../../contract/rostering.ts';

/** The rows of the work order's actions (by uuid, as the page sends them): what Validate and Delete ask for (app/permissions.ts). */
export const writeRows = { validate: validateWorkOrderByUuid, remove: deleteWorkOrderByUuid } as const;

export type {
  Activity,
  ActivityTotals,
  InvoiceMode,
  InvoicingStatus,
  Position,
  Technician,
  UsedItem,
  UsedItemTotals,
  ValidationStatus,
  WorkOrder,
  WorkOrderType,
};

/** How a page names its work order. */
export type WorkOrderRef = { by: 'code' | 'uuid'; id: string };

export interface WorkOrderListQuery {
  q?: string;
  status?: string;
  workOrderTypeCode?: string;
  officeCode?: string;
  technicianCode?: string;
}
export interface ActivityFilters {
  validationStatus: ValidationStatus;
  invoicingStatus: InvoicingStatus;
}
export interface UsedItemFilters {
  invoiceMode: InvoiceMode | 'all';
}

const code = (ref: WorkOrderRef) => ({ workOrderCode: ref.id });
const uuid = (ref: WorkOrderRef) => ({ workOrderUuid: ref.id });

export function workordersApi(client: Client) {
  return {
    async workOrders(
      query: WorkOrderListQuery & { continuationToken?: string },
      signal?: AbortSignal,
    ): Promise<Page<WorkOrder>> {
      return await client.call(listWorkOrders, { query, signal });
    },
    async workOrder(ref: WorkOrderRef, signal?: AbortSignal): Promise<WorkOrder> {
      return ref.by === 'code'
        ? await client.call(getWorkOrderByCode, { params: code(ref), signal })
        : await client.call(getWorkOrderByUuid, { params: uuid(ref), signal });
    },
    /** 204: status VALIDATED. */
    async validate(ref: WorkOrderRef): Promise<void> {
      if (ref.by === 'code') await client.call(validateWorkOrderByCode, { params: code(ref) });
      else await client.call(validateWorkOrderByUuid, { params: uuid(ref) });
    },
    /** 204: the work order and what belongs to it are gone. */
    async remove(ref: WorkOrderRef): Promise<void> {
      if (ref.by === 'code') await client.call(deleteWorkOrderByCode, { params: code(ref) });
      else await client.call(deleteWorkOrderByUuid, { params: uuid(ref) });
    },
    /** One page of 200 activities by start time (keyset). */
    async activities(
      ref: WorkOrderRef,
      query: ActivityFilters & { continuationToken?: string },
      signal?: AbortSignal,
    ): Promise<Page<Activity>> {
      return ref.by === 'code'
        ? await client.call(listActivitiesByCode, { params: code(ref), query, signal })
        : await client.call(listActivitiesByUuid, { params: uuid(ref), query, signal });
    },
    async activityTotals(
      ref: WorkOrderRef,
      query: ActivityFilters,
      signal?: AbortSignal,
    ): Promise<ActivityTotals> {
      return ref.by === 'code'
        ? await client.call(activityTotalsByCode, { params: code(ref), query, signal })
        : await client.call(activityTotalsByUuid, { params: uuid(ref), query, signal });
    },
    /** One page of used items, latest update first (pageSize 1..200). */
    async usedItems(
      ref: WorkOrderRef,
      query: UsedItemFilters & { continuationToken?: string; pageSize?: number },
      signal?: AbortSignal,
    ): Promise<Page<UsedItem>> {
      const q = {
        invoiceMode: query.invoiceMode,
        continuationToken: query.continuationToken,
        pageSize: query.pageSize === undefined ? undefined : String(query.pageSize),
      };
      return ref.by === 'code'
        ? await client.call(listUsedItemsByCode, { params: code(ref), query: q, signal })
        : await client.call(listUsedItemsByUuid, { params: uuid(ref), query: q, signal });
    },
    async usedItemTotals(
      ref: WorkOrderRef,
      query: UsedItemFilters,
      signal?: AbortSignal,
    ): Promise<UsedItemTotals> {
      return ref.by === 'code'
        ? await client.call(usedItemTotalsByCode, { params: code(ref), query, signal })
        : await client.call(usedItemTotalsByUuid, { params: uuid(ref), query, signal });
    },
    async technicians(
      query: { q?: string; officeCode?: string; continuationToken?: string },
      signal?: AbortSignal,
    ): Promise<Page<Technician>> {
      const page = await client.call(listTechnicians, { query, signal });
      return { data: page.data, continuationToken: page.continuationToken };
    },
    async technician(technicianCode: string, signal?: AbortSignal): Promise<Technician> {
      return await client.call(getTechnician, { params: { technicianCode }, signal });
    },
    /** One page of 500 positions by timestamp, in [start, end). */
    async positions(
      technicianCode: string,
      query: { positionsStartDate: string; positionsEndDate: string; continuationToken?: string },
      signal?: AbortSignal,
    ): Promise<Page<Position>> {
      return await client.call(listPositions, { params: { technicianCode }, query, signal });
    },
    /** Extension: the first and last positions' timestamps (both null without any). */
    async positionsSpan(technicianCode: string, signal?: AbortSignal): Promise<PositionsSpan> {
      return await client.call(positionsSpan, { params: { technicianCode }, signal });
    },
    async activityTypes(signal?: AbortSignal) {
      return (await client.call(listActivityTypes, { signal })).data;
    },
    async workOrderTypes(signal?: AbortSignal): Promise<WorkOrderType[]> {
      return (await client.call(listWorkOrderTypes, { signal })).data;
    },
  };
}
export type WorkordersApi = ReturnType<typeof workordersApi>;
