/**
 * The one adapter between the Webhooks pages and HTTP: every call the pages make, each one
 * row of the contract's endpoint table (src/contract/webhooks.ts) through the typed client.
 */
import type { Client } from '../../../client/index.ts';
import type { Page } from '../../../contract/common.ts';
import {
  createSubscription,
  type Delivery,
  type DeliveryDetail,
  type DeliveryStatus,
  deleteSubscription,
  getDelivery,
  listDeliveries,
  listSubscriptions,
  replayDelivery,
  type Subscription,
  type SubscriptionBody,
  sendTestEvent,
} from '../../../contract/webhooks.ts';

/** The rows the webhook pages write with: what their actions ask for (app/permissions.ts). */
export const writeRows = {
  create: createSubscription,
  remove: deleteSubscription,
  replay: replayDelivery,
  test: sendTestEvent,
} as const;

export type { Delivery, DeliveryDetail, DeliveryStatus, Subscription, SubscriptionBody };

export function webhooksApi(client: Client) {
  return {
    /** The caller's subscriptions (at most 3), oldest first. */
    async subscriptions(signal?: AbortSignal): Promise<Subscription[]> {
      return (await client.call(listSubscriptions, { signal })).data;
    },
    async create(body: SubscriptionBody): Promise<Subscription> {
      return await client.call(createSubscription, { body });
    },
    async remove(subscriptionId: string): Promise<void> {
      await client.call(deleteSubscription, { params: { subscriptionId } });
    },
    /** One page of the delivery log, newest first (50 a page). */
    async deliveries(
      subscriptionId: string,
      query: { status?: DeliveryStatus; continuationToken?: string },
      signal?: AbortSignal,
    ): Promise<Page<Delivery>> {
      return await client.call(listDeliveries, { params: { subscriptionId }, query, signal });
    },
    async delivery(
      subscriptionId: string,
      deliveryId: string,
      signal?: AbortSignal,
    ): Promise<DeliveryDetail> {
      return await client.call(getDelivery, { params: { subscriptionId, deliveryId }, signal });
    },
    /** 202: the callback goes out again with the same id. */
    async replay(subscriptionId: string, deliveryId: string): Promise<Delivery> {
      return await client.call(replayDelivery, { params: { subscriptionId, deliveryId } });
    },
    /** 202: a `webhooks.test` callback is queued. */
    async sendTest(subscriptionId: string): Promise<Delivery> {
      return await client.call(sendTestEvent, { params: { subscriptionId } });
    },
  };
}
export type WebhooksApi = ReturnType<typeof webhooksApi>;
