import { schedulingEndpoints } from '../../../contract/scheduling.ts';
import { implementDomain } from '../../platform/routes.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const schedulingRoutes = implementDomain(schedulingEndpoints, {
  scheduleByCode: async ({ params, body }, { db, caller }) => {
    await service.schedule(db, caller, { code: params.workOrderCode }, body);
    return { status: 204 };
  },
  scheduleByUuid: async ({ params, body }, { db, caller }) => {
    await service.schedule(db, caller, { uuid: params.workOrderUuid }, body);
    return { status: 204 };
  },
  getScheduleByCode: async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getSchedule(db, caller.scope, { code: params.workOrderCode }),
  }),
  getScheduleByUuid: async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getSchedule(db, caller.scope, { uuid: params.workOrderUuid }),
  }),
  unscheduleByCode: async ({ params }, { db, caller }) => {
    await service.unschedule(db, caller.scope, { code: params.workOrderCode });
    return { status: 204 };
  },
});
