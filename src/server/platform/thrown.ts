/**
 * What a caught value says about itself. A `catch` gets `unknown` (an Error, a driver's or
 * Node's error object with a `code`, or anything thrown): these read it by a check.
 */
import { isRecord } from '../../contract/guards.ts';

/** The string `code` the value carries (a Node errno name, a PostgreSQL SQLSTATE), if any. */
export function errorCode(e: unknown): string | undefined {
  return isRecord(e) && typeof e.code === 'string' ? e.code : undefined;
}

/** The value's string `message`, else the value as text. */
export function errorMessage(e: unknown): string {
  return isRecord(e) && typeof e.message === 'string' ? e.message : String(e);
}
