import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';

/** An instance secret, generated once and kept in the database so restarts keep it. */
export async function instanceSecret(
  db: Db,
  name: string,
  make = () => randomBytes(32).toString('base64url'),
) {
  const existing = await db
    .selectFrom('instance_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('instance_secrets')
    .values({ name, value: make() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('instance_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
