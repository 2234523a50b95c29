import {
  getItem,
  listItemCategories,
  listItems,
  listItemsDeprecated,
  putItem,
} from '../../../contract/businessOrganization.ts';
import { type Handler, implement, type Route } from '../../platform/routes.ts';
import * as service from './service.ts';

/** One handler for the list and its former path (the platform adds Deprecation and Link). */
const list: Handler<typeof listItems> = async ({ query }, { db, tokens }) => ({
  status: 200,
  body: await service.listItems(db, tokens, query!),
});

/** HTTP only: the rules live in service.ts. */
export const businessOrganizationRoutes: Route[] = [
  implement(putItem, async ({ params, body }, { db }) => {
    const result = await service.putItem(db, params!.itemCode, body!);
    return { status: result === 'created' ? 201 : 204 };
  }),
  implement(getItem, async ({ params }, { db }) => ({
    status: 200,
    body: await service.getItem(db, params!.itemCode),
  })),
  implement(listItems, list),
  implement(listItemsDeprecated, list),
  implement(listItemCategories, async (_input, { db }) => ({
    status: 200,
    body: await service.listItemCategories(db),
  })),
];
