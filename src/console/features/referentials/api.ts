/**
 * TanStack Query hooks of the Referentials pages: reads (record with its version, list
 * pages, custom-field definitions, offices) and the query keys a write invalidates. All
 * HTTP goes through `useRefApi()` (./transport.ts).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { statusOf } from '../../../client/index.ts';
import type { CustomFieldDefinition } from '../../../contract/common.ts';
import { invalidateShellFigures } from '../../app/queryClient.ts';
import type { ReferentialEntity } from './paths.ts';
import { refResource } from './resources.tsx';
import { type ListQuery, type Office, type RecordOf, useRefApi, type Versioned } from './transport.ts';

export const refKeys = {
  all: ['referentials'] as const,
  entity: (e: ReferentialEntity) => ['referentials', e] as const,
  record: (e: ReferentialEntity, code: string) => ['referentials', e, 'record', code.toUpperCase()] as const,
  lists: (e: ReferentialEntity) => ['referentials', e, 'list'] as const,
  list: (e: ReferentialEntity, q: ListQuery) => ['referentials', e, 'list', q] as const,
  definitions: (e: ReferentialEntity) => ['referentials', 'customFieldDefinitions', e] as const,
  offices: ['referentials', 'offices'] as const,
};

/** The record and its version (ETag), shared by the detail page, the form and the pickers. */
export function useRecord<E extends ReferentialEntity>(entity: E, code: string | undefined) {
  const refApi = useRefApi();
  return useQuery<Versioned<RecordOf<E>>>({
    queryKey: refKeys.record(entity, code ?? ''),
    queryFn: ({ signal }) => refApi.get(entity, code ?? '', signal),
    enabled: !!code,
    retry: (n, e) => statusOf(e) !== 404 && n < 2,
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

/** Invalidates what a write to one record can change: itself, every list of its entity and below. */
export function useInvalidateAfterWrite() {
  const qc = useQueryClient();
  return async (entity: ReferentialEntity, code: string) => {
    const attached = refResource(entity).attached?.entity;
    await Promise.all([
      qc.invalidateQueries({ queryKey: refKeys.record(entity, code) }),
      qc.invalidateQueries({ queryKey: refKeys.lists(entity) }),
      // A customer's sites (a site's assets) are lists of the attached entity.
      attached ? qc.invalidateQueries({ queryKey: refKeys.lists(attached) }) : undefined,
      invalidateShellFigures(qc, 'none'),
    ]);
  };
}

export interface ChildRef {
  code: string;
  name: string | null;
}

/**
 * Records below one: with `attachedTo` unset, records of the same entity whose parent is
 * `code` (sub-customers, sub-sites, sub-assets); with `attachedTo`, the records of `entity`
 * attached to that record (the sites of a customer, the assets of a site). First page
 * only; `more` says if there is more.
 */
export function useChildren(
  entity: ReferentialEntity,
  code: string | undefined,
  attachedTo?: ReferentialEntity,
) {
  const filter: ListQuery = attachedTo
    ? { [refResource(attachedTo).attached?.filter ?? 'parentCode']: code }
    : { parentCode: code };
  const refApi = useRefApi();
  const res = refResource(entity);
  const q = useQuery({
    queryKey: [...refKeys.lists(entity), 'children', filter],
    queryFn: ({ signal }) => refApi.list(entity, filter, signal),
    enabled: !!code,
    staleTime: 10_000,
    retry: false,
  });
  const data: ChildRef[] | undefined = q.data?.data.map((r) => ({
    code: res.codeOf(r),
    name: r.name ?? null,
  }));
  return { ...q, data, more: !!q.data?.continuationToken };
}
