/**
 * Rules of webhook subscriptions (spec: Subscription rules): at most 3 per application, no
 * update, every refusal with its own `webhooks.*` code, callback URLs that do not reach the
 * operator's network unless allowed. The delivery log, replay and test event are extensions.
 */
import { isOneOf } from '../../../contract/guards.ts';
import {
  WebhooksCodes as C,
  DELIVERIES_PAGE_SIZE,
  type Delivery,
  type DeliveryDetail,
  type DeliveryStatus,
  EVENT_TYPES,
  HEADER_NAME,
  HEADER_VALUE,
  listDeliveries as listDeliveriesRow,
  MAX_CUSTOM_HEADERS,
  RESERVED_HEADERS,
  SUBSCRIPTION_LIMIT,
  type Subscription,
  TEST_EVENT_TYPE,
} from '../../../contract/webhooks.ts';
import type { Db } from '../../db/index.ts';
import { checkCallbackUrl } from '../../events/addresses.ts';
import { actorOf, notifyOutbox } from '../../events/index.ts';
import { callbackBody } from '../../events/payload.ts';
import type { Caller } from '../../platform/caller.ts';
import { ApiError, badRequest, type ErrorItem, notFound } from '../../platform/errors.ts';
import { isString, type PageTokens, pageRequest } from '../../platform/pagination.ts';
import { rfc3339 } from '../../platform/time.ts';
import { writeTransaction } from '../../platform/transactions.ts';
import {
  attemptsOf,
  countSubscriptions,
  type DeliveryRow,
  deleteSubscription as deleteRow,
  deliveriesOf,
  deliveryOf,
  insertDelivery,
  insertSubscription,
  lockOwner,
  ownerOf,
  requeueDelivery,
  subscriptionOf,
  subscriptionsOf,
} from './queries.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RESERVED = new Set<string>(RESERVED_HEADERS);

type SubscriptionRow = {
  id: string;
  event_types: string[];
  callback_url: string;
  headers: Record<string, string>;
  created_at: Date;
  secret_set: boolean;
};

const toSubscription = (r: SubscriptionRow): Subscription => ({
  subscriptionId: r.id,
  eventTypes: r.event_types,
  callbackUrl: r.callback_url,
  headers: r.headers,
  createdAt: rfc3339(r.created_at),
  secretSet: r.secret_set,
});

const at = (d: Date | null) => (d ? rfc3339(d) : null);

function toDelivery(r: DeliveryRow): Delivery {
  return {
    deliveryId: r.id,
    subscriptionId: r.subscription_id,
    eventType: r.event_type,
    creationTime: rfc3339(r.created_at),
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.status === 'pending' ? at(r.next_attempt_at) : null,
    lastAttemptAt: at(r.last_attempt_at),
    lastStatusCode: r.last_status_code,
    lastDurationMs: r.last_duration_ms,
    lastError: r.last_error,
    deliveredAt: r.status === 'delivered' ? at(r.finished_at) : null,
  };
}

/** Refusals of the custom headers, by code (every problem is reported at once). */
function headerErrors(headers: Record<string, unknown>): ErrorItem[] {
  const entries = Object.entries(headers);
  if (entries.length > MAX_CUSTOM_HEADERS)
    return [{ code: C.headersInvalid, message: `headers: at most ${MAX_CUSTOM_HEADERS} custom headers` }];
  const problems = new Map<string, string[]>();
  const add = (code: string, message: string) => problems.set(code, [...(problems.get(code) ?? []), message]);
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name))
      add(
        C.headerNameInvalid,
        `"${name}" is not a header name (letters, digits and !#$%&'*+-.^_\`|~, 1 to 100)`,
      );
    else if (seen.has(lower))
      add(C.headerNameInvalid, `"${name}" appears twice (names are case-insensitive)`);
    else if (RESERVED.has(lower))
      add(C.headerNameReserved, `"${name}" is set by the service or the connection`);
    seen.add(lower);
    if (typeof value !== 'string' || !HEADER_VALUE.test(value))
      add(
        C.headerValueInvalid,
        `"${name}": the value must be text of at most 1000 characters without line breaks or control characters`,
      );
  }
  return [...problems].map(([code, messages]) => ({ code, message: `headers: ${messages.join('; ')}` }));
}

