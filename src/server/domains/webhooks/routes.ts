import type { FastifyRequest } from 'fastify';
import { WebhooksCodes as WC, webhooksEndpoints } from '../../../contract/webhooks.ts';
import { implementDomain } from '../../platform/routes.ts';
import { historyAnswer } from '../changes/index.ts';
import * as service from './service.ts';

/** FIELDWORK_WEBHOOKS_ALLOW_PRIVATE of the running service. */
const allowPrivate = (request: FastifyRequest) =>
  request.server.fieldwork.config.webhooks?.allowPrivate ?? false;

/** HTTP only: the rules live in service.ts. */
export const webhooksRoutes = implementDomain(webhooksEndpoints, {
  createSubscription: async ({ body }, { db, caller, request }) => ({
    status: 201,
    body: await service.createSubscription(db, caller, body, allowPrivate(request)),
  }),
  listSubscriptions: async (_input, { db, caller }) => ({
    status: 200,
    body: await service.listSubscriptions(db, caller),
  }),
  deleteSubscription: async ({ params }, { db, caller }) => {
    await service.deleteSubscription(db, caller, params.subscriptionId);
    return { status: 204 };
  },
  getSubscriptionHistory: async ({ params, query }, ctx) => {
    const { id } = await service.ownSubscription(ctx.db, ctx.caller, params.subscriptionId);
    return historyAnswer(ctx, { kind: 'subscription', code: id }, query, WC.continuationTokenInvalid);
  },
  listDeliveries: async ({ params, query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listDeliveries(db, caller, tokens, params.subscriptionId, query),
  }),
  getDelivery: async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getDelivery(db, caller, params.subscriptionId, params.deliveryId),
  }),
  replayDelivery: async ({ params }, { db, caller }) => ({
    status: 202,
    body: await service.replayDelivery(db, caller, params.subscriptionId, params.deliveryId),
  }),
  sendTestEvent: async ({ params }, { db, caller }) => ({
    status: 202,
    body: await service.sendTestEvent(db, caller, params.subscriptionId),
  }),
});
