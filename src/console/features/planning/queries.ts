/**
 * TanStack Query hooks of the planning pages and the keys a schedule invalidates. All HTTP
 * goes through `usePlanningApi()` (./transport.ts over the console's client).
 */
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useMemo } from 'react';
import { statusOf } from '../../../client/index.ts';
import type { FlagsBody, NoteBody } from '../../../contract/diagnostic.ts';
import type { WorkOrder } from '../../../contract/fieldService.ts';
import type { ScheduleBody } from '../../../contract/scheduling.ts';
import type { SlotSearchSent } from '../../../contract/slots.ts';
import { useApi } from '../../app/api.ts';
import { nextPageToken } from '../../app/pages.ts';
import { type PlanningApi, planningApi } from './transport.ts';

export function usePlanningApi(): PlanningApi {
  const client = useApi();
  return useMemo(() => planningApi(client), [client]);
}

export const planningKeys = {
  all: ['planning'] as const,
  slots: ['planning', 'slots'] as const,
  search: (body: SlotSearchSent) => ['planning', 'slots', body] as const,
  needs: (code: string) => ['planning', 'needs', code.toUpperCase()] as const,
  schedule: (code: string) => ['planning', 'schedule', code.toUpperCase()] as const,
  workOrderLists: ['planning', 'workOrders'] as const,
  workOrders: (q: string) => ['planning', 'workOrders', q] as const,
  crews: (from: string, to: string) => ['planning', 'crews', from, to] as const,
  bookingLists: ['planning', 'bookings'] as const,
  bookings: (technicianCode: string) => ['planning', 'bookings', technicianCode] as const,
  reference: (what: string) => ['planning', 'reference', what] as const,
  diagnostic: (code: string) => ['planning', 'diagnostic', code.toUpperCase()] as const,
  technicianDay: (code: string, start: string, end: string) => ['planning', 'day', code, start, end] as const,
};

/** A refusal (4xx) is the answer, not a failure worth retrying. */
const retryUnlessRefused = (count: number, e: unknown) => {
  const status = statusOf(e);
  return !(typeof status === 'number' && status >= 400 && status < 500) && count < 2;
};

/** The slot search of the URL's inputs (null: no search asked). */
export function useSlotSearch(body: SlotSearchSent | null) {
  const api = usePlanningApi();
  return useQuery({
    queryKey: planningKeys.search(body ?? {}),
    queryFn: ({ signal }) => api.searchSlots(body ?? {}, signal),
    enabled: body !== null,
    retry: retryUnlessRefused,
    staleTime: 30_000,
  });
}

/** A technician's day (working hours, absences, work orders), for the "Why not…?" drawing. */
export function useTechnicianDay(code: string | null, period: { start: string; end: string } | null) {
  const api = usePlanningApi();
  return useQuery({
    queryKey: planningKeys.technicianDay(code ?? '', period?.start ?? '', period?.end ?? ''),
    queryFn: ({ signal }) => api.technicianDay(code ?? '', period ?? { start: '', end: '' }, signal),
    enabled: !!code && !!period,
    retry: retryUnlessRefused,
    staleTime: 30_000,
  });
}

export function useNeeds(code: string | undefined) {
  const api = usePlanningApi();
  return useQuery({
    queryKey: planningKeys.needs(code ?? ''),
    queryFn: ({ signal }) => api.needs(code ?? '', signal),
    enabled: !!code,
    retry: retryUnlessRefused,
    staleTime: 60_000,
  });
}

/** The scheduling data of the work order (who, when), read again after a schedule. */
export function useSchedule(code: string | undefined) {
  const api = usePlanningApi();
  return useQuery({
    queryKey: planningKeys.schedule(code ?? ''),
    queryFn: ({ signal }) => api.getSchedule(code ?? '', signal),
    enabled: !!code,
    retry: retryUnlessRefused,
  });
}

