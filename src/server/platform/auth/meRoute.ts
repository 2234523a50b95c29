/**
 * `GET .../console/v1/me` (contract: getMe): who the bearer token speaks for, with what
 * is in force: a user's roles (none given: viewer) and the scopes this token may use (the
 * token's, narrowed to what the user or application holds now).
 */
import { consoleEndpoints } from '../../../contract/console.ts';
import { effectiveRoles } from '../../../contract/roles.ts';
import { homeFigures } from '../consoleData/home.ts';
import { searchRecords } from '../consoleData/search.ts';
import { implementDomain } from '../routes.ts';

/** The `console` domain of the contract: the console's own extensions. */
export const consoleRoutes = implementDomain(consoleEndpoints, {
  // Home's figures and the palette's search (platform/consoleData): what the caller may read.
  getHome: async (_input, { db, caller }) => ({
    status: 200,
    headers: { 'cache-control': 'no-store' },
    body: await homeFigures(db, caller),
  }),
  searchRecords: async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    headers: { 'cache-control': 'no-store' },
    body: await searchRecords(db, caller, tokens, query),
  }),
  getMe: async (_input, { db, caller }) => {
    const office = await db
      .selectFrom('offices')
      .select(['code', 'name'])
      .where('id', '=', caller.scope.officeId)
      .executeTakeFirstOrThrow();
    let roles: string[] = [];
    if (caller.kind === 'user') {
      const user = await db
        .selectFrom('users')
        .select('roles')
        .where('id', '=', caller.id)
        .executeTakeFirst();
      roles = effectiveRoles(user?.roles ?? []);
    }
    return {
      status: 200,
      headers: { 'cache-control': 'no-store' },
      body: {
        login: caller.name,
        kind: caller.kind,
        officeCode: office.code,
        officeName: office.name,
        roles,
        scopes: [...caller.scopes].sort(),
      },
    };
  },
});
