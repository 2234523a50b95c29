import { listWorkOrderTypes } from '../../../contract/fieldService.ts';
import { implement, type Route } from '../../platform/routes.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const fieldServiceRoutes: Route[] = [
  implement(listWorkOrderTypes, async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listWorkOrderTypes(db, tokens, query.continuationToken),
  })),
];
