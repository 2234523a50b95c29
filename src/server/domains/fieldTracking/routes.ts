import { fieldTrackingEndpoints } from '../../../contract/fieldTracking.ts';
import { implementDomain } from '../../platform/routes.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const fieldTrackingRoutes = implementDomain(fieldTrackingEndpoints, {
  listPositions: async ({ params, query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listPositions(db, caller.scope, tokens, params.technicianCode, query),
  }),
  positionsSpan: async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.positionsSpan(db, caller.scope, params.technicianCode),
  }),
  listActivitiesByCode: async ({ params, query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listActivities(db, caller.scope, tokens, { code: params.workOrderCode }, query),
  }),
  listActivitiesByUuid: async ({ params, query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listActivities(db, caller.scope, tokens, { uuid: params.workOrderUuid }, query),
  }),
  activityTotalsByCode: async ({ params, query }, { db, caller }) => ({
    status: 200,
    body: await service.activityTotals(db, caller.scope, { code: params.workOrderCode }, query),
  }),
  activityTotalsByUuid: async ({ params, query }, { db, caller }) => ({
    status: 200,
    body: await service.activityTotals(db, caller.scope, { uuid: params.workOrderUuid }, query),
  }),
  listActivityTypes: async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listActivityTypes(db, tokens, query.continuationToken),
  }),
});
