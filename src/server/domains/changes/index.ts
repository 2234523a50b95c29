import type { DomainModule } from '../../platform/domain.ts';
import { changesConfig, startChanges } from './lifecycle.ts';
import { changesRoutes } from './routes.ts';
import { announceCommits } from './signal.ts';
import type { ChangesTables } from './tables.ts';

/**
 * The change log (issue 29): its table and trigger (migrations/), the feed and the stream.
 * Record histories are rows of each record's domain, which find the record in the caller's
 * scope and then call `readHistory`.
 */
export const changes: DomainModule<ChangesTables> = {
  name: 'changes',
  routes: changesRoutes,
  migrations: new URL('./migrations/', import.meta.url),
  config: changesConfig,
  start: startChanges,
  // A command's changes (an import) reach the open streams at once, not at their next poll.
  commandSession: (dbh, warn) =>
    announceCommits(dbh, (err) =>
      warn(`cannot notify the service processes of the changes (${String(err)})`),
    ),
};

export { pruneChanges, startPruner } from './retention.ts';
export { historyAnswer, readHistory } from './service.ts';
export { ChangeHub } from './stream.ts';
