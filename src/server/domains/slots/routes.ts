import { slotsEndpoints } from '../../../contract/slots.ts';
import { implementDomain } from '../../platform/routes.ts';
import { calendarIndexOf } from './calendarIndex.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const slotsRoutes = implementDomain(slotsEndpoints, {
  searchSlots: async ({ body }, { db, caller, request }) => ({
    status: 200,
    body: await service.search(db, caller.scope, body, {
      ...service.defaultServices,
      index: await calendarIndexOf(request.server.fieldwork.dbh),
    }),
  }),
  getWorkOrderNeeds: async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.workOrderNeeds(db, caller.scope, params.workOrderCode),
  }),
});
