/**
 * Other processes' commits reach the streams at once (issue 29, 3: LISTEN/NOTIFY).
 *
 * After a commit of this process (writeTransaction), one NOTIFY on the schema's channel,
 * outside the commit and at most every NOTIFY_GAP_MS: a burst of commits costs one
 * notification, and no commit waits on PostgreSQL's global notify lock (migration 103 took
 * the NOTIFY out of the commit for that). Every other process listening on the schema
 * wakes its hub, which reads the log (the log stays the bus: a notification carries no
 * entry, and one lost costs only the hub's poll interval). A lost listening connection
 * reconnects by itself (DbHandle.listen) and wakes the hub when it is back.
 *
 * The command line announces its commits too (DomainModule.commandSession), without
 * listening. PGlite is one process: its commits wake its hub directly (onCommitted).
 */
import { randomBytes } from 'node:crypto';
import type { DbHandle } from '../../db/index.ts';
import { onCommitted } from '../../events/changes.ts';
import { notifyCommitted } from './queries.ts';

/** Between two notifications of one process. */
export const NOTIFY_GAP_MS = 50;

const channelOf = (dbh: Pick<DbHandle, 'schema'>) => `fieldwork_changes:${dbh.schema}`;

/**
 * Announces this process's commits (writeTransaction) to the processes listening on its
 * schema: one NOTIFY at most every NOTIFY_GAP_MS. Returns the stop, which sends the one
 * still waiting (a command's last commits are announced before it closes its database).
 */
export function announceCommits(
  dbh: Pick<DbHandle, 'kind' | 'schema' | 'db'>,
  onError: (err: unknown) => void,
  sender = randomBytes(6).toString('hex'),
): () => Promise<void> {
  if (dbh.kind !== 'postgres') return async () => {};
  const channel = channelOf(dbh);
  let timer: NodeJS.Timeout | undefined;
  let sentAt = 0;
  let sending: Promise<void> = Promise.resolve();
  const notify = () => {
    timer = undefined;
    sentAt = Date.now();
    sending = notifyCommitted(dbh.db, channel, sender).catch(onError);
  };
  const stopWatching = onCommitted(() => {
    timer ??= setTimeout(notify, Math.max(0, sentAt + NOTIFY_GAP_MS - Date.now()));
  });
  return async () => {
    stopWatching();
    if (timer) {
      clearTimeout(timer);
      notify();
    }
    await sending;
  };
}

/**
 * Calls `wake` when another process on the same schema committed changes, and announces
 * this process's commits to them. Returns the function that stops both.
 */
export async function signalCommits(
  dbh: Pick<DbHandle, 'kind' | 'schema' | 'db' | 'listen'>,
  wake: () => void,
  onError: (err: unknown) => void,
): Promise<() => Promise<void>> {
  if (dbh.kind !== 'postgres') return async () => {};
  // This process's own notifications come back to it: it has woken already.
  const me = randomBytes(6).toString('hex');
  const stopListening = await dbh.listen(
    channelOf(dbh),
    (payload) => {
      if (payload !== me) wake();
    },
    // Back after a lost connection: what was notified meanwhile is read now.
    (up) => {
      if (up) wake();
    },
  );
  const stopAnnouncing = announceCommits(dbh, onError, me);
  return async () => {
    await stopAnnouncing();
    await stopListening();
  };
}
