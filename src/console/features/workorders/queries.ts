/**
 * TanStack Query hooks of the Work orders pages and the keys a write invalidates. All HTTP
 * goes through `useWorkordersApi()` (./transport.ts over the console's client).
 */
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useMemo } from 'react';
import { statusOf } from '../../../client/index.ts';
import { useApi } from '../../app/api.ts';
import { nextPageToken, readAll } from '../../app/pages.ts';
import { invalidateShellFigures } from '../../app/queryClient.ts';
import { dayPeriod } from './model.ts';
import {
  type ActivityFilters,
  type UsedItemFilters,
  type WorkOrderListQuery,
  type WorkOrderRef,
  type WorkordersApi,
  workordersApi,
} from './transport.ts';

export function useWorkordersApi(): WorkordersApi {
  const client = useApi();
  return useMemo(() => workordersApi(client), [client]);
}

const refKey = (ref: WorkOrderRef) => [
  ref.by,
  ref.by === 'code' ? ref.id.toUpperCase() : ref.id.toLowerCase(),
];

export const workordersKeys = {
  all: ['workorders'] as const,
  list: (q: WorkOrderListQuery) => ['workorders', 'list', q] as const,
  /** Every work order read: one is cached under its code and under its uuid. */
  ones: ['workorders', 'one'] as const,
  one: (ref: WorkOrderRef) => ['workorders', 'one', ...refKey(ref)] as const,
  activities: (ref: WorkOrderRef, f: ActivityFilters) =>
    ['workorders', 'activities', ...refKey(ref), f] as const,
  activityTotals: (ref: WorkOrderRef, f: ActivityFilters) =>
    ['workorders', 'activityTotals', ...refKey(ref), f] as const,
  usedItems: (ref: WorkOrderRef, f: UsedItemFilters) =>
    ['workorders', 'usedItems', ...refKey(ref), f] as const,
  usedItemTotals: (ref: WorkOrderRef, f: UsedItemFilters) =>
    ['workorders', 'usedItemTotals', ...refKey(ref), f] as const,
  technicians: (q: object) => ['workorders', 'technicians', q] as const,
  technician: (code: string) => ['workorders', 'technician', code.toUpperCase()] as const,
  positions: (code: string, day: string) => ['workorders', 'positions', code.toUpperCase(), day] as const,
  positionsSpan: (code: string) => ['workorders', 'positionsSpan', code.toUpperCase()] as const,
};

/** Not worth retrying: the answer will be the same. */
export const noRetry4xx = (n: number, e: unknown) => {
  const status = statusOf(e);
  return !(status && status >= 400 && status < 500) && n < 2;
};

export function useWorkOrder(ref: WorkOrderRef) {
  const api = useWorkordersApi();
  return useQuery({
    queryKey: workordersKeys.one(ref),
    queryFn: ({ signal }) => api.workOrder(ref, signal),
    retry: noRetry4xx,
  });
}

export function useActivities(ref: WorkOrderRef, filters: ActivityFilters) {
  const api = useWorkordersApi();
  return useInfiniteQuery({
    queryKey: workordersKeys.activities(ref, filters),
    queryFn: ({ pageParam, signal }) =>
      api.activities(ref, { ...filters, continuationToken: pageParam }, signal),
    initialPageParam: undefined,
    getNextPageParam: nextPageToken,
    retry: noRetry4xx,
    staleTime: 60_000,
    // Pages never change once read: comparing the loaded rows with the new ones at every page
    // (structural sharing) would cost more the further the reader goes.
    structuralSharing: false,
  });
}

export function useActivityTotals(ref: WorkOrderRef, filters: ActivityFilters) {
  const api = useWorkordersApi();
  return useQuery({
    queryKey: workordersKeys.activityTotals(ref, filters),
    queryFn: ({ signal }) => api.activityTotals(ref, filters, signal),
    placeholderData: keepPreviousData,
    retry: noRetry4xx,
    staleTime: 60_000,
  });
}

