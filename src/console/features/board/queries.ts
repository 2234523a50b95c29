/**
 * TanStack Query hooks of the board. The rows are one infinite query per period and
 * filters (a page of 100 technicians a call, read as the grid scrolls: one call per window,
 * never one per row); a drop reloads only the rows it touched, written into those pages.
 */
import {
  type InfiniteData,
  keepPreviousData,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { statusOf } from '../../../client/index.ts';
import type { Page } from '../../../contract/common.ts';
import type { BoardTechnician } from '../../../contract/slots.ts';
import { useApi } from '../../app/api.ts';
import { type BoardApi, type BoardFilters, boardApi, type Period, type QueueFilters } from './transport.ts';

export function useBoardApi(): BoardApi {
  const client = useApi();
  return useMemo(() => boardApi(client), [client]);
}

export const boardKeys = {
  rows: (period: Period, filters: BoardFilters) =>
    ['board', 'rows', period.start, period.end, filters] as const,
  queue: ['board', 'queue'] as const,
  queueOf: (filters: QueueFilters) => ['board', 'queue', filters] as const,
  check: (workOrderCode: string, technicianCode: string, start: number) =>
    ['board', 'check', workOrderCode, technicianCode, start] as const,
  reference: (what: string) => ['board', 'reference', what] as const,
};

/** A refusal (4xx) is the answer, not a failure worth retrying. */
export const retryUnlessRefused = (count: number, e: unknown) => {
  const status = statusOf(e);
  return !(typeof status === 'number' && status >= 400 && status < 500) && count < 2;
};

/** The next page's token; typed, so the queries infer their page param (`string | undefined`). */
const nextBoardToken = (last: Page<unknown>): string | undefined => last.continuationToken ?? undefined;

export function useBoardRows(period: Period, filters: BoardFilters) {
  const api = useBoardApi();
  return useInfiniteQuery({
    queryKey: boardKeys.rows(period, filters),
    queryFn: ({ pageParam, signal }) => api.boardPage(period, filters, pageParam, signal),
    initialPageParam: undefined,
    getNextPageParam: nextBoardToken,
    placeholderData: keepPreviousData,
    retry: retryUnlessRefused,
    staleTime: 30_000,
  });
}

/**
 * Reads the technicians a drop touched again and writes them into the loaded pages (a row
 * the filters no longer show stays as it was until the next full read).
 */
export function useReloadRows(period: Period, filters: BoardFilters) {
  const api = useBoardApi();
  const client = useQueryClient();
  return useCallback(
    async (technicianCodes: readonly string[]) => {
      const fresh = await Promise.all(
        [...new Set(technicianCodes)].map((code) => api.boardRow(period, filters, code)),
      );
      const byCode = new Map(fresh.filter((r) => r !== null).map((r) => [r.technicianCode, r]));
      client.setQueryData<InfiniteData<Page<BoardTechnician>>>(boardKeys.rows(period, filters), (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((p) => ({
                ...p,
                data: p.data.map((r) => byCode.get(r.technicianCode) ?? r),
              })),
            }
          : data,
      );
    },
    [api, client, period, filters],
  );
}

export function useQueue(filters: QueueFilters) {
  const api = useBoardApi();
  return useInfiniteQuery({
    queryKey: boardKeys.queueOf(filters),
    queryFn: ({ pageParam, signal }) => api.queuePage(filters, pageParam, signal),
    initialPageParam: undefined,
    getNextPageParam: nextBoardToken,
    placeholderData: keepPreviousData,
    retry: retryUnlessRefused,
  });
}

/** Would the work order fit there? Asked once per target (the caller debounces the target). */
export function useCheck(target: { workOrderCode: string; technicianCode: string; start: number } | null) {
  const api = useBoardApi();
  return useQuery({
    queryKey: target
      ? boardKeys.check(target.workOrderCode, target.technicianCode, target.start)
      : ['board', 'check', 'none'],
    queryFn: ({ signal }) =>
      target ? api.check(target.workOrderCode, target.technicianCode, target.start, signal) : null,
    enabled: target !== null,
    retry: retryUnlessRefused,
    staleTime: 15_000,
  });
}

function useReference<T>(what: string, load: (signal: AbortSignal) => Promise<T[]>) {
  return useQuery({
    queryKey: boardKeys.reference(what),
    queryFn: ({ signal }) => load(signal),
    staleTime: 5 * 60_000,
  });
}
export function useReferences() {
  const api = useBoardApi();
  return {
    offices: useReference('offices', api.offices),
    skills: useReference('skills', api.skills),
    areas: useReference('areas', api.areas),
    types: useReference('types', api.workOrderTypes),
  };
}
