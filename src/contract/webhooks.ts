/**
 * Webhooks (spec: "Webhooks", "Events", "Delivery rules"; issue 13): subscriptions of an
 * OAuth 2.0 application (or a console user) to event types, and the callbacks the service
 * POSTs to them. The callback payloads are documented in the OpenAPI document's `webhooks`
 * section from the schemas below (`webhookEvents`).
 *
 * Extensions (for the console): the delivery log of a subscription, one delivery with its
 * attempts, replaying a delivery, sending a test event.
 */
import { z } from 'zod';
import { historyEndpoint } from './changes.ts';
import { Page } from './common.ts';
import { endpoint } from './endpoint.ts';
import { derivedCode } from './errors.ts';

const BASE = '/rest/ws/webhooks/v1/subscriptions';
export const WEBHOOKS = 'webhooks';

/** The event types a subscription may name (spec: Event kinds). */
export const EVENT_TYPES = [
  'asset.upsert',
  'workorder.deletion',
  'workorder.validation',
  'status.scheduled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** The type of the callback `POST .../test` sends; never emitted by a change. */
export const TEST_EVENT_TYPE = 'webhooks.test';

/** Spec: Subscription rules 1. */
export const SUBSCRIPTION_LIMIT = 3;
/** Custom headers of one subscription. */
export const MAX_CUSTOM_HEADERS = 20;
export const SECRET_LENGTH = { min: 16, max: 256 } as const;
export const CALLBACK_URL_MAX = 2048;
export const DELIVERIES_PAGE_SIZE = 50;

/**
 * Header names a subscription may not set: the ones the service sends itself, and those
 * that belong to the connection rather than to the receiver (compared case-insensitively).
 */
export const RESERVED_HEADERS = [
  'x-service-event',
  'x-service-secret',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
] as const;
/** RFC 9110 token: what a header name may hold. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** A header value Node sends as is: tab, visible ASCII, space and Latin-1, at most 1000 characters. */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]{0,1000}$/;

/** Every refusal of the webhooks endpoints has its own code. */
export const WebhooksCodes = {
  invalidJson: derivedCode.invalidJson(WEBHOOKS),
  fieldUnknown: derivedCode.fieldUnknown(WEBHOOKS),
  /** eventTypes absent, null or empty. */
  eventTypesMandatory: derivedCode.mandatory(WEBHOOKS, 'eventTypes'),
  /** eventTypes is not an array of at most 20 strings. */
  eventTypesInvalid: derivedCode.invalid(WEBHOOKS, 'eventTypes'),
  eventTypeUnknown: 'webhooks.eventtypes.unknown',
  callbackUrlMandatory: derivedCode.mandatory(WEBHOOKS, 'callbackUrl'),
  /** Not an absolute http(s) URL of at most 2048 characters, or one carrying credentials. */
  callbackUrlInvalid: derivedCode.invalid(WEBHOOKS, 'callbackUrl'),
  /** http:// to an address that is not private (or private ones are not allowed). */
  callbackUrlHttps: 'webhooks.callbackurl.https.required',
  /** A private, loopback or link-local address (or `localhost`) while they are not allowed. */
  callbackUrlPrivate: 'webhooks.callbackurl.private',
  secretInvalid: derivedCode.invalid(WEBHOOKS, 'secret'),
  /** headers is not an object, or holds more than 20 entries. */
  headersInvalid: derivedCode.invalid(WEBHOOKS, 'headers'),
  /** A name that is not an RFC 9110 token, or that repeats another one (case-insensitively). */
  headerNameInvalid: 'webhooks.headers.name.invalid',
  headerNameReserved: 'webhooks.headers.name.reserved',
  /** Not a string, longer than 1000 characters, or holding a line break or control character. */
  headerValueInvalid: 'webhooks.headers.value.invalid',
  subscriptionLimit: 'webhooks.subscription.limit',
  subscriptionNotFound: 'webhooks.subscription.notfound',
  deliveryNotFound: 'webhooks.delivery.notfound',
  /** Replay of a delivery that is still pending (its retries are scheduled). */
  deliveryPending: 'webhooks.delivery.pending',
  statusInvalid: derivedCode.invalid(WEBHOOKS, 'status'),
  continuationTokenInvalid: derivedCode.continuationTokenInvalid(WEBHOOKS),
  codeMandatory: `${WEBHOOKS}.code.mandatory`,
  codeInvalid: `${WEBHOOKS}.code.invalid`,
} as const;

