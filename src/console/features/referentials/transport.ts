/**
 * The one adapter between the Referentials pages and HTTP: per entity, its rows of the
 * contract's endpoint table (GET, PUT, list) through the typed client, with the session's
 * bearer token (`useApi()`). A GET answers the record with its version (ETag); a PUT may
 * be conditional on it (If-Match).
 */
import { useMemo } from 'react';
import type { Client } from '../../../client/index.ts';
import type { CustomFieldDefinition, Page } from '../../../contract/common.ts';
import {
  type Asset,
  type AssetBodyInput,
  type Customer,
  type CustomerBodyInput,
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
  type Site,
  type SiteBodyInput,
} from '../../../contract/referentials.ts';
import { useApi } from '../../app/api.ts';
import type { WriteResult } from '../../components/forms/index.ts';
import type { ReferentialEntity } from './paths.ts';

export type { Office };

/** Filters of the lists (each entity's list accepts some of them; the others are not sent). */
export interface ListQuery {
  q?: string;
  officeCode?: string;
  continuationToken?: string;
  /** Children filters (records whose parent, customer or site is this code). */
  parentCode?: string;
  customerCode?: string;
  siteCode?: string;
}

/** A record as read, with its version for a conditional write. */
export interface Versioned<R> {
  record: R;
  etag: string | null;
}

export interface EntityTypes {
  customer: { record: Customer; body: CustomerBodyInput };
  site: { record: Site; body: SiteBodyInput };
  asset: { record: Asset; body: AssetBodyInput };
}
export type RecordOf<E extends ReferentialEntity> = EntityTypes[E]['record'];
export type BodyOf<E extends ReferentialEntity> = EntityTypes[E]['body'];

/** The row each entity's form writes with: what its New, Edit and Save ask for (app/permissions.ts). */
export const writeRow = { customer: putCustomer, site: putSite, asset: putAsset } as const;

type WriteOpts = { ifMatch?: string | null };
const ifMatch = (o: WriteOpts) => (o.ifMatch ? { 'if-match': o.ifMatch } : undefined);
const written = (r: { status: number; headers: Headers }): WriteResult => ({
  outcome: r.status === 201 ? 'created' : 'updated',
  etag: r.headers.get('etag'),
});

interface EntityCalls<E extends ReferentialEntity> {
  get(api: Client, code: string, signal?: AbortSignal): Promise<Versioned<RecordOf<E>>>;
  put(api: Client, code: string, body: BodyOf<E>, opts: WriteOpts): Promise<WriteResult>;
  list(api: Client, q: ListQuery, signal?: AbortSignal): Promise<Page<RecordOf<E>>>;
}

/** Keeps the filters of `keys` (strict queries: a filter a list does not take is refused). */
function pick(q: ListQuery, keys: readonly (keyof ListQuery)[]): ListQuery {
  const out: ListQuery = {};
  for (const k of keys) if (q[k]) out[k] = q[k];
  return out;
}

const CALLS: { [E in ReferentialEntity]: EntityCalls<E> } = {
  customer: {
    async get(api, code, signal) {
      const r = await api.request(getCustomer, { params: { customerCode: code }, signal });
      return { record: r.data, etag: r.headers.get('etag') };
    },
    async put(api, code, body, opts) {
      return written(
        await api.request(putCustomer, { params: { customerCode: code }, body, headers: ifMatch(opts) }),
      );
    },
    list: (api, q, signal) =>
      api.call(listCustomers, {
        query: pick(q, ['q', 'officeCode', 'parentCode', 'continuationToken']),
        signal,
      }),
  },
  site: {
    async get(api, code, signal) {
      const r = await api.request(getSite, { params: { siteCode: code }, signal });
      return { record: r.data, etag: r.headers.get('etag') };
    },
    async put(api, code, body, opts) {
      return written(
        await api.request(putSite, { params: { siteCode: code }, body, headers: ifMatch(opts) }),
      );
    },
    list: (api, q, signal) =>
      api.call(listSites, {
        query: pick(q, ['q', 'officeCode', 'parentCode', 'customerCode', 'continuationToken']),
        signal,
      }),
  },
  asset: {
    async get(api, code, signal) {
      const r = await api.request(getAsset, { params: { assetCode: code }, signal });
      return { record: r.data, etag: r.headers.get('etag') };
    },
    async put(api, code, body, opts) {
      return written(
        await api.request(putAsset, { params: { assetCode: code }, body, headers: ifMatch(opts) }),
      );
    },
    list: (api, q, signal) =>
      api.call(listAssets, {
        query: pick(q, ['q', 'officeCode', 'parentCode', 'customerCode', 'siteCode', 'continuationToken']),
        signal,
      }),
  },
};

export function referentialsApi(api: Client) {
  return {
    get: <E extends ReferentialEntity>(entity: E, code: string, signal?: AbortSignal) =>
      CALLS[entity].get(api, code, signal),
    /** PUT creates (201) or updates (204); with `ifMatch`, only the version read (else 412). */
    put: <E extends ReferentialEntity>(entity: E, code: string, body: BodyOf<E>, opts: WriteOpts = {}) =>
      CALLS[entity].put(api, code, body, opts),
    list: <E extends ReferentialEntity>(entity: E, q: ListQuery, signal?: AbortSignal) =>
      CALLS[entity].list(api, q, signal),
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
