/**
 * Events of the spec's webhooks (Events section), recorded by the change that causes them,
 * inside its transaction: the transactional outbox (issue 13).
 *
 * `recordEvent` fans the event out at record time: it inserts one `webhook_deliveries` row
 * per subscription that names the event type and whose owner's office tree holds the
 * event's office, in one statement of the caller's transaction. So a callback exists if and
 * only if the change committed; a subscription created later does not receive earlier
 * events; deleting a subscription deletes its pending callbacks. The delivery worker
 * (`worker.ts`) is woken at commit: by PostgreSQL's NOTIFY (sent by the same statement,
 * delivered by PostgreSQL at commit to every process) or, on PGlite (one process), by an
 * in-process signal whose claim query waits for the recording transaction to end.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { EventType } from '../../contract/webhooks.ts';
import type { Db } from '../db/index.ts';
import type { Caller } from '../platform/caller.ts';
import { pathAbove } from '../platform/officeScope.ts';

export type { EventType };

/** Who caused a change (spec: asset.upsert `actor`; Authentication 6). */
export interface Actor {
  type: 'webUser' | 'technician' | 'process' | 'webService';
  identifier: string;
}

/** The actor of a request's caller, or of an operator's command (`process`). */
export function actorOf(caller: Pick<Caller, 'kind' | 'name'> | { process: string }): Actor {
  if ('process' in caller) return { type: 'process', identifier: caller.process };
  return { type: caller.kind === 'user' ? 'webUser' : 'webService', identifier: caller.name };
}

export interface DomainEvent {
  type: EventType;
  /** offices.id of the record: only subscribers whose tree holds it receive the event. */
  officeId: string;
  /** The event's `data` (spec: Callback payload), already in its JSON shape. */
  data: Record<string, unknown>;
}

/**
 * Wakes the delivery workers of this process when callbacks were queued (PGlite; on
 * PostgreSQL the workers listen to NOTIFY instead, which arrives after the commit).
 */
export const outboxSignal = new EventEmitter();
outboxSignal.setMaxListeners(0);

/** Name of the NOTIFY channel of the outbox of `schema` (each schema has its own outbox). */
export const outboxChannel = (schema: string) => `fieldwork_webhooks:${schema}`;

/** Tells the workers of every process that callbacks are due (the NOTIFY goes out at commit). */
export async function notifyOutbox(trx: Db): Promise<void> {
  await sql`SELECT pg_notify('fieldwork_webhooks:' || current_schema(), '')`.execute(trx);
  outboxSignal.emit('queued');
}

/**
 * The change log's name of the record an event reports (`<kind>:<code>`): the log's entry
 * of this transaction and record gives the callback its `changeId` at COMMIT (migration 102).
 */
function recordOf(event: DomainEvent): string {
  const kind = event.type === 'asset.upsert' ? 'asset' : 'workOrder';
  return `${kind}:${String(event.type === 'asset.upsert' ? event.data.assetCode : event.data.workOrderCode)}`;
}

/**
 * Records an event in the caller's transaction: one callback per matching subscription
 * (the event type among its types; the event's office in the tree of the subscription's
 * application or user; the application not disabled). One statement, which also sends the
 * NOTIFY when it queued something.
 */
export async function recordEvent(trx: Db, event: DomainEvent): Promise<void> {
  const { rows } = await sql<{ queued: number }>`
    WITH queued AS (
      INSERT INTO webhook_deliveries (subscription_id, event_type, data, change_tx, change_record)
      SELECT s.id, ${event.type}, ${JSON.stringify(event.data)}::text::jsonb, pg_current_xact_id(), ${recordOf(event)}
      FROM webhook_subscriptions s
      LEFT JOIN applications a ON a.id = s.application_id
      LEFT JOIN users u ON u.id = s.user_id
      JOIN offices so ON so.id = COALESCE(a.office_id, u.office_id)
      WHERE ${event.type}::text = ANY (s.event_types)
        AND a.disabled_at IS NULL
        AND ${pathAbove('so.path', sql<string>`(SELECT o.path FROM offices o WHERE o.id = ${event.officeId}::bigint)`)}
      RETURNING 1
    )
    SELECT count(*)::int AS queued,
           pg_notify('fieldwork_webhooks:' || current_schema(), count(*)::text),
           set_config('fieldwork.callbacks_queued', '1', true)
    FROM queued HAVING count(*) > 0
  `.execute(trx);
  if (rows.length > 0) outboxSignal.emit('queued');
}
