import {
  BusinessOrganizationCodes as BC,
  businessOrganizationEndpoints,
} from '../../../contract/businessOrganization.ts';
import { implementDomain } from '../../platform/routes.ts';
import { writeStatus } from '../../platform/upsert.ts';
import { etag, ifMatchOf } from '../../platform/versions.ts';
import { historyAnswer } from '../changes/index.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const businessOrganizationRoutes = implementDomain(businessOrganizationEndpoints, {
  putItem: async ({ params, body }, { db, caller, request }) => {
    const w = await service.putItem(db, caller.scope, params.itemCode, body, ifMatchOf(request));
    return { status: writeStatus(w.outcome), headers: { etag: etag(w.version) } };
  },
  getItem: async ({ params }, { db }) => {
    const { record, version } = await service.getItem(db, params.itemCode);
    return { status: 200, body: record, headers: { etag: etag(version) } };
  },
  getItemHistory: async ({ params, query }, ctx) => {
    await service.getItem(ctx.db, params.itemCode);
    return historyAnswer(ctx, { kind: 'item', code: params.itemCode }, query, BC.continuationTokenInvalid);
  },
  listItems: async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listItems(db, tokens, query),
  }),
  // The former path: same operation (the platform adds Deprecation and Link).
  listItemsDeprecated: async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listItems(db, tokens, query),
  }),
  listItemCategories: async (_input, { db }) => ({
    status: 200,
    body: await service.listItemCategories(db),
  }),
});
