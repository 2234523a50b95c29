/**
 * The one adapter between the Referentials pages and HTTP: each method is one call of the
 * typed client (src/client) on a row of the contract's endpoint table, with the session's
 * bearer token (`useApi()`).
 */
import { useMemo } from 'react';
import type { Client } from '../../../client/index.ts';
import type { CustomFieldDefinition, Page } from '../../../contract/common.ts';
import {
  getAsset,
  getCustomer,
  getSite,
  listAssets,
  listCustomers,
  listCustomFieldDefinitions,
  listOffices,
  listSites,
  type Office,
  putAsset,
  putCustomer,
  putSite,
} from '../../../contract/referentials.ts';
import { useApi } from '../../app/api.ts';
import type {
  AssetBody,
  CustomerBody,
  EntityBody,
  EntityRecord,
  ReferentialEntity,
  SiteBody,
} from './types.ts';

export type { Office };

export interface ListQuery {
  q?: string;
  officeCode?: string;
  continuationToken?: string;
  /** Children filters (records whose parent, customer or site is this code). */
  parentCode?: string;
  customerCode?: string;
  siteCode?: string;
}

/** Keeps the filters an entity's list accepts (strict queries: unknown ones are refused). */
function listQuery(entity: ReferentialEntity, q: ListQuery): Record<string, string> {
  const keys =
    entity === 'customer'
      ? ['q', 'officeCode', 'parentCode', 'continuationToken']
      : entity === 'site'
        ? ['q', 'officeCode', 'parentCode', 'customerCode', 'continuationToken']
        : ['q', 'officeCode', 'parentCode', 'customerCode', 'siteCode', 'continuationToken'];
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = q[k as keyof ListQuery];
    if (v) out[k] = v;
  }
  return out;
}

export function referentialsApi(api: Client) {
  return {
    async get<E extends ReferentialEntity>(
      entity: E,
      code: string,
      signal?: AbortSignal,
    ): Promise<EntityRecord<E>> {
      const r =
        entity === 'customer'
          ? await api.call(getCustomer, { params: { customerCode: code }, signal })
          : entity === 'site'
            ? await api.call(getSite, { params: { siteCode: code }, signal })
            : await api.call(getAsset, { params: { assetCode: code }, signal });
      return r as EntityRecord<E>;
    },
    /** PUT creates (201) or updates (204). */
    async put<E extends ReferentialEntity>(
      entity: E,
      code: string,
      body: EntityBody<E>,
    ): Promise<'created' | 'updated'> {
      const r =
        entity === 'customer'
          ? await api.request(putCustomer, { params: { customerCode: code }, body: body as CustomerBody })
          : entity === 'site'
            ? await api.request(putSite, { params: { siteCode: code }, body: body as SiteBody })
            : await api.request(putAsset, { params: { assetCode: code }, body: body as AssetBody });
      return r.status === 201 ? 'created' : 'updated';
    },
    async list<E extends ReferentialEntity>(
      entity: E,
      q: ListQuery,
      signal?: AbortSignal,
    ): Promise<Page<EntityRecord<E>>> {
      const query = listQuery(entity, q);
      const r =
        entity === 'customer'
          ? await api.call(listCustomers, { query, signal })
          : entity === 'site'
            ? await api.call(listSites, { query, signal })
            : await api.call(listAssets, { query, signal });
      return r as Page<EntityRecord<E>>;
    },
    async definitions(entity: ReferentialEntity, signal?: AbortSignal): Promise<CustomFieldDefinition[]> {
      const page = await api.call(listCustomFieldDefinitions, { query: { entity }, signal });
      return page.data;
    },
    /** The caller's office and the offices below it (every page). */
    async offices(signal?: AbortSignal): Promise<Office[]> {
      const out: Office[] = [];
      for await (const page of api.pages(listOffices, { signal })) out.push(...page.data);
      return out;
    },
  };
}
export type ReferentialsApi = ReturnType<typeof referentialsApi>;

/** The Referentials calls bound to the signed-in session's client. */
export function useRefApi(): ReferentialsApi {
  const api = useApi();
  return useMemo(() => referentialsApi(api), [api]);
}
