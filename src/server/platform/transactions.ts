import type { Db } from '../db/index.ts';

/** PostgreSQL's deadlock_detected: of two transactions waiting on each other, one is aborted. */
const DEADLOCK = '40P01';
const ATTEMPTS = 3;

/**
 * Runs `fn` in a transaction, and again when PostgreSQL aborted it to break a deadlock
 * (nothing of it was written). Writes take their locks in one order, so a deadlock needs a
 * rare race (a hierarchy gaining a new root while a write locks it: referentials/queries.ts);
 * the caller then gets its answer, not a 500.
 */
export async function writeTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn);
    } catch (e) {
      if (attempt >= ATTEMPTS || (e as { code?: unknown }).code !== DEADLOCK) throw e;
    }
  }
}
