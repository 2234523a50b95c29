/**
 * `GET /eTech/rest/ws/console/v1/me` (extension): who the bearer token speaks for, so
 * the console can show the signed-in user and office. Chosen over OIDC userinfo because
 * it answers in the API's own style (error body, office codes) and needs no `openid`
 * scope. Any valid token may call it; an application gets its name as `login`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { Caller } from '../caller.ts';

export const ME_PATH = '/eTech/rest/ws/console/v1/me';

export interface Me {
  login: string;
  kind: 'user' | 'application';
  officeCode: string;
  officeName: string;
  roles: string[];
  scopes: string[];
}

export function registerMe(app: FastifyInstance, db: Db, identify: (r: FastifyRequest) => Promise<Caller>) {
  app.get(ME_PATH, async (request, reply): Promise<Me> => {
    const caller = await identify(request);
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
      roles = user?.roles ?? [];
    }
    reply.header('cache-control', 'no-store');
    return {
      login: caller.name,
      kind: caller.kind,
      officeCode: office.code,
      officeName: office.name,
      roles,
      scopes: [...caller.scopes].sort(),
    };
  });
}