/** Used items are read 200 a page (the largest page the endpoint allows). */
export const USED_ITEMS_PAGE = 200;

export function useUsedItems(ref: WorkOrderRef, filters: UsedItemFilters) {
  const api = useWorkordersApi();
  return useInfiniteQuery({
    queryKey: workordersKeys.usedItems(ref, filters),
    queryFn: ({ pageParam, signal }) =>
      api.usedItems(ref, { ...filters, pageSize: USED_ITEMS_PAGE, continuationToken: pageParam }, signal),
    initialPageParam: undefined,
    getNextPageParam: nextPageToken,
    retry: noRetry4xx,
    staleTime: 60_000,
    // Pages never change once read: comparing the loaded rows with the new ones at every page
    // (structural sharing) would cost more the further the reader goes.
    structuralSharing: false,
  });
}

export function useUsedItemTotals(ref: WorkOrderRef, filters: UsedItemFilters) {
  const api = useWorkordersApi();
  return useQuery({
    queryKey: workordersKeys.usedItemTotals(ref, filters),
    queryFn: ({ signal }) => api.usedItemTotals(ref, filters, signal),
    placeholderData: keepPreviousData,
    retry: noRetry4xx,
    staleTime: 60_000,
  });
}

export function useValidateWorkOrder(ref: WorkOrderRef) {
  const api = useWorkordersApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.validate(ref),
    // The page may have read it by code while the action names it by uuid.
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: workordersKeys.ones }),
        qc.invalidateQueries({ queryKey: ['workorders', 'list'] }),
      ]),
  });
}

export function useDeleteWorkOrder(ref: WorkOrderRef) {
  const api = useWorkordersApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.remove(ref),
    onSuccess: () => {
      qc.removeQueries({ queryKey: workordersKeys.ones });
      return Promise.all([
        qc.invalidateQueries({ queryKey: ['workorders', 'list'] }),
        invalidateShellFigures(qc),
      ]);
    },
  });
}

export function useTechnician(code: string) {
  const api = useWorkordersApi();
  return useQuery({
    queryKey: workordersKeys.technician(code),
    queryFn: ({ signal }) => api.technician(code, signal),
    retry: noRetry4xx,
  });
}

/** Every position of the technician on a UTC day (pages of 500, read in a row). */
export function useDayPositions(code: string, day: string) {
  const api = useWorkordersApi();
  return useQuery({
    queryKey: workordersKeys.positions(code, day),
    queryFn: ({ signal }) =>
      readAll((token) => api.positions(code, { ...dayPeriod(day), continuationToken: token }, signal), {
        signal,
      }),
    placeholderData: keepPreviousData,
    retry: noRetry4xx,
    staleTime: 60_000,
  });
}

/**
 * The UTC day of the technician's last position (extension; null without any, undefined while
 * unknown, or when the instance lacks the extension: the page then has no such control).
 */
export function useLastPositionDay(code: string) {
  const api = useWorkordersApi();
  return useQuery({
    queryKey: workordersKeys.positionsSpan(code),
    queryFn: ({ signal }) => api.positionsSpan(code, signal),
    select: (span) => span.lastTimestamp?.slice(0, 10) ?? null,
    retry: noRetry4xx,
    staleTime: 60_000,
  });
}

/** Activity type names by code (a few; read once). */
export function useActivityTypeNames() {
  const api = useWorkordersApi();
  return useQuery({
    queryKey: ['workorders', 'activityTypes'],
    queryFn: async ({ signal }) =>
      new Map((await api.activityTypes(signal)).map((t) => [t.activityTypeCode, t.name])),
    staleTime: 10 * 60_000,
  });
}

export function useWorkOrderTypes() {
  const api = useWorkordersApi();
  return useQuery({
    queryKey: ['workorders', 'types'],
    queryFn: ({ signal }) => api.workOrderTypes(signal),
    staleTime: 10 * 60_000,
  });
}
