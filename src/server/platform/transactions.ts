import type { Db } from '../db/index.ts';
import { noteCommitted } from '../events/changes.ts';
import { errorCode } from './thrown.ts';

/**
 * PostgreSQL's deadlock_detected (of two transactions waiting on each other, one is aborted)
 * and serialization_failure (a concurrent update made the transaction's view stale): in
 * both, nothing of the aborted transaction was written and running it again is the answer.
 */
const RETRIED = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

/**
 * The one transaction of every write: runs `fn` in a transaction, and again when PostgreSQL
 * aborted it to break a deadlock or a serialization conflict. Writes take their locks in
 * one order, so a deadlock needs a rare race (a hierarchy gaining a new root while a write
 * locks it: referentials/queries.ts); the caller then gets its answer, not a 500. `fn` may
 * run more than once: it keeps its state inside, and its effects are the transaction's
 * (the outbox's events included, and the change log's entries, whose actor the connection
 * carries: events/changes.ts). Once committed, the change streams are told.
 */
export async function writeTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await db.transaction().execute(fn);
      noteCommitted();
      return result;
    } catch (e) {
      const code = errorCode(e);
      if (attempt >= ATTEMPTS || code === undefined || !RETRIED.has(code)) throw e;
    }
  }
}
