import {
  deleteWorkOrderByCode,
  deleteWorkOrderByUuid,
  getWorkOrderByCode,
  getWorkOrderByUuid,
  listUsedItemsByCode,
  listUsedItemsByUuid,
  listWorkOrders,
  usedItemTotalsByCode,
  usedItemTotalsByUuid,
  validateWorkOrderByCode,
  validateWorkOrderByUuid,
} from '../../../contract/fieldService.ts';
import { actorOf } from '../../events/index.ts';
import { implement, type Route } from '../../platform/routes.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const fieldServiceRoutes: Route[] = [
  implement(listUsedItemsByCode, async ({ params, query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listUsedItems(db, caller.scope, tokens, { code: params.workOrderCode }, query),
  })),
  implement(listUsedItemsByUuid, async ({ params, query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listUsedItems(db, caller.scope, tokens, { uuid: params.workOrderUuid }, query),
  })),
  implement(usedItemTotalsByCode, async ({ params, query }, { db, caller }) => ({
    status: 200,
    body: await service.usedItemTotals(db, caller.scope, { code: params.workOrderCode }, query.invoiceMode),
  })),
  implement(usedItemTotalsByUuid, async ({ params, query }, { db, caller }) => ({
    status: 200,
    body: await service.usedItemTotals(db, caller.scope, { uuid: params.workOrderUuid }, query.invoiceMode),
  })),
  implement(listWorkOrders, async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listWorkOrders(db, caller.scope, tokens, query),
  })),
  implement(getWorkOrderByCode, async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getWorkOrder(db, caller.scope, { code: params.workOrderCode }),
  })),
  implement(getWorkOrderByUuid, async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getWorkOrder(db, caller.scope, { uuid: params.workOrderUuid }),
  })),
  implement(validateWorkOrderByCode, async ({ params }, { db, caller }) => {
    await service.validateWorkOrder(db, caller.scope, { code: params.workOrderCode }, actorOf(caller));
    return { status: 204 };
  }),
  implement(validateWorkOrderByUuid, async ({ params }, { db, caller }) => {
    await service.validateWorkOrder(db, caller.scope, { uuid: params.workOrderUuid }, actorOf(caller));
    return { status: 204 };
  }),
  implement(deleteWorkOrderByCode, async ({ params }, { db, caller }) => {
    await service.deleteWorkOrder(db, caller.scope, { code: params.workOrderCode }, actorOf(caller));
    return { status: 204 };
  }),
  implement(deleteWorkOrderByUuid, async ({ params }, { db, caller }) => {
    await service.deleteWorkOrder(db, caller.scope, { uuid: params.workOrderUuid }, actorOf(caller));
    return { status: 204 };
  }),
];
