/**
 * Who a change log entry names (issue 29, 1). The entries are written by the database
 * itself (migration 100: a deferred trigger on every record table, at COMMIT), so every
 * write path records its changes; what it cannot know is the actor. A request's caller,
 * or an operator's command, is put in context here (`asActor`), and `writeTransaction`
 * hands it to the transaction as `fieldwork.actor`; a transaction without one is the
 * process `fieldwork`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'kysely';
import type { ChangeActor } from '../../contract/changes.ts';
import type { Db } from '../db/index.ts';

const context = new AsyncLocalStorage<string>();
const committed = new Set<() => void>();

/** Calls `listener` after each commit of writeTransaction (the change streams); returns its removal. */
export function onCommitted(listener: () => void): () => void {
  committed.add(listener);
  return () => committed.delete(listener);
}

/** A writeTransaction committed: its entries are in the log. */
export function noteCommitted(): void {
  for (const listener of committed) listener();
}

/** Runs `fn` with `actor` as the author of the changes it commits. */
export function asActor<T>(actor: { type: string; identifier: string }, fn: () => T): T {
  return context.run(JSON.stringify({ type: actor.type, identifier: actor.identifier }), fn);
}

/** Names the actor of the transaction `trx` (writeTransaction does it from the context). */
export async function setChangeActor(trx: Db, actor?: ChangeActor): Promise<void> {
  const value = actor ? JSON.stringify(actor) : context.getStore();
  if (value === undefined) return;
  await sql`SELECT set_config('fieldwork.actor', ${value}, true)`.execute(trx);
}
