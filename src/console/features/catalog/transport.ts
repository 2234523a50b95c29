/**
 * The one adapter between the Catalog pages and HTTP: every call the pages make, each one
 * row of the contract's endpoint table through the typed client (`src/client`).
 */
import { type Client, statusOf } from '../../../client/index.ts';
import {
  getItem,
  type ItemListQuery,
  listItemCategories,
  listItems,
  putItem,
} from '../../../contract/businessOrganization.ts';
import type { CustomFieldDefinition, Page } from '../../../contract/common.ts';
import { listCustomFieldDefinitions } from '../../../contract/referentials.ts';
import { listCharacteristics, listSkills, putSkill } from '../../../contract/staff.ts';
import type { WriteResult } from '../../components/forms/useSaveWithUndo.tsx';
import type { Characteristic, Item, ItemBody, Skill, SkillBody } from './model.ts';

/** The rows the catalog writes with: what its New, Edit, Import and Save ask for (app/permissions.ts). */
export const writeRows = { item: putItem, skill: putSkill } as const;

export interface ItemsQuery {
  q?: string;
  category?: string;
  active?: boolean;
}

/** An item as read, with its version (ETag) for a conditional write. */
export interface VersionedItem {
  record: Item;
  etag: string | null;
}

export function catalogApi(client: Client) {
  const outcome = (status: number) => (status === 201 ? ('created' as const) : ('updated' as const));
  return {
    async getItem(code: string, signal?: AbortSignal): Promise<VersionedItem> {
      const r = await client.request(getItem, { params: { itemCode: code }, signal });
      return { record: r.data, etag: r.headers.get('etag') };
    },
    /** The item, or null when the code is unknown. */
    async findItem(code: string): Promise<Item | null> {
      try {
        return await client.call(getItem, { params: { itemCode: code } });
      } catch (e) {
        if (statusOf(e) === 404) return null;
        throw e;
      }
    },
    /** PUT creates (201) or updates (204); with `ifMatch`, only the version read (else 412). */
    async putItem(
      code: string,
      body: ItemBody,
      opts: { ifMatch?: string | null } = {},
    ): Promise<WriteResult> {
      const r = await client.request(putItem, {
        params: { itemCode: code },
        body,
        headers: opts.ifMatch ? { 'if-match': opts.ifMatch } : undefined,
      });
      return { outcome: outcome(r.status), etag: r.headers.get('etag') };
    },
    async listItems(
      q: ItemsQuery & { continuationToken?: string },
      signal?: AbortSignal,
    ): Promise<Page<Item>> {
      const query: ItemListQuery = {
        q: q.q || undefined,
        category: q.category || undefined,
        active: q.active === undefined ? undefined : q.active ? 'true' : 'false',
        continuationToken: q.continuationToken,
      };
      return await client.call(listItems, { query, signal });
    },
    async itemCategories(): Promise<string[]> {
      return (await client.call(listItemCategories)).data;
    },
    async itemDefinitions(): Promise<CustomFieldDefinition[]> {
      return (await client.call(listCustomFieldDefinitions, { query: { entity: 'item' } })).data;
    },
    async listSkills(continuationToken?: string, signal?: AbortSignal): Promise<Page<Skill>> {
      return await client.call(listSkills, { query: { continuationToken }, signal });
    },
    async putSkill(code: string, body: SkillBody): Promise<WriteResult> {
      const r = await client.request(putSkill, { params: { skillCode: code }, body });
      return { outcome: outcome(r.status), etag: r.headers.get('etag') };
    },
    async listCharacteristics(
      continuationToken?: string,
      signal?: AbortSignal,
    ): Promise<Page<Characteristic>> {
      return await client.call(listCharacteristics, { query: { continuationToken }, signal });
    },
  };
}
export type CatalogApi = ReturnType<typeof catalogApi>;
