/**
 * TanStack Query hooks of the Project management pages and the keys a link invalidates. All
 * HTTP goes through `useProjectsApi()` (./transport.ts over the console's client).
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { statusOf } from '../../../client/index.ts';
import { useApi } from '../../app/api.ts';
import { invalidateShellFigures } from '../../app/queryClient.ts';
import type { ServiceOrderKind } from './paths.ts';
import { type ProjectsApi, projectsApi } from './transport.ts';

export function useProjectsApi(): ProjectsApi {
  const client = useApi();
  return useMemo(() => projectsApi(client), [client]);
}

export const projectKeys = {
  all: ['projectManagement'] as const,
  projectLists: ['projectManagement', 'projects', 'list'] as const,
  projectList: (q?: string) => ['projectManagement', 'projects', 'list', q ?? ''] as const,
  project: (code: string) => ['projectManagement', 'projects', 'record', code.toUpperCase()] as const,
  serviceOrderLists: (kind: ServiceOrderKind) => ['projectManagement', kind, 'list'] as const,
  serviceOrderList: (kind: ServiceOrderKind, q?: string) =>
    ['projectManagement', kind, 'list', q ?? ''] as const,
  serviceOrder: (kind: ServiceOrderKind, code: string) =>
    ['projectManagement', kind, 'record', code.toUpperCase()] as const,
  workOrderSearch: (q: string) => ['projectManagement', 'workOrders', q.toUpperCase()] as const,
};

const notFound = (e: unknown) => statusOf(e) === 404;

export function useProject(code: string) {
  const api = useProjectsApi();
  return useQuery({
    queryKey: projectKeys.project(code),
    queryFn: ({ signal }) => api.getProject(code, signal),
    retry: (n, e) => !notFound(e) && n < 2,
  });
}

export function useServiceOrder(kind: ServiceOrderKind, code: string) {
  const api = useProjectsApi();
  return useQuery({
    queryKey: projectKeys.serviceOrder(kind, code),
    queryFn: ({ signal }) => api.getServiceOrder(kind, code, signal),
    retry: (n, e) => !notFound(e) && n < 2,
  });
}

/** The linker's search: work orders whose code contains the text (from 2 characters). */
export function useWorkOrderSearch(q: string) {
  const api = useProjectsApi();
  const text = q.trim();
  return useQuery({
    queryKey: projectKeys.workOrderSearch(text),
    queryFn: ({ signal }) => api.searchWorkOrders(text, signal),
    enabled: text.length >= 2,
    staleTime: 5_000,
    placeholderData: keepPreviousData,
  });
}

/**
 * After a link: what it can change (the containers' records, every list's counts, where
 * work orders sit). The record shown is refetched and awaited, so the page shows the
 * service's order before the optimistic one is dropped.
 */
export function useInvalidateLinks() {
  const qc = useQueryClient();
  return (shown: readonly unknown[]) =>
    Promise.all([
      qc.invalidateQueries({ queryKey: shown }),
      qc.invalidateQueries({
        queryKey: projectKeys.all,
        predicate: (q) => JSON.stringify(q.queryKey) !== JSON.stringify(shown),
        refetchType: 'none',
      }),
      invalidateShellFigures(qc, 'none'),
    ]);
}
