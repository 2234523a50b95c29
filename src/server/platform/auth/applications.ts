import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { hashSecret, newClientSecret } from './passwords.ts';

/**
 * The life of an OAuth application after its creation (`fieldwork apps ...`). Every change
 * takes effect on the next request, in every process sharing the database: the API keeps
 * the caller of a token (auth/index.ts) until a change of applications, users or offices
 * invalidates it in every process (callerCache.ts, migration 020); the command returns
 * once every running process has dropped it.
 */

/** The columns to set when an application gets a new secret: tokens issued before stop working. */
export async function newSecretColumns(secret: string) {
  return {
    secret_hash: await hashSecret(secret),
    token_version: sql<number>`token_version + 1`,
    secret_rotated_at: new Date(),
    changed_at: new Date(),
  };
}

/** Whether an application with this client id exists. */
export type Outcome = 'done' | 'unchanged' | 'unknown';

export async function setDisabled(db: Db, clientId: string, disabled: boolean): Promise<Outcome> {
  const row = await db
    .selectFrom('applications')
    .select('disabled_at')
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  if (!row) return 'unknown';
  if ((row.disabled_at !== null) === disabled) return 'unchanged';
  await db
    .updateTable('applications')
    .set({ disabled_at: disabled ? new Date() : null, changed_at: new Date() })
    .where('client_id', '=', clientId)
    .execute();
  return 'done';
}

/** A new secret (returned, to print once); the old one and every token issued with it stop working. */
export async function rotateSecret(db: Db, clientId: string): Promise<string | undefined> {
  const secret = newClientSecret();
  const updated = await db
    .updateTable('applications')
    .set(await newSecretColumns(secret))
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n ? secret : undefined;
}

export async function deleteApplication(db: Db, clientId: string): Promise<Outcome> {
  const deleted = await db.deleteFrom('applications').where('client_id', '=', clientId).executeTakeFirst();
  return deleted.numDeletedRows > 0n ? 'done' : 'unknown';
}
