/**
 * Versions of records for conditional writes (RFC 9110 ETag / If-Match), against lost
 * updates: a GET of one record answers `ETag`, a PUT may carry `If-Match` and answers the
 * new `ETag`.
 *
 * - The ETag is strong and derived from the record's `last_update` at the database's full
 *   precision (microseconds, UTC): `"2026-11-25T11:40:43.123456Z"`. A PUT that changes
 *   nothing keeps `last_update`, so it keeps its ETag too; one that changes the row moves
 *   it forward (nextVersion), so every change makes a new ETag.
 * - `If-Match: *` matches any existing record the caller can see; a list of ETags matches
 *   when one of them is the current one (strong comparison: a weak `W/"..."` never
 *   matches). Any `If-Match` on a record the caller cannot see (a free code, or one of an
 *   office outside its tree) answers 412: a conditional write never creates, and the
 *   answer is the same whether the code is free or held elsewhere.
 * - 412 carries `<prefix>.precondition.failed` and writes nothing. The comparison reads
 *   the record locked (FOR UPDATE) in the transaction of the write: no check-then-write.
 */
import type { FastifyRequest } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
import { derivedCode } from '../../contract/errors.ts';
import type { Db } from '../db/index.ts';
import { ApiError } from './errors.ts';
import { writeTransaction } from './transactions.ts';
import type { WriteOutcome } from './upsert.ts';

/** `*`, or the entity-tags listed by the header (as sent, quotes included). */
export type IfMatch = '*' | readonly string[];

/** The version of a row: its last_update, microseconds, UTC (text). */
export const versionOf = (column: string): RawBuilder<string> =>
  sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The last_update of a row a write changes: now(), but always after the version it
 * replaces (`column`: the row's own last_update). PGlite's clock counts milliseconds (its
 * now() ends in 000 µs), and now() is the transaction's start: two writes of one row in the
 * same millisecond, or in one transaction, would otherwise keep one version, and the
 * If-Match of the second of a concurrent pair would match a version already replaced.
 */
export const nextVersion = (column: string): RawBuilder<Date> =>
  sql<Date>`GREATEST(now(), ${sql.ref(column)} + interval '1 microsecond')`;

/** The ETag header value of a version: strong, quoted. */
export const etag = (version: string) => `"${version}"`;

/** The request's If-Match, or undefined when absent. */
export function ifMatchOf(request: FastifyRequest): IfMatch | undefined {
  const raw = request.headers['if-match'];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (value.trim() === '*') return '*';
  return value
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/**
 * Throws 412 `<prefix>.precondition.failed` unless `ifMatch` is absent or matches
 * `current` (the version of the record as the caller sees it; undefined when it sees none).
 */
export function checkIfMatch(
  ifMatch: IfMatch | undefined,
  current: string | undefined,
  prefix: string,
  label: string,
) {
  if (ifMatch === undefined) return;
  if (current !== undefined && (ifMatch === '*' || ifMatch.includes(etag(current)))) return;
  throw new ApiError(
    412,
    derivedCode.preconditionFailed(prefix),
    current === undefined
      ? `${label} does not exist: If-Match cannot match`
      : `${label} changed since the version given in If-Match (current ETag ${etag(current)})`,
  );
}

/** A write and the version of the record after it (the PUT answers it as ETag). */
export interface Written {
  outcome: WriteOutcome;
  version: string;
}

/** The version of the row whose `key` column is `value`, locked for the transaction. */
export async function lockedVersion(
  trx: Db,
  table: string,
  key: string,
  value: string,
): Promise<string | undefined> {
  const { rows } = await sql<{ version: string }>`
    SELECT ${versionOf('last_update')} AS version FROM ${sql.table(table)}
    WHERE ${sql.ref(key)} = ${value} FOR UPDATE`.execute(trx);
  return rows[0]?.version;
}

/**
 * A conditional write of one row of a table keyed by `key` (the catalog's items and
 * skills): in one transaction, the row is locked, If-Match compared, the write applied and
 * the new version read.
 */
export function versionedWrite(
  db: Db,
  target: { table: string; key: string; value: string; prefix: string; label: string },
  ifMatch: IfMatch | undefined,
  write: (trx: Db) => Promise<WriteOutcome>,
): Promise<Written> {
  return writeTransaction(db, async (trx) => {
    const { table, key, value, prefix, label } = target;
    checkIfMatch(ifMatch, await lockedVersion(trx, table, key, value), prefix, label);
    const outcome = await write(trx);
    const version = await lockedVersion(trx, table, key, value);
    if (version === undefined) throw new Error(`${label}: written but not found`);
    return { outcome, version };
  });
}
