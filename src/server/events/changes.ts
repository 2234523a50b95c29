/**
 * Who a change log entry names (issue 29, 1). The entries are written by the database
 * itself (migration 100: a deferred trigger on every record table, at COMMIT), so every
 * write path records its changes; what it cannot know is the actor. A request's caller,
 * or an operator's command, is put in context here (`asActor`); the connection that runs
 * its writes carries it as `fieldwork.actor`, set with the tenant (db/tenant.ts). A write
 * without one is the process `fieldwork`.
 */
import * as session from '../db/tenant.ts';

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

/** How `actor` travels to the connection (`fieldwork.actor`): JSON `{type, identifier}`. */
export const actorState = (actor: { type: string; identifier: string }) =>
  JSON.stringify({ type: actor.type, identifier: actor.identifier });

/** Runs `fn` with `actor` as the author of the changes it commits (the command line, tests). */
export function asActor<T>(actor: { type: string; identifier: string }, fn: () => T): T {
  return session.asActor(actorState(actor), fn);
}
