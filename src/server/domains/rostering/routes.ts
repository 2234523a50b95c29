import { getTechnician, listAreas, listCrews, listTechnicians } from '../../../contract/rostering.ts';
import { implement, type Route } from '../../platform/routes.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const rosteringRoutes: Route[] = [
  implement(listCrews, async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listCrews(db, caller.scope, tokens, query),
  })),
  implement(listAreas, async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listAreas(db, tokens, query.continuationToken),
  })),
  implement(listTechnicians, async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listTechnicians(db, caller.scope, tokens, query),
  })),
  implement(getTechnician, async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getTechnician(db, caller.scope, params.technicianCode),
  })),
];
