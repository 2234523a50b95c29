import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import { foldCode } from '../../contract/common.ts';
import { CommonCodes } from '../../contract/errors.ts';
import type { Db } from '../db/index.ts';
import { ApiError, badRequest } from './errors.ts';

/** The caller's place in the office tree: its office and every office below it. */
export interface OfficeScope {
  officeId: string;
  officeCode: string;
  /** Materialised path of the caller's office ('/1/4/'); descendants share the prefix. */
  path: string;
}

/**
 * The one rule of the office tree: an office is at or below another when its materialised
 * path starts with the other's (paths hold digits and slashes only, nothing LIKE reads).
 * SQL condition "the office path in `pathColumn` is `path` or below it".
 */
export function pathUnder(pathColumn: string, path: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(pathColumn)} LIKE ${`${path}%`}`;
}

/**
 * The same rule the other way: "the office path in `pathColumn` is `path` or above it" (one
 * of its parent offices). `path` a value, or SQL giving one.
 */
export function pathAbove(pathColumn: string, path: string | RawBuilder<string>): Expression<SqlBool> {
  return sql<SqlBool>`${path} LIKE ${sql.ref(pathColumn)} || '%'`;
}

/** SQL condition "this office id is at or below the office of path `path`". */
export function officeUnder(officeIdColumn: string, path: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(officeIdColumn)} IN (SELECT o.id FROM offices o WHERE ${pathUnder('o.path', path)})`;
}

/**
 * SQL condition "this office id is in the caller's tree". Every query on scoped data goes
 * through it, so out-of-tree rows never leave the database.
 */
export function inScope(scope: OfficeScope, officeIdColumn: string): Expression<SqlBool> {
  return officeUnder(officeIdColumn, scope.path);
}

/** An office by code within the caller's tree; undefined when unknown or outside. */
export function findOfficeInScope(db: Db, scope: OfficeScope, code: string) {
  return db
    .selectFrom('offices')
    .select(['id', 'code', 'name', 'path', 'parent_id'])
    .where('code', '=', foldCode(code))
    .where(pathUnder('path', scope.path))
    .executeTakeFirst();
}

/**
 * The path of a list's `officeCode` filter (undefined: no filter). An office unknown or outside
 * the caller's tree is one answer, 400 `unknownCode`, so the filter tells nothing of others.
 */
export async function officeFilterPath(
  db: Db,
  scope: OfficeScope,
  officeCode: string | undefined,
  unknownCode: string,
): Promise<string | undefined> {
  if (officeCode === undefined) return undefined;
  const office = await findOfficeInScope(db, scope, officeCode);
  if (!office) throw badRequest(unknownCode, `Office ${officeCode} is not in your office tree`);
  return office.path;
}

/**
 * The caller's tenant: the root office of its tree (the first id of its path), whose
 * offices share the referentials' codes. Undefined for the whole instance (imports: '/').
 */
export const tenantOf = (scope: OfficeScope): string | undefined => scope.path.split('/')[1] || undefined;

/** A root office has no parent: its path holds one id ('/1/'). */
export const isRootOffice = (scope: OfficeScope) => /^\/\d+\/$/.test(scope.path);

/**
 * Writes of instance-wide data (the catalog: items, skills) belong to applications and
 * users of a root office; any other office reads it only (403 access.forbiden, the spec's
 * code for insufficient rights).
 */
export function assertRootOffice(scope: OfficeScope, what: string) {
  if (!isRootOffice(scope))
    throw new ApiError(
      403,
      CommonCodes.forbidden,
      `${what} is shared by every office: only an application or user of a root office may change it (office ${scope.officeCode} has a parent)`,
    );
}
