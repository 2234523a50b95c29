/**
 * Retention of the change log (FIELDWORK_CHANGES_RETENTION_DAYS, default 90): entries older
 * than that are deleted in the background, a bounded batch per statement so that no
 * statement holds many rows or runs long; the feed then answers 410 to a cursor before them.
 * Every process prunes (the statements take disjoint rows or none); the work is idempotent.
 */
import type { Db } from '../../db/index.ts';
import { pruneBatch } from './queries.ts';

export interface PrunerOptions {
  /** The owner's handle: pruning crosses tenants. */
  db: Db;
  retentionDays: number;
  /** Entries per statement. */
  batch?: number;
  /** Between two runs. */
  intervalMs?: number;
  onError: (err: unknown) => void;
}

/** Deletes every entry older than the retention, batch after batch; returns how many. */
export async function pruneChanges(db: Db, retentionDays: number, batch = 1000): Promise<number> {
  const cutoff = new Date(Date.now() - retentionDays * 86_400_000);
  let total = 0;
  for (;;) {
    const n = await pruneBatch(db, cutoff, batch);
    total += n;
    if (n < batch) return total;
  }
}

/** Runs pruneChanges now and every `intervalMs` (an hour by default) until stopped. */
export function startPruner(opts: PrunerOptions): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = pruneChanges(opts.db, opts.retentionDays, opts.batch).catch(opts.onError);
  };
  const timer = setInterval(run, opts.intervalMs ?? 3_600_000);
  timer.unref();
  run();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
