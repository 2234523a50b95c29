/** `GET .../console/v1/me` (contract: getMe): who the bearer token speaks for. */
import { getMe } from '../../../contract/console.ts';
import { implement, type Route } from '../routes.ts';

export const meRoute: Route = implement(getMe, async (_input, { db, caller }) => {
  const office = await db
    .selectFrom('offices')
    .select(['code', 'name'])
    .where('id', '=', caller.scope.officeId)
    .executeTakeFirstOrThrow();
  let roles: string[] = [];
  if (caller.kind === 'user') {
    const user = await db.selectFrom('users').select('roles').where('id', '=', caller.id).executeTakeFirst();
    roles = user?.roles ?? [];
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
});
