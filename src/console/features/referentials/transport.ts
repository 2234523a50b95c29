/**
 * The one adapter between the Referentials pages and HTTP. PROVISIONAL until the typed
 * client (`src/client/`) lands: then each method becomes one call of the client.
 */
import type { CustomFieldDefinition, Page } from '../../../contract/common.ts';
import type { EntityBody, EntityRecord, ReferentialEntity } from './types.ts';

export interface ListQuery {
  q?: string;
  officeCode?: string;
  continuationToken?: string;
  /** Children filters (records whose parent, customer or site is this code). */
  parentCode?: string;
  customerCode?: string;
  siteCode?: string;
}
export interface Office {
  code: string;
  name: string;
  parentCode: string | null;
}

const BASE = '/eTech/rest/ws/referentials/v1';
const collection = (e: ReferentialEntity) =>
  e === 'customer' ? 'customers' : e === 'site' ? 'sites' : 'assets';

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok)
    throw Object.assign(new Error(`HTTP ${res.status}`), { status: res.status, body: await res.json() });
  return (res.status === 204 ? undefined : await res.json()) as T;
}

function qs(q: Record<string, string | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

export const refApi = {
  get<E extends ReferentialEntity>(entity: E, code: string): Promise<EntityRecord<E>> {
    return call('GET', `${BASE}/${collection(entity)}/code:${encodeURIComponent(code)}`);
  },
  async put<E extends ReferentialEntity>(
    entity: E,
    code: string,
    body: EntityBody<E>,
  ): Promise<'created' | 'updated'> {
    await call('PUT', `${BASE}/${collection(entity)}/code:${encodeURIComponent(code)}`, body);
    return 'updated';
  },
  list<E extends ReferentialEntity>(entity: E, q: ListQuery): Promise<Page<EntityRecord<E>>> {
    return call('GET', `${BASE}/${collection(entity)}${qs({ ...q })}`);
  },
  definitions(entity: ReferentialEntity): Promise<CustomFieldDefinition[]> {
    return call<Page<CustomFieldDefinition>>('GET', `${BASE}/customFieldDefinitions${qs({ entity })}`).then(
      (p) => p.data,
    );
  },
  offices(): Promise<Office[]> {
    return call<Page<Office>>('GET', `${BASE}/offices`).then((p) => p.data);
  },
};
