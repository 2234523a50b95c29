import { slotsEndpoints } from '../../../contract/slots.ts';
import { implementDomain } from '../../platform/routes.ts';
import { board } from './board.ts';
import { calendarIndexOf } from './calendarIndex.ts';
import { check } from './check.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts (search, needs), check.ts and board.ts. */
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
  checkSlot: async ({ body }, { db, caller, request }) => ({
    status: 200,
    body: await check(db, caller.scope, body, {
      ...service.defaultServices,
      index: await calendarIndexOf(request.server.fieldwork.dbh),
    }),
  }),
  readBoard: async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await board(db, caller.scope, tokens, query),
  }),
});