const dateTime = (description: string) => z.string().meta({ format: 'date-time', description });

/* ---------------- subscriptions ---------------- */

export const SubscriptionBody = z
  .strictObject({
    eventTypes: z
      .array(z.string().max(100))
      .max(20)
      .meta({ description: `One or more of ${EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}` }),
    callbackUrl: z
      .string()
      .max(CALLBACK_URL_MAX)
      .meta({
        description:
          'Absolute `https://` URL. `http://` only to a private, loopback or link-local address, and only ' +
          'when the instance allows them (`FIELDWORK_WEBHOOKS_ALLOW_PRIVATE=1`); such addresses are refused ' +
          'otherwise, here and again at delivery time after DNS resolution.',
      }),
    secret: z
      .string()
      .min(SECRET_LENGTH.min)
      .max(SECRET_LENGTH.max)
      .regex(/^[\x21-\x7e]+$/, 'visible ASCII characters, no space')
      .nullish()
      .meta({
        description:
          `${SECRET_LENGTH.min}..${SECRET_LENGTH.max} visible ASCII characters. Sent back in \`x-service-secret\` ` +
          'and used to sign each callback (Standard Webhooks). Never returned.',
      }),
    headers: z
      .record(z.string(), z.unknown())
      .nullish()
      .meta({
        description:
          `Custom headers sent unchanged with every callback: at most ${MAX_CUSTOM_HEADERS}, names RFC 9110 ` +
          'tokens (case-insensitively unique, not one the service sets), values text of at most 1000 characters ' +
          'without line breaks.',
      }),
  })
  .meta({ id: 'SubscriptionBody' });
export type SubscriptionBody = z.input<typeof SubscriptionBody>;

