import {
  getItem,
  listItemCategories,
  listItems,
  listItemsDeprecated,
  putItem,
} from '../../../contract/businessOrganization.ts';
import { implement, type Route } from '../../platform/routes.ts';
import { writeStatus } from '../../platform/upsert.ts';
import { etag, ifMatchOf } from '../../platform/versions.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const businessOrganizationRoutes: Route[] = [
  implement(putItem, async ({ params, body }, { db, caller, request }) => {
    const w = await service.putItem(db, caller.scope, params.itemCode, body, ifMatchOf(request));
    return { status: writeStatus(w.outcome), headers: { etag: etag(w.version) } };
  }),
  implement(getItem, async ({ params }, { db }) => {
    const { record, version } = await service.getItem(db, params.itemCode);
    return { status: 200, body: record, headers: { etag: etag(version) } };
  }),
  implement(listItems, async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listItems(db, tokens, query),
  })),
  // The former path: same operation (the platform adds Deprecation and Link).
  implement(listItemsDeprecated, async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listItems(db, tokens, query),
  })),
  implement(listItemCategories, async (_input, { db }) => ({
    status: 200,
    body: await service.listItemCategories(db),
  })),
];
