import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/index.ts';

/** The caller's place in the office tree: its office and every office below it. */
export interface OfficeScope {
  officeId: string;
  officeCode: string;
  /** Materialised path of the caller's office ('/1/4/'); descendants share the prefix. */
  path: string;
}

/**
 * SQL condition "this office id is in the caller's tree". Every query on scoped data goes
 * through it, so out-of-tree rows never leave the database.
 */
export function inScope(scope: OfficeScope, officeIdColumn: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(officeIdColumn)} IN (SELECT o.id FROM offices o WHERE o.path LIKE ${`${scope.path}%`})`;
}

/** An office by code within the caller's tree; undefined when unknown or outside. */
export function findOfficeInScope(db: Db, scope: OfficeScope, code: string) {
  return db
    .selectFrom('offices')
    .select(['id', 'code', 'name', 'path', 'parent_id'])
    .where('code', '=', code.toUpperCase())
    .where('path', 'like', `${scope.path}%`)
    .executeTakeFirst();
}