/** The picker's choices: work orders whose code contains the text typed. */
export function useWorkOrderChoices(q: string, enabled: boolean) {
  const api = usePlanningApi();
  return useQuery({
    queryKey: planningKeys.workOrders(q),
    queryFn: ({ signal }) => api.findWorkOrders(q, signal),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

const REFERENCE = { staleTime: 5 * 60_000, retry: 1 } as const;

export function useWorkOrderTypes() {
  const api = usePlanningApi();
  return useQuery({
    queryKey: planningKeys.reference('types'),
    queryFn: ({ signal }) => api.workOrderTypes(signal),
    ...REFERENCE,
  });
}
export function useOffices() {
  const api = usePlanningApi();
  return useQuery({
    queryKey: planningKeys.reference('offices'),
    queryFn: ({ signal }) => api.offices(signal),
    ...REFERENCE,
  });
}
export function useAreas() {
  const api = usePlanningApi();
  return useQuery({
    queryKey: planningKeys.reference('areas'),
    queryFn: ({ signal }) => api.areas(signal),
    ...REFERENCE,
  });
}
export function useSkills() {
  const api = usePlanningApi();
  return useQuery({
    queryKey: planningKeys.reference('skills'),
    queryFn: ({ signal }) => api.skills(signal),
    ...REFERENCE,
  });
}

/** The answers together (stable while they do not change: the function is module-level). */
function everyWorkOrder(results: { data?: WorkOrder[] }[]): WorkOrder[] {
  return results.flatMap((r) => r.data ?? []);
}

/** Technicians whose booked work orders a timeline reads, at most (the rows seen first). */
export const MAX_BOOKED_TECHNICIANS = 60;

/**
 * The work orders booked on these technicians (one list request each, in parallel), for the
 * timeline's first lane. A service without the work order list shows none (no error).
 */
export function useBookedWorkOrders(technicianCodes: readonly string[], enabled: boolean): WorkOrder[] {
  const api = usePlanningApi();
  return useQueries({
    combine: everyWorkOrder,
    queries: technicianCodes.slice(0, MAX_BOOKED_TECHNICIANS).map((code) => ({
      queryKey: planningKeys.bookings(code),
      queryFn: ({ signal }: { signal: AbortSignal }) => api.technicianWorkOrders(code, signal),
      enabled,
      staleTime: 30_000,
      retry: retryUnlessRefused,
    })),
  });
}

/** Schedules a work order; then its scheduling data and every search are read again. */
export function useScheduleWorkOrder() {
  const api = usePlanningApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ code, body }: { code: string; body: ScheduleBody }) => api.schedule(code, body),
    onSuccess: (_r, { code }) =>
      Promise.all([
        qc.invalidateQueries({ queryKey: planningKeys.schedule(code) }),
        qc.invalidateQueries({ queryKey: planningKeys.needs(code) }),
        qc.invalidateQueries({ queryKey: planningKeys.slots }),
        qc.invalidateQueries({ queryKey: planningKeys.workOrderLists }),
        qc.invalidateQueries({ queryKey: planningKeys.bookingLists }),
      ]),
  });
}

/** The crews over a period, page after page (continuationToken). */
export function useCrews(from: string, to: string, enabled: boolean) {
  const api = usePlanningApi();
  return useInfiniteQuery({
    queryKey: planningKeys.crews(from, to),
    queryFn: ({ pageParam, signal }) => api.crews({ from, to, continuationToken: pageParam }, signal),
    initialPageParam: undefined,
    getNextPageParam: nextPageToken,
    enabled,
    retry: retryUnlessRefused,
    placeholderData: keepPreviousData,
  });
}

/** The flags and notes of a work order. */
export function useDiagnostic(code: string) {
  const api = usePlanningApi();
  return useQuery({
    queryKey: planningKeys.diagnostic(code),
    queryFn: ({ signal }) => api.diagnostic(code, signal),
    retry: retryUnlessRefused,
  });
}

/** Every flag a work order may carry (the choices of the flags input). */
export function useFlags() {
  const api = usePlanningApi();
  return useQuery({
    queryKey: planningKeys.reference('flags'),
    queryFn: ({ signal }) => api.flags(signal),
    ...REFERENCE,
  });
}

/** Replaces the flags of a work order; its diagnostic is read again. */
export function usePutFlags(code: string) {
  const api = usePlanningApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: FlagsBody) => api.putFlags(code, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: planningKeys.diagnostic(code) }),
  });
}

/** Creates or replaces a note of a work order; its diagnostic is read again. */
export function usePutNote(code: string) {
  const api = usePlanningApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ noteCode, body }: { noteCode: string; body: NoteBody }) =>
      api.putNote(code, noteCode, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: planningKeys.diagnostic(code) }),
  });
}
