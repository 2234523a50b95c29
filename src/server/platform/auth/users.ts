import { sql } from 'kysely';
import { isRole, unknownRolesMessage } from '../../../contract/roles.ts';
import type { Db } from '../../db/index.ts';
import type { Outcome } from './applications.ts';
import { hashSecret } from './passwords.ts';

/**
 * The life of a console user after its creation (`fieldwork users ...`, the import). Like
 * an application's (applications.ts), every change applies on the next request in every
 * process sharing the database: the users trigger of migration 020 drops the cached
 * callers everywhere, and the command waits for every process to have dropped them.
 *
 * A password change, a disable or a delete ends every sign-in of the user: the
 * session version its access tokens carry moves on (auth/index.ts refuses the older
 * ones) and its grants, refresh tokens and provider sessions are deleted (a refresh then
 * answers `invalid_grant`). A role change keeps the sign-ins: the rights are read again
 * on the next request.
 */

/** Unknown role names among `roles` (empty: all known). */
export const unknownRoles = (roles: readonly string[]) => roles.filter((r) => !isRole(r));

export class UnknownRoleError extends Error {
  constructor(readonly unknown: string[]) {
    super(unknownRolesMessage(unknown));
  }
}

/** Deletes what lets the user's sign-ins go on (oidc-provider's rows of that account). */
async function dropSignIns(db: Db, userId: string) {
  await db
    .deleteFrom('oauth_models')
    .where('model', 'in', ['Session', 'Grant', 'RefreshToken', 'AuthorizationCode'])
    .where(sql<string>`payload->>'accountId'`, '=', String(userId))
    .execute();
}

/** Ends every sign-in of the user: tokens issued before are refused, refresh tokens fail. */
export async function endSessions(db: Db, userId: string) {
  await db
    .updateTable('users')
    .set({ session_version: sql<number>`session_version + 1` })
    .where('id', '=', userId)
    .execute();
  await dropSignIns(db, userId);
}

const idOf = (db: Db, login: string) =>
  db.selectFrom('users').select(['id', 'disabled_at']).where('login', '=', login).executeTakeFirst();

/** A new password (hashed at rest); every sign-in of the user ends. */
export async function setPassword(db: Db, login: string, password: string): Promise<Outcome> {
  const hash = await hashSecret(password);
  return db.transaction().execute(async (trx) => {
    const user = await idOf(trx, login);
    if (!user) return 'unknown';
    await trx.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute();
    await endSessions(trx, user.id);
    return 'done';
  });
}

/** Replaces the user's roles; refused (nothing written) when one is unknown. */
export async function setRoles(db: Db, login: string, roles: string[]): Promise<Outcome> {
  const unknown = unknownRoles(roles);
  if (unknown.length > 0) throw new UnknownRoleError(unknown);
  const updated = await db
    .updateTable('users')
    .set({ roles: [...new Set(roles)] })
    .where('login', '=', login)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n ? 'done' : 'unknown';
}

/** Disables (every sign-in ends, no new one) or enables a user. */
export async function setUserDisabled(db: Db, login: string, disabled: boolean): Promise<Outcome> {
  return db.transaction().execute(async (trx) => {
    const user = await idOf(trx, login);
    if (!user) return 'unknown';
    if ((user.disabled_at !== null) === disabled) return 'unchanged';
    await trx
      .updateTable('users')
      .set({ disabled_at: disabled ? new Date() : null })
      .where('id', '=', user.id)
      .execute();
    if (disabled) await endSessions(trx, user.id);
    return 'done';
  });
}

/** Deletes a user and every sign-in of it. */
export async function deleteUser(db: Db, login: string): Promise<Outcome> {
  return db.transaction().execute(async (trx) => {
    const user = await idOf(trx, login);
    if (!user) return 'unknown';
    await dropSignIns(trx, user.id);
    await trx.deleteFrom('users').where('id', '=', user.id).execute();
    return 'done';
  });
}
