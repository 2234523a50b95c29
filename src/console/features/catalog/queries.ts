/**
 * TanStack Query hooks of the Catalog pages and the keys a write invalidates. All HTTP goes
 * through `useCatalogApi()` (./transport.ts over the console's client).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { statusOf } from '../../../client/index.ts';
import { useApi } from '../../app/api.ts';
import { invalidateShellFigures } from '../../app/queryClient.ts';
import { type CatalogApi, catalogApi, type ItemsQuery } from './transport.ts';

/** The catalog's calls over the signed-in session's client. */
export function useCatalogApi(): CatalogApi {
  const client = useApi();
  return useMemo(() => catalogApi(client), [client]);
}

export const catalogKeys = {
  all: ['catalog'] as const,
  items: ['catalog', 'items'] as const,
  itemLists: ['catalog', 'items', 'list'] as const,
  itemList: (q: ItemsQuery) => ['catalog', 'items', 'list', q] as const,
  item: (code: string) => ['catalog', 'items', 'record', code.toUpperCase()] as const,
  categories: ['catalog', 'items', 'categories'] as const,
  definitions: ['catalog', 'items', 'customFieldDefinitions'] as const,
  skills: ['catalog', 'skills'] as const,
  characteristics: ['catalog', 'characteristics'] as const,
};

/** The item and its version (ETag), shared by the item page and its form. */
export function useItem(code: string | undefined) {
  const api = useCatalogApi();
  return useQuery({
    queryKey: catalogKeys.item(code ?? ''),
    queryFn: ({ signal }) => api.getItem(code ?? '', signal),
    enabled: !!code,
    retry: (n, e) => statusOf(e) !== 404 && n < 2,
  });
}

export function useItemCategories() {
  const api = useCatalogApi();
  return useQuery({
    queryKey: catalogKeys.categories,
    queryFn: () => api.itemCategories(),
    staleTime: 60_000,
  });
}

export function useItemDefinitions() {
  const api = useCatalogApi();
  return useQuery({
    queryKey: catalogKeys.definitions,
    queryFn: () => api.itemDefinitions(),
    staleTime: 5 * 60_000,
    retry: 1,
  });
}

/** What a write to one item can change: itself, every list, the categories. */
export function useInvalidateItem() {
  const qc = useQueryClient();
  return (code?: string) =>
    Promise.all([
      code
        ? qc.invalidateQueries({ queryKey: catalogKeys.item(code) })
        : qc.invalidateQueries({ queryKey: catalogKeys.items }),
      qc.invalidateQueries({ queryKey: catalogKeys.itemLists }),
      qc.invalidateQueries({ queryKey: catalogKeys.categories }),
      invalidateShellFigures(qc, 'none'),
    ]);
}
