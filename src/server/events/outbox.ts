/**
 * SQL of the delivery worker over the outbox (`webhook_deliveries`). Every statement holds
 * its rows for an instant only: no transaction stays open during an HTTP request (PGlite
 * has a single connection, and PostgreSQL's pool is small).
 */
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import type { AttemptResult } from './http.ts';

/** A callback taken by a worker, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  subscription_id: string;
  event_type: string;
  data: Record<string, unknown>;
  change_id: string | null;
  created_at: Date;
  /** Attempts made before this one. */
  attempts: number;
  /** Of which since the start of the current hour of retries (the event, or its replay). */
  window_attempts: number;
  claim: string;
  callback_url: string;
  secret: string | null;
  headers: Record<string, string>;
}

const ms = (value: number) => sql`(${value}::float8 * interval '1 millisecond')`;

/**
 * Takes up to `limit` due callbacks. `FOR UPDATE SKIP LOCKED` lets several processes claim
 * at once without taking the same rows; the claim moves each row's next attempt past its
 * lease, so no one else takes it unless this worker dies before recording the attempt.
 */
export async function claimDue(db: Db, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const { rows } = await sql<ClaimedDelivery>`
    WITH due AS (
      SELECT id FROM webhook_deliveries
      WHERE status = 'pending' AND next_attempt_at <= clock_timestamp()
      ORDER BY next_attempt_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE webhook_deliveries d
      SET next_attempt_at = clock_timestamp() + ${ms(leaseMs)}, claim = gen_random_uuid()
      FROM due WHERE d.id = due.id
      RETURNING d.id, d.subscription_id, d.event_type, d.data, d.change_id::text AS change_id, d.created_at, d.attempts,
        d.window_attempts, d.claim
    )
    SELECT c.*, s.callback_url, s.secret, s.headers
    FROM claimed c JOIN webhook_subscriptions s ON s.id = c.subscription_id
  `.execute(db);
  return rows;
}

/**
 * Records one attempt and the callback's next state, in one statement: delivered on a
 * 2xx; otherwise pending again after `retryDelayMs`, or failed (given up) when that retry
 * would fall beyond the hour that started with the event (or its replay). The attempt is
 * kept even if the claim was lost meanwhile (the row's state is then left to its new owner).
 */
export async function recordAttempt(
  db: Db,
  delivery: ClaimedDelivery,
  result: AttemptResult & { startedAt: Date },
  schedule: { retryDelayMs: number; windowMs: number; worker: string },
): Promise<void> {
  const ok = result.error === null;
  const retry = sql`window_start + ${ms(schedule.windowMs)} > now() + ${ms(schedule.retryDelayMs)}`;
  await sql`
    WITH updated AS (
      UPDATE webhook_deliveries SET
        attempts = attempts + 1,
        window_attempts = window_attempts + 1,
        claim = NULL,
        last_attempt_at = ${result.startedAt},
        last_status_code = ${result.statusCode},
        last_duration_ms = ${result.durationMs},
        last_error = ${result.error},
        status = CASE WHEN ${ok}::boolean THEN 'delivered' WHEN ${retry} THEN 'pending' ELSE 'failed' END,
        next_attempt_at = CASE WHEN ${ok}::boolean THEN NULL
                               WHEN ${retry} THEN now() + ${ms(schedule.retryDelayMs)} ELSE NULL END,
        finished_at = CASE WHEN ${ok}::boolean OR NOT (${retry}) THEN now() ELSE NULL END
      WHERE id = ${delivery.id} AND claim = ${delivery.claim}
      RETURNING id
    )
    INSERT INTO webhook_attempts
      (delivery_id, attempt, started_at, duration_ms, status_code, error, succeeded, worker)
    SELECT d.id, ${delivery.attempts + 1}::int, ${result.startedAt}, ${result.durationMs}::int,
           ${result.statusCode}::int, ${result.error}, ${ok}::boolean, ${schedule.worker}
    FROM webhook_deliveries d WHERE d.id = ${delivery.id}
  `.execute(db);
}

/** Milliseconds until the earliest pending callback is due (<= 0: now); null when none. */
export async function msUntilNextDue(db: Db): Promise<number | null> {
  const { rows } = await sql<{ ms: number | string | null }>`
    SELECT (EXTRACT(EPOCH FROM (min(next_attempt_at) - clock_timestamp())) * 1000)::float8 AS ms
    FROM webhook_deliveries WHERE status = 'pending'
  `.execute(db);
  const value = rows[0]?.ms;
  return value === null || value === undefined ? null : Number(value);
}

/** Deletes the callbacks (and their attempts) finished more than `retentionMs` ago. */
export async function purgeFinished(db: Db, retentionMs: number): Promise<number> {
  const result = await sql`
    DELETE FROM webhook_deliveries
    WHERE status <> 'pending' AND finished_at < now() - ${ms(retentionMs)}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
