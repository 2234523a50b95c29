import {
  activityTotalsByCode,
  activityTotalsByUuid,
  listActivitiesByCode,
  listActivitiesByUuid,
  listActivityTypes,
  listPositions,
} from '../../../contract/fieldTracking.ts';
import { implement, type Route } from '../../platform/routes.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const fieldTrackingRoutes: Route[] = [
  implement(listPositions, async ({ params, query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listPositions(db, caller.scope, tokens, params.technicianCode, query),
  })),
  implement(listActivitiesByCode, async ({ params, query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listActivities(db, caller.scope, tokens, { code: params.workOrderCode }, query),
  })),
  implement(listActivitiesByUuid, async ({ params, query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listActivities(db, caller.scope, tokens, { uuid: params.workOrderUuid }, query),
  })),
  implement(activityTotalsByCode, async ({ params, query }, { db, caller }) => ({
    status: 200,
    body: await service.activityTotals(db, caller.scope, { code: params.workOrderCode }, query),
  })),
  implement(activityTotalsByUuid, async ({ params, query }, { db, caller }) => ({
    status: 200,
    body: await service.activityTotals(db, caller.scope, { uuid: params.workOrderUuid }, query),
  })),
  implement(listActivityTypes, async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listActivityTypes(db, tokens, query.continuationToken),
  })),
];