export const Subscription = z
  .object({
    subscriptionId: z.string().meta({ format: 'uuid' }),
    eventTypes: z.array(z.string()),
    callbackUrl: z.string(),
    headers: z.record(z.string(), z.string()),
    createdAt: dateTime('UTC'),
    secretSet: z.boolean().meta({
      'x-extension': true,
      description:
        'Extension. Whether the subscription has a secret (callbacks then carry x-service-secret and a ' +
        'signature); the secret itself is never returned.',
    }),
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof Subscription>;

export const SubscriptionList = z.object({ data: z.array(Subscription) }).meta({ id: 'SubscriptionList' });

/* ---------------- deliveries (extensions) ---------------- */

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const Delivery = z
  .object({
    deliveryId: z
      .string()
      .meta({ format: 'uuid', description: 'The callback `id`: the same on every retry' }),
    subscriptionId: z.string(),
    eventType: z.string(),
    creationTime: dateTime('When the event was recorded'),
    status: z.enum(DELIVERY_STATUSES).meta({
      description:
        '`pending`: waiting for its first attempt or a retry; `delivered`: a 2xx arrived within 5 s; ' +
        '`failed`: given up 1 hour after the event',
    }),
    attempts: z.number().int(),
    nextAttemptAt: dateTime('The next retry (pending only)').nullable(),
    lastAttemptAt: dateTime('').nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastDurationMs: z.number().int().nullable(),
    lastError: z.string().nullable(),
    deliveredAt: dateTime('').nullable(),
  })
  .meta({ id: 'Delivery' });
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryAttempt = z
  .object({
    attempt: z.number().int(),
    time: dateTime('When the attempt started'),
    statusCode: z.number().int().nullable().meta({ description: 'null: no answer (refused, timeout...)' }),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    succeeded: z.boolean(),
  })
  .meta({ id: 'DeliveryAttempt' });

export const CallbackPayloadBase = z.object({
  version: z.literal('1'),
  id: z.string().meta({ format: 'uuid', description: 'Unique id of the callback, the same on every retry' }),
  creationTime: dateTime('UTC, RFC 3339'),
  eventType: z.string(),
  subscriptionId: z.string(),
  changeId: z.string().optional().meta({
    description:
      'Extension: the id of the change log entry of the change reported (its history line and feed entry; docs/api/changes.md). Absent for a test event.',
  }),
  data: z.record(z.string(), z.unknown()),
});

export const DeliveryDetail = Delivery.extend({
  payload: CallbackPayloadBase.meta({ description: 'The body POSTed on every attempt' }),
  attemptHistory: z.array(DeliveryAttempt),
}).meta({ id: 'DeliveryDetail' });
export type DeliveryDetail = z.infer<typeof DeliveryDetail>;

export const DeliveryPage = Page(Delivery).meta({ id: 'DeliveryPage' });

/* ---------------- callbacks: the `data` of each event ---------------- */

export const Actor = z
  .object({
    type: z.enum(['webUser', 'technician', 'process', 'webService']),
    identifier: z.string().meta({
      description:
        'webService: the OAuth 2.0 application name; webUser: the console login; process: the command ' +
        '(`fieldwork import`, `fieldwork workorders`)',
    }),
  })
  .meta({ id: 'Actor', description: 'Who made the change (spec: Authentication 6)' });

export const AssetUpsertData = z
  .object({
    updatedAt: dateTime('When the asset was written'),
    assetCode: z.string(),
    officeCode: z.string(),
    actor: Actor.optional(),
  })
  .meta({ id: 'AssetUpsertData' });

export const WorkOrderDeletionData = z
  .object({
    deletedAt: dateTime('When the work order was deleted'),
    workOrderCode: z.string(),
    uuid: z.string().meta({ format: 'uuid' }),
    officeCode: z.string(),
    actor: Actor.optional(),
  })
  .meta({ id: 'WorkOrderDeletionData' });

export const WorkOrderValidationData = z
  .object({
    validatedAt: dateTime('When the work order was validated'),
    workOrderCode: z.string(),
    uuid: z.string().meta({ format: 'uuid' }),
    officeCode: z.string(),
    actor: Actor.optional(),
  })
  .meta({ id: 'WorkOrderValidationData' });

export const StatusScheduledData = z
  .object({
    updatedAt: dateTime('When the work order was scheduled'),
    workOrderCode: z.string(),
    uuid: z.string().meta({ format: 'uuid' }),
    officeCode: z.string(),
    status: z.literal('SCHEDULED'),
    technicianCode: z.string().meta({ description: "The technician, or the crew's main resource" }),
    crewCode: z.string().nullable(),
    scheduledStart: dateTime('UTC'),
    scheduledEnd: dateTime("UTC: the start plus the work order type's duration"),
    actor: Actor.optional(),
  })
  .meta({ id: 'StatusScheduledData' });

export const WebhooksTestData = z
  .object({
    message: z.string(),
    requestedAt: dateTime('When the test was requested'),
    actor: Actor,
  })
  .meta({ id: 'WebhooksTestData' });

/** The callback body of one event type. */
const payloadOf = <T extends z.ZodType>(id: string, eventType: string, data: T) =>
  CallbackPayloadBase.extend({ eventType: z.literal(eventType), data }).meta({ id });

/** One callback kind, as the OpenAPI document's `webhooks` section shows it. */
export interface WebhookEventDoc {
  eventType: string;
  summary: string;
  payload: z.ZodType;
}

export const webhookEvents: readonly WebhookEventDoc[] = [
  {
    eventType: 'asset.upsert',
    summary:
      'An asset was created or updated (REST API, console or import); creation and update are not told ' +
      'apart. A PUT or import that changes nothing emits nothing.',
    payload: payloadOf('AssetUpsertCallback', 'asset.upsert', AssetUpsertData),
  },
  {
    eventType: 'workorder.deletion',
    summary: 'A work order was deleted (console, API extension or `fieldwork workorders delete`).',
    payload: payloadOf('WorkOrderDeletionCallback', 'workorder.deletion', WorkOrderDeletionData),
  },
  {
    eventType: 'workorder.validation',
    summary: 'A work order was validated (status VALIDATED).',
    payload: payloadOf('WorkOrderValidationCallback', 'workorder.validation', WorkOrderValidationData),
  },
  {
    eventType: 'status.scheduled',
    summary:
      'A work order was scheduled on a technician or a crew (status SCHEDULED), including a reschedule.',
    payload: payloadOf('StatusScheduledCallback', 'status.scheduled', StatusScheduledData),
  },
  {
    eventType: TEST_EVENT_TYPE,
    summary:
      'Sent only by `POST .../subscriptions/{subscriptionId}/test` (extension), whatever the event types of ' +
      'the subscription.',
    payload: payloadOf('WebhooksTestCallback', TEST_EVENT_TYPE, WebhooksTestData),
  },
];

/* ---------------- endpoints ---------------- */

const SubscriptionParams = z.object({ subscriptionId: z.string() });
const DeliveryParams = z.object({ subscriptionId: z.string(), deliveryId: z.string() });
const pathErrors = [WebhooksCodes.codeMandatory, WebhooksCodes.codeInvalid];

export const createSubscription = endpoint({
  id: 'webhooks.subscriptions.create',
  method: 'POST',
  path: BASE,
  domain: 'webhooks',
  range: 'standard',
  summary:
    `Subscribes the calling application to event types (201; the secret is never returned). At most ` +
    `${SUBSCRIPTION_LIMIT} subscriptions per application; a subscription cannot be modified: create another ` +
    'one and delete the old one. Only events of your office and the offices below it are delivered.',
  errorPrefix: WEBHOOKS,
  body: SubscriptionBody,
  responses: { 201: Subscription },
  errors: {
    400: [
      WebhooksCodes.eventTypesMandatory,
      WebhooksCodes.eventTypesInvalid,
      WebhooksCodes.eventTypeUnknown,
      WebhooksCodes.callbackUrlMandatory,
      WebhooksCodes.callbackUrlInvalid,
      WebhooksCodes.callbackUrlHttps,
      WebhooksCodes.callbackUrlPrivate,
      WebhooksCodes.secretInvalid,
      WebhooksCodes.headersInvalid,
      WebhooksCodes.headerNameInvalid,
      WebhooksCodes.headerNameReserved,
      WebhooksCodes.headerValueInvalid,
      WebhooksCodes.subscriptionLimit,
    ],
  },
});

export const listSubscriptions = endpoint({
  id: 'webhooks.subscriptions.list',
  method: 'GET',
  path: BASE,
  domain: 'webhooks',
  range: 'standard',
  summary: `The subscriptions of the calling application (at most ${SUBSCRIPTION_LIMIT}), oldest first.`,
  errorPrefix: WEBHOOKS,
  responses: { 200: SubscriptionList },
});

export const deleteSubscription = endpoint({
  id: 'webhooks.subscriptions.delete',
  method: 'DELETE',
  path: `${BASE}/{subscriptionId}`,
  domain: 'webhooks',
  range: 'standard',
  summary:
    'Deletes one subscription of the calling application, with its pending callbacks and delivery history ' +
    '(204). Another application’s subscription is unknown (404).',
  errorPrefix: WEBHOOKS,
  params: SubscriptionParams,
  responses: { 204: undefined },
  errors: { 400: pathErrors, 404: [WebhooksCodes.subscriptionNotFound] },
});

export const listDeliveries = endpoint({
  id: 'webhooks.deliveries.list',
  method: 'GET',
  path: `${BASE}/{subscriptionId}/deliveries`,
  domain: 'webhooks',
  range: 'standard',
  summary:
    `The delivery log of a subscription, newest first, ${DELIVERIES_PAGE_SIZE} a page: status, attempts, ` +
    'next retry, last answer. Filter with `status`. Kept 15 days.',
  errorPrefix: WEBHOOKS,
  params: SubscriptionParams,
  query: z.strictObject({
    status: z.enum(DELIVERY_STATUSES).optional(),
    continuationToken: z.string().optional(),
  }),
  responses: { 200: DeliveryPage },
  errors: {
    400: [
      WebhooksCodes.statusInvalid,
      WebhooksCodes.continuationTokenInvalid,
      WebhooksCodes.fieldUnknown,
      ...pathErrors,
    ],
    404: [WebhooksCodes.subscriptionNotFound],
  },
  extension: true,
});

export const getDelivery = endpoint({
  id: 'webhooks.deliveries.get',
  method: 'GET',
  path: `${BASE}/{subscriptionId}/deliveries/{deliveryId}`,
  domain: 'webhooks',
  range: 'standard',
  summary:
    'One delivery of a subscription: the payload it POSTs and every attempt (time, status, duration, error).',
  errorPrefix: WEBHOOKS,
  params: DeliveryParams,
  responses: { 200: DeliveryDetail },
  errors: {
    400: pathErrors,
    404: [WebhooksCodes.subscriptionNotFound, WebhooksCodes.deliveryNotFound],
  },
  extension: true,
});

export const replayDelivery = endpoint({
  id: 'webhooks.deliveries.replay',
  method: 'POST',
  path: `${BASE}/{subscriptionId}/deliveries/{deliveryId}/replay`,
  domain: 'webhooks',
  range: 'standard',
  summary:
    'Delivers a delivered or failed callback again, with the same `id` (receivers de-duplicate on it) and a ' +
    'new hour of retries (202). A pending one is refused: its retries are already scheduled.',
  errorPrefix: WEBHOOKS,
  params: DeliveryParams,
  responses: { 202: Delivery },
  errors: {
    400: [WebhooksCodes.deliveryPending, ...pathErrors],
    404: [WebhooksCodes.subscriptionNotFound, WebhooksCodes.deliveryNotFound],
  },
  extension: true,
});

export const sendTestEvent = endpoint({
  id: 'webhooks.subscriptions.test',
  method: 'POST',
  path: `${BASE}/{subscriptionId}/test`,
  domain: 'webhooks',
  range: 'standard',
  summary: `Queues a \`${TEST_EVENT_TYPE}\` callback to the subscription (202), delivered and retried like any other.`,
  errorPrefix: WEBHOOKS,
  params: SubscriptionParams,
  responses: { 202: Delivery },
  errors: { 400: pathErrors, 404: [WebhooksCodes.subscriptionNotFound] },
  extension: true,
});

/** The webhooks endpoints by name, in the order of the OpenAPI document (contract/domains.ts). */
export const getSubscriptionHistory = historyEndpoint({
  id: 'webhooks.subscriptions.history',
  domain: 'webhooks',
  recordPath: `${BASE}/{subscriptionId}`,
  errorPrefix: WEBHOOKS,
  params: SubscriptionParams,
  notFound: [WebhooksCodes.subscriptionNotFound],
  continuationTokenInvalid: WebhooksCodes.continuationTokenInvalid,
  label: 'a subscription of the calling application (its secret never shown)',
});

export const webhooksEndpoints = {
  createSubscription,
  listSubscriptions,
  deleteSubscription,
  getSubscriptionHistory,
  listDeliveries,
  getDelivery,
  replayDelivery,
  sendTestEvent,
};
