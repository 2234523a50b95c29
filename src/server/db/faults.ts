/**
 * Database faults the service answers with `503 service.database.unavailable` and
 * `Retry-After` instead of a 500 (README: Deployment, Database faults): the database could
 * not be reached, closed the connection, or did not answer within FIELDWORK_DB_TIMEOUT_MS.
 */

import { isRecord } from '../../contract/guards.ts';
import { errorCode } from '../platform/thrown.ts';

/** The longest wait for the database, milliseconds, unless FIELDWORK_DB_TIMEOUT_MS says otherwise. */
export const DEFAULT_DB_TIMEOUT_MS = 5_000;

/** Raised when no connection was free within the timeout (PGlite's single session included). */
export class DatabaseBusyError extends Error {
  readonly code = 'FIELDWORK_DB_BUSY';
  constructor(ms: number) {
    super(`no database connection became free within ${ms} ms`);
  }
}

/**
 * SQLSTATEs of a database that cannot serve now: class 08 (connection exception), the
 * server shutting down or starting (57P01-57P03), a statement cancelled by
 * statement_timeout (57014), a lock not obtained (55P03), too many connections (53300).
 */
const UNAVAILABLE_STATES = /^(?:08...|57P0[123]|57014|55P03|53300)$/;
/** The network's errors, when the server cannot be reached or the connection broke. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres's own errors for a connection that is gone or never came (no code). */
const DRIVER_MESSAGES =
  /^(?:Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Connection closed)/;

/** The connection broke (as opposed to the database refusing the statement). */
export function isConnectionLost(err: unknown): boolean {
  if (!isRecord(err)) return false;
  const code = errorCode(err) ?? '';
  if (NETWORK_CODES.has(code) || /^(?:08...|57P0[12])$/.test(code)) return true;
  return typeof err.message === 'string' && DRIVER_MESSAGES.test(err.message);
}

/** Whether `err` means the database is unavailable for now (a 503, not a 500). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof DatabaseBusyError) return true;
  const code = errorCode(err);
  if (code !== undefined && UNAVAILABLE_STATES.test(code)) return true;
  return isConnectionLost(err);
}

/**
 * A statement that only reads, so running it again after its connection broke repeats
 * nothing (a function with an effect, a sequence or a lock excluded).
 */
export function isPlainRead(text: string): boolean {
  return (
    /^\s*select\b/i.test(text) && !/\b(?:nextval|setval|pg_notify|pg_advisory\w*|set_config)\b/i.test(text)
  );
}