/** POST: checks everything, then creates within the owner's limit (one transaction). */
export async function createSubscription(
  db: Db,
  caller: Caller,
  body: {
    eventTypes: string[];
    callbackUrl: string;
    secret?: string | null;
    headers?: Record<string, unknown> | null;
  },
  allowPrivate: boolean,
): Promise<Subscription> {
  const errors: ErrorItem[] = [];
  const eventTypes = [...new Set(body.eventTypes)];
  if (eventTypes.length === 0)
    errors.push({ code: C.eventTypesMandatory, message: 'eventTypes: name at least one event type' });
  const unknown = eventTypes.filter((t) => !isOneOf(EVENT_TYPES, t));
  if (unknown.length)
    errors.push({
      code: C.eventTypeUnknown,
      message: `eventTypes: unknown ${unknown.map((t) => `"${t}"`).join(', ')} (known: ${EVENT_TYPES.join(', ')})`,
    });
  const url = checkCallbackUrl(body.callbackUrl, allowPrivate);
  if (url) errors.push({ code: url.code, message: `callbackUrl: ${url.message}` });
  const headers = body.headers ?? {};
  errors.push(...headerErrors(headers));
  if (errors.length) throw new ApiError(400, errors);

  const owner = ownerOf(caller);
  return writeTransaction(db, async (trx) => {
    await lockOwner(trx, owner);
    if ((await countSubscriptions(trx, owner)) >= SUBSCRIPTION_LIMIT)
      throw badRequest(
        C.subscriptionLimit,
        `An application holds at most ${SUBSCRIPTION_LIMIT} subscriptions: delete one first`,
      );
    const row = await insertSubscription(trx, owner, {
      eventTypes,
      callbackUrl: body.callbackUrl,
      secret: body.secret ?? null,
      headers: headers as Record<string, string>,
    });
    return toSubscription(row);
  });
}

export async function listSubscriptions(db: Db, caller: Caller): Promise<{ data: Subscription[] }> {
  return { data: (await subscriptionsOf(db, ownerOf(caller))).map(toSubscription) };
}

const subscriptionNotFound = (id: string) =>
  notFound(C.subscriptionNotFound, `Subscription ${id} does not exist (or belongs to another application)`);

export async function deleteSubscription(db: Db, caller: Caller, id: string): Promise<void> {
  if (!UUID.test(id) || !(await deleteRow(db, ownerOf(caller), id.toLowerCase())))
    throw subscriptionNotFound(id);
}

/** The caller's subscription of this id, or 404. */
export async function ownSubscription(db: Db, caller: Caller, id: string) {
  const row = UUID.test(id) ? await subscriptionOf(db, ownerOf(caller), id.toLowerCase()) : undefined;
  if (!row) throw subscriptionNotFound(id);
  return row;
}

async function ownDelivery(db: Db, caller: Caller, subscriptionId: string, deliveryId: string) {
  const subscription = await ownSubscription(db, caller, subscriptionId);
  const row = UUID.test(deliveryId)
    ? await deliveryOf(db, subscription.id, deliveryId.toLowerCase())
    : undefined;
  if (!row) throw notFound(C.deliveryNotFound, `Delivery ${deliveryId} of this subscription does not exist`);
  return row;
}

export async function listDeliveries(
  db: Db,
  caller: Caller,
  tokens: PageTokens,
  subscriptionId: string,
  query: { status?: DeliveryStatus; continuationToken?: string },
) {
  const subscription = await ownSubscription(db, caller, subscriptionId);
  const request = pageRequest(
    tokens,
    {
      id: listDeliveriesRow.id,
      filters: { subscription: subscription.id, status: query.status ?? null },
      invalidCode: C.continuationTokenInvalid,
      isKey: (p): p is string => isString(p) && /^\d+$/.test(p),
    },
    query.continuationToken,
  );
  const rows = await deliveriesOf(
    db,
    subscription.id,
    { status: query.status, afterSeq: request.after },
    DELIVERIES_PAGE_SIZE + 1,
  );
  return request.page(rows, DELIVERIES_PAGE_SIZE, toDelivery, (r) => String(r.seq));
}

export async function getDelivery(
  db: Db,
  caller: Caller,
  subscriptionId: string,
  deliveryId: string,
): Promise<DeliveryDetail> {
  const row = await ownDelivery(db, caller, subscriptionId, deliveryId);
  const attempts = await attemptsOf(db, row.id);
  return {
    ...toDelivery(row),
    payload: callbackBody(row),
    attemptHistory: attempts.map((a) => ({
      attempt: a.attempt,
      time: rfc3339(a.started_at),
      statusCode: a.status_code,
      durationMs: a.duration_ms,
      error: a.error,
      succeeded: a.succeeded,
    })),
  };
}

/** Replay: a delivered or failed callback goes out again (same id), with a new hour of retries. */
export async function replayDelivery(
  db: Db,
  caller: Caller,
  subscriptionId: string,
  deliveryId: string,
): Promise<Delivery> {
  const row = await ownDelivery(db, caller, subscriptionId, deliveryId);
  return writeTransaction(db, async (trx) => {
    const replayed = await requeueDelivery(trx, row.subscription_id, row.id);
    if (!replayed)
      throw badRequest(
        C.deliveryPending,
        'This delivery is still pending: its next attempt is already scheduled (see nextAttemptAt)',
      );
    await notifyOutbox(trx);
    return toDelivery(replayed);
  });
}

/** Test event: a `webhooks.test` callback to this subscription, delivered like any other. */
export async function sendTestEvent(db: Db, caller: Caller, subscriptionId: string): Promise<Delivery> {
  const subscription = await ownSubscription(db, caller, subscriptionId);
  return writeTransaction(db, async (trx) => {
    const row = await insertDelivery(trx, subscription.id, TEST_EVENT_TYPE, {
      message: 'Test callback requested from Fieldwork',
      requestedAt: rfc3339(new Date()),
      actor: actorOf(caller),
    });
    await notifyOutbox(trx);
    return toDelivery(row);
  });
}
