import {
  getScheduleByCode,
  getScheduleByUuid,
  scheduleByCode,
  scheduleByUuid,
} from '../../../contract/scheduling.ts';
import { implement, type Route } from '../../platform/routes.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const schedulingRoutes: Route[] = [
  implement(scheduleByCode, async ({ params, body }, { db, caller }) => {
    await service.schedule(db, caller, { code: params.workOrderCode }, body);
    return { status: 204 };
  }),
  implement(scheduleByUuid, async ({ params, body }, { db, caller }) => {
    await service.schedule(db, caller, { uuid: params.workOrderUuid }, body);
    return { status: 204 };
  }),
  implement(getScheduleByCode, async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getSchedule(db, caller.scope, { code: params.workOrderCode }),
  })),
  implement(getScheduleByUuid, async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getSchedule(db, caller.scope, { uuid: params.workOrderUuid }),
  })),
];
