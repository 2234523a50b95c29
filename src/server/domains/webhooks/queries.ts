/**
 * SQL of the webhooks endpoints. Every read and write of a subscription is filtered by its
 * owner (the calling application or console user) in SQL: another owner's subscription is
 * unknown, like one that does not exist. The worker's SQL is in src/server/events/outbox.ts.
 */
import { sql } from 'kysely';
import type { DeliveryStatus } from '../../../contract/webhooks.ts';
import type { Db } from '../../db/index.ts';
import type { Caller } from '../../platform/caller.ts';
import { jsonb } from '../../platform/upsert.ts';

/** Who owns a subscription: an application or a console user. */
export type Owner = { application_id: string } | { user_id: string };

export const ownerOf = (caller: Pick<Caller, 'kind' | 'id'>): Owner =>
  caller.kind === 'application' ? { application_id: caller.id } : { user_id: caller.id };

const ownerColumn = (owner: Owner) => ('application_id' in owner ? 'application_id' : 'user_id');
const ownerId = (owner: Owner) => ('application_id' in owner ? owner.application_id : owner.user_id);

/** Serialises the creations of one owner (the limit of 3 holds under concurrent POSTs). */
export async function lockOwner(trx: Db, owner: Owner): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(727276, hashtext(${`${ownerColumn(owner)}:${ownerId(owner)}`}))`.execute(
    trx,
  );
}

export async function countSubscriptions(db: Db, owner: Owner): Promise<number> {
  const row = await db
    .selectFrom('webhook_subscriptions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where(ownerColumn(owner), '=', ownerId(owner))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const SUBSCRIPTION_COLUMNS = [
  'id',
  'event_types',
  'callback_url',
  'headers',
  'created_at',
  // Whether one is set, never the secret itself (the subscription's secretSet).
  sql<boolean>`secret IS NOT NULL`.as('secret_set'),
] as const;

export function insertSubscription(
  db: Db,
  owner: Owner,
  s: { eventTypes: string[]; callbackUrl: string; secret: string | null; headers: Record<string, string> },
) {
  return db
    .insertInto('webhook_subscriptions')
    .values({
      ...owner,
      event_types: sql<string[]>`${s.eventTypes}::text[]`,
      callback_url: s.callbackUrl,
      secret: s.secret,
      headers: jsonb(s.headers),
    })
    .returning(SUBSCRIPTION_COLUMNS)
    .executeTakeFirstOrThrow();
}

export function subscriptionsOf(db: Db, owner: Owner) {
  return db
    .selectFrom('webhook_subscriptions')
    .select(SUBSCRIPTION_COLUMNS)
    .where(ownerColumn(owner), '=', ownerId(owner))
    .orderBy('seq')
    .execute();
}

export function subscriptionOf(db: Db, owner: Owner, id: string) {
  return db
    .selectFrom('webhook_subscriptions')
    .select(SUBSCRIPTION_COLUMNS)
    .where('id', '=', id)
    .where(ownerColumn(owner), '=', ownerId(owner))
    .executeTakeFirst();
}

/** Deletes the subscription, its callbacks and their attempts (cascade); false when not the owner's. */
export async function deleteSubscription(db: Db, owner: Owner, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhook_subscriptions')
    .where('id', '=', id)
    .where(ownerColumn(owner), '=', ownerId(owner))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

const DELIVERY_COLUMNS = [
  'id',
  'seq',
  'subscription_id',
  'event_type',
  'data',
  'change_id',
  'created_at',
  'status',
  'attempts',
  'next_attempt_at',
  'last_attempt_at',
  'last_status_code',
  'last_duration_ms',
  'last_error',
  'finished_at',
] as const;

/** A page of the delivery log of one subscription, newest first (keyset on seq). */
export function deliveriesOf(
  db: Db,
  subscriptionId: string,
  filter: { status?: DeliveryStatus; afterSeq?: string },
  limit: number,
) {
  let q = db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_COLUMNS)
    .where('subscription_id', '=', subscriptionId)
    .orderBy('seq', 'desc')
    .limit(limit);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.afterSeq !== undefined) q = q.where('seq', '<', filter.afterSeq);
  return q.execute();
}

export function deliveryOf(db: Db, subscriptionId: string, id: string) {
  return db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_COLUMNS)
    .where('id', '=', id)
    .where('subscription_id', '=', subscriptionId)
    .executeTakeFirst();
}
export type DeliveryRow = NonNullable<Awaited<ReturnType<typeof deliveryOf>>>;

export function attemptsOf(db: Db, deliveryId: string) {
  return db
    .selectFrom('webhook_attempts')
    .select(['attempt', 'started_at', 'status_code', 'duration_ms', 'error', 'succeeded'])
    .where('delivery_id', '=', deliveryId)
    .orderBy('id')
    .execute();
}

/**
 * Puts a finished callback back in the outbox, due now, with a new hour of retries; its
 * attempts so far stay in its history. Undefined when it is still pending (or unknown).
 */
export function requeueDelivery(db: Db, subscriptionId: string, id: string) {
  return db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      next_attempt_at: sql<Date>`clock_timestamp()`,
      window_start: sql<Date>`clock_timestamp()`,
      window_attempts: 0,
      finished_at: null,
      claim: null,
    })
    .where('id', '=', id)
    .where('subscription_id', '=', subscriptionId)
    .where('status', '<>', 'pending')
    .returning(DELIVERY_COLUMNS)
    .executeTakeFirst();
}

/** Queues one callback to one subscription, whatever its event types (the test event). */
export function insertDelivery(
  db: Db,
  subscriptionId: string,
  eventType: string,
  data: Record<string, unknown>,
) {
  return db
    .insertInto('webhook_deliveries')
    .values({ subscription_id: subscriptionId, event_type: eventType, data: jsonb(data) })
    .returning(DELIVERY_COLUMNS)
    .executeTakeFirstOrThrow();
}
