import { FieldServiceCodes as FC, fieldServiceEndpoints } from '../../../contract/fieldService.ts';
import { actorOf } from '../../events/index.ts';
import { implementDomain } from '../../platform/routes.ts';
import { historyAnswer } from '../changes/index.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const fieldServiceRoutes = implementDomain(fieldServiceEndpoints, {
  listUsedItemsByCode: async ({ params, query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listUsedItems(db, caller.scope, tokens, { code: params.workOrderCode }, query),
  }),
  listUsedItemsByUuid: async ({ params, query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listUsedItems(db, caller.scope, tokens, { uuid: params.workOrderUuid }, query),
  }),
  usedItemTotalsByCode: async ({ params, query }, { db, caller }) => ({
    status: 200,
    body: await service.usedItemTotals(db, caller.scope, { code: params.workOrderCode }, query.invoiceMode),
  }),
  usedItemTotalsByUuid: async ({ params, query }, { db, caller }) => ({
    status: 200,
    body: await service.usedItemTotals(db, caller.scope, { uuid: params.workOrderUuid }, query.invoiceMode),
  }),
  listWorkOrders: async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listWorkOrders(db, caller.scope, tokens, query),
  }),
  getWorkOrderByCode: async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getWorkOrder(db, caller.scope, { code: params.workOrderCode }),
  }),
  getWorkOrderByUuid: async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getWorkOrder(db, caller.scope, { uuid: params.workOrderUuid }),
  }),
  getWorkOrderHistoryByCode: async ({ params, query }, ctx) => {
    const w = await service.workOrderOf(ctx.db, ctx.caller.scope, { code: params.workOrderCode });
    return historyAnswer(
      ctx,
      { kind: 'workOrder', code: w.code, uuid: w.uuid },
      query,
      FC.continuationTokenInvalid,
    );
  },
  getWorkOrderHistoryByUuid: async ({ params, query }, ctx) => {
    const w = await service.workOrderOf(ctx.db, ctx.caller.scope, { uuid: params.workOrderUuid });
    return historyAnswer(
      ctx,
      { kind: 'workOrder', code: w.code, uuid: w.uuid },
      query,
      FC.continuationTokenInvalid,
    );
  },
  validateWorkOrderByCode: async ({ params }, { db, caller }) => {
    await service.validateWorkOrder(db, caller.scope, { code: params.workOrderCode }, actorOf(caller));
    return { status: 204 };
  },
  validateWorkOrderByUuid: async ({ params }, { db, caller }) => {
    await service.validateWorkOrder(db, caller.scope, { uuid: params.workOrderUuid }, actorOf(caller));
    return { status: 204 };
  },
  deleteWorkOrderByCode: async ({ params }, { db, caller }) => {
    await service.deleteWorkOrder(db, caller.scope, { code: params.workOrderCode }, actorOf(caller));
    return { status: 204 };
  },
  deleteWorkOrderByUuid: async ({ params }, { db, caller }) => {
    await service.deleteWorkOrder(db, caller.scope, { uuid: params.workOrderUuid }, actorOf(caller));
    return { status: 204 };
  },
  listWorkOrderTypes: async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listWorkOrderTypes(db, tokens, query.continuationToken),
  }),
});
