import { rosteringEndpoints } from '../../../contract/rostering.ts';
import { implementDomain } from '../../platform/routes.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const rosteringRoutes = implementDomain(rosteringEndpoints, {
  listCrews: async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listCrews(db, caller.scope, tokens, query),
  }),
  listAreas: async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listAreas(db, tokens, query.continuationToken),
  }),
  listTechnicians: async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listTechnicians(db, caller.scope, tokens, query),
  }),
  getTechnician: async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getTechnician(db, caller.scope, params.technicianCode),
  }),
});
