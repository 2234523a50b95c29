/**
 * TanStack Query hooks of the Referentials pages: reads (record, list pages, custom-field
 * definitions, offices), writes (PUT create-or-update), and the query keys they
 * invalidate. All HTTP goes through `useRefApi()` (./transport.ts), the one adapter over
 * the typed client.
 */
import {
  type InfiniteData,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { CustomFieldDefinition } from '../../../contract/common.ts';
import { type ListQuery, type Office, useRefApi } from './transport.ts';
import {
  codeOf,
  type EntityBody,
  type EntityRecord,
  type ListItem,
  type ReferentialEntity,
} from './types.ts';

export const refKeys = {
  all: ['referentials'] as const,
  entity: (e: ReferentialEntity) => ['referentials', e] as const,
  record: (e: ReferentialEntity, code: string) => ['referentials', e, 'record', code.toUpperCase()] as const,
  lists: (e: ReferentialEntity) => ['referentials', e, 'list'] as const,
  list: (e: ReferentialEntity, q: ListQuery) => ['referentials', e, 'list', q] as const,
  definitions: (e: ReferentialEntity) => ['referentials', 'customFieldDefinitions', e] as const,
  offices: ['referentials', 'offices'] as const,
};

export function useRecord<E extends ReferentialEntity>(entity: E, code: string | undefined) {
  const refApi = useRefApi();
  return useQuery({
    queryKey: refKeys.record(entity, code ?? ''),
    queryFn: ({ signal }) => refApi.get(entity, code ?? '', signal) as Promise<EntityRecord<E>>,
    enabled: !!code,
  });
}

/** Infinite list over the list extension (keyset pages, `continuationToken`). */
export function useInfiniteList<E extends ReferentialEntity>(entity: E, query: ListQuery, enabled = true) {
  const refApi = useRefApi();
  return useInfiniteQuery({
    queryKey: refKeys.list(entity, query),
    queryFn: ({ pageParam, signal }) =>
      refApi.list(entity, { ...query, continuationToken: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.continuationToken || undefined,
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function flattenPages<T>(data: InfiniteData<{ data: T[] }> | undefined): T[] {
  return data?.pages.flatMap((p) => p.data) ?? [];
}

/** First page only: pickers' suggestions and children lists. */
export function useListPage<E extends ReferentialEntity>(entity: E, query: ListQuery, enabled = true) {
  const refApi = useRefApi();
  return useQuery({
    queryKey: [...refKeys.list(entity, query), 'first'],
    queryFn: ({ signal }) =>
      refApi.list(entity, query, signal) as Promise<{
        data: ListItem<E>[];
        continuationToken: string | null;
      }>,
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

export function useDefinitions(entity: ReferentialEntity) {
  const refApi = useRefApi();
  return useQuery({
    queryKey: refKeys.definitions(entity),
    queryFn: async ({ signal }): Promise<CustomFieldDefinition[]> => refApi.definitions(entity, signal),
    staleTime: 5 * 60_000,
  });
}

export function useOffices() {
  const refApi = useRefApi();
  return useQuery({
    queryKey: refKeys.offices,
    queryFn: async ({ signal }): Promise<Office[]> => refApi.offices(signal),
    staleTime: 5 * 60_000,
  });
}

/** Invalidates what a write to one record can change: itself, every list of its entity. */
export function useInvalidateAfterWrite() {
  const qc = useQueryClient();
  return async (entity: ReferentialEntity, code: string) => {
    await Promise.all([
      qc.invalidateQueries({ queryKey: refKeys.record(entity, code) }),
      qc.invalidateQueries({ queryKey: refKeys.lists(entity) }),
      // A customer's or site's children lists live under the child entity's lists.
      entity === 'customer' ? qc.invalidateQueries({ queryKey: refKeys.lists('site') }) : undefined,
      entity === 'site' ? qc.invalidateQueries({ queryKey: refKeys.lists('asset') }) : undefined,
    ]);
  };
}

export function usePut<E extends ReferentialEntity>(entity: E) {
  const refApi = useRefApi();
  const invalidate = useInvalidateAfterWrite();
  return useMutation({
    mutationFn: ({ code, body }: { code: string; body: EntityBody<E> }) => refApi.put(entity, code, body),
    onSuccess: (_r, { code }) => invalidate(entity, code),
  });
}

export interface ChildRef {
  code: string;
  name: string | null;
}

/**
 * Children of a record: with `of` unset, records of the same entity whose parent is `code`
 * (sub-customers, sub-sites, sub-assets); with `of` set, the records attached to it (the
 * sites of a customer, the assets of a site). First page only; `more` says if there is more.
 */
export function useChildren(entity: ReferentialEntity, code: string | undefined, of?: ReferentialEntity) {
  const filter: ListQuery = !of
    ? { parentCode: code }
    : of === 'customer'
      ? { customerCode: code }
      : { siteCode: code };
  const refApi = useRefApi();
  const q = useQuery({
    queryKey: [...refKeys.lists(entity), 'children', filter],
    queryFn: ({ signal }) => refApi.list(entity, filter, signal),
    enabled: !!code,
    staleTime: 10_000,
    retry: false,
  });
  const data: ChildRef[] | undefined = q.data?.data.map((r) => {
    const row = r as unknown as Record<string, unknown>;
    return { code: codeOf(entity, row), name: (row.name as string | null) ?? null };
  });
  return { ...q, data, more: !!q.data?.continuationToken };
}
