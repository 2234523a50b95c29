import { foldCode } from '../../contract/common.ts';
import type { Db } from '../db/index.ts';

/**
 * Creates or renames an office under `parentCode` (null for a root), keeping the
 * materialised path that office scope relies on. Moving an office is not supported: its
 * descendants' paths and every scoped record would move with it.
 */
export async function upsertOffice(
  db: Db,
  office: { code: string; name: string; parentCode?: string | null },
) {
  const code = foldCode(office.code);
  const existing = await db
    .selectFrom('offices')
    .select(['id', 'parent_id'])
    .where('code', '=', code)
    .executeTakeFirst();
  const parent = office.parentCode
    ? await db
        .selectFrom('offices')
        .select(['id', 'path'])
        .where('code', '=', foldCode(office.parentCode))
        .executeTakeFirst()
    : undefined;
  if (office.parentCode && !parent) throw new Error(`parent office ${office.parentCode} does not exist`);
  if (existing) {
    if ((existing.parent_id ?? null) !== (parent?.id ?? null))
      throw new Error(`office ${code} cannot move to another parent`);
    await db.updateTable('offices').set({ name: office.name }).where('id', '=', existing.id).execute();
    return existing.id;
  }
  const { id } = await db
    .insertInto('offices')
    .values({ code, name: office.name, parent_id: parent?.id ?? null, path: `pending:${code}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('offices')
    .set({ path: `${parent?.path ?? '/'}${id}/` })
    .where('id', '=', id)
    .execute();
  return id;
}

/** The id of an office by code (any office: imports see the whole tree); refused when unknown. */
export async function officeIdByCode(db: Db, code: string): Promise<string> {
  const row = await db
    .selectFrom('offices')
    .select('id')
    .where('code', '=', foldCode(code))
    .executeTakeFirst();
  if (!row) throw new Error(`office ${foldCode(code)} does not exist`);
  return String(row.id);
}
