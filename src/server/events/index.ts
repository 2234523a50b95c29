/**
 * Events of the spec's webhooks (Events section), recorded by the change that causes them,
 * inside its transaction. The webhooks work (issue 13) turns `recordEvent` into the
 * transactional outbox; until it lands on main, domains already call it at the one place
 * each change is announced.
 */
import type { Db } from '../db/index.ts';
import type { Caller } from '../platform/caller.ts';

export type EventType = 'asset.upsert' | 'workorder.deletion' | 'workorder.validation' | 'status.scheduled';

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

/** Records an event in the caller's transaction (issue 13 makes it the outbox). */
export async function recordEvent(_trx: Db, _event: DomainEvent): Promise<void> {}
