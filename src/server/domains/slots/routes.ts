import { getWorkOrderNeeds, searchSlots } from '../../../contract/slots.ts';
import { implement, type Route } from '../../platform/routes.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const slotsRoutes: Route[] = [
  implement(searchSlots, async ({ body }, { db, caller }) => ({
    status: 200,
    body: await service.search(db, caller.scope, body),
  })),
  implement(getWorkOrderNeeds, async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.workOrderNeeds(db, caller.scope, params.workOrderCode),
  })),
];
