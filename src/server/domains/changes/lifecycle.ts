/**
 * The change log's background work and settings: the live stream's hub (stream.ts) and the
 * retention pruner (retention.ts), started with the service and stopped with it.
 */
import {
  CHANGES_RETENTION_DAYS,
  STREAM_HEARTBEAT_SECONDS,
  STREAM_MAX_MINUTES,
} from '../../../contract/changes.ts';
import { parseMilliseconds } from '../../config.ts';
import type { DomainContext } from '../../platform/domain.ts';
import { startPruner } from './retention.ts';
import { signalCommits } from './signal.ts';
import { ChangeHub } from './stream.ts';

export interface ChangesConfig {
  /** FIELDWORK_CHANGES_RETENTION_DAYS: days an entry is kept (default 90). */
  retentionDays?: number;
  /** The stream's heartbeat and longest life (tests shorten them). */
  heartbeatMs?: number;
  /**
   * FIELDWORK_CHANGES_POLL_MS: between two reads of the change log for the commits no
   * notification announced (stream.ts; default 250).
   */
  pollMs?: number;
  streamMaxMs?: number;
  /** Between two runs of the pruner (an hour by default). */
  pruneIntervalMs?: number;
}

declare module '../../config.ts' {
  interface AppConfig {
    /** The change log (issue 29): FIELDWORK_CHANGES_RETENTION_DAYS (default 90), the stream's heartbeat. */
    changes?: ChangesConfig;
  }
}

/** FIELDWORK_CHANGES_RETENTION_DAYS: days the change log keeps an entry, 1 to 3650 (default 90). */
export function parseRetentionDays(text: string | undefined): number {
  const value = text?.trim();
  if (!value) return CHANGES_RETENTION_DAYS;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 3650)
    throw new Error(
      `FIELDWORK_CHANGES_RETENTION_DAYS: whole days from 1 to 3650; got ${JSON.stringify(text)}`,
    );
  return n;
}

export const changesConfig = (env: NodeJS.ProcessEnv) => ({
  changes: {
    retentionDays: parseRetentionDays(env.FIELDWORK_CHANGES_RETENTION_DAYS),
    pollMs: parseMilliseconds('FIELDWORK_CHANGES_POLL_MS', env.FIELDWORK_CHANGES_POLL_MS),
  },
});

/** Starts the stream's hub (on `app.changeHub`, for the stream route) and the pruner. */
export async function startChanges({ app, dbh, config }: DomainContext) {
  const hub = new ChangeHub({
    // Reads only: no actor.
    dbFor: (tenant) => dbh.tenantDbFor(tenant, ''),
    pollMs: config.changes?.pollMs,
    heartbeatMs: config.changes?.heartbeatMs ?? STREAM_HEARTBEAT_SECONDS * 1000,
    maxStreamMs: config.changes?.streamMaxMs ?? STREAM_MAX_MINUTES * 60_000,
    onError: (err) => app.log.error({ err }, 'change stream failed'),
  });
  await hub.start();
  const stopSignal = await signalCommits(
    dbh,
    () => hub.wakeAll(),
    (err) => app.log.warn({ err }, 'change stream: cannot notify the other processes'),
  );
  app.changeHub = hub;
  // An application, a user or an office changed (a token revoked, a user disabled, a tree
  // moved): every stream ends, and its client reconnects with its token, checked again.
  const stopEnding = app.fieldwork.auth?.callers.onInvalidate(() => hub.endAll());
  const pruner = startPruner({
    db: dbh.db,
    retentionDays: config.changes?.retentionDays ?? CHANGES_RETENTION_DAYS,
    intervalMs: config.changes?.pruneIntervalMs,
    onError: (err) => app.log.error({ err }, 'change log pruning failed'),
  });
  return async () => {
    stopEnding?.();
    await stopSignal();
    await hub.stop();
    await pruner.stop();
  };
}
