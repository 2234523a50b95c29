import { ChangesCodes, changesEndpoints } from '../../../contract/changes.ts';
import { ApiError } from '../../platform/errors.ts';
import { tenantOf } from '../../platform/officeScope.ts';
import { implementDomain } from '../../platform/routes.ts';
import * as q from './queries.ts';
import { parseKinds, readFeed, refuseExpired } from './service.ts';
import type { ChangeHub } from './stream.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's change stream hub (stream.ts), started by buildApp. */
    changeHub?: ChangeHub;
  }
}

/** HTTP only: the rules live in service.ts, the stream in stream.ts. */
export const changesRoutes = implementDomain(changesEndpoints, {
  getChanges: async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await readFeed(db, caller.scope, tokens, query),
  }),
  getChangeStream: async ({ query }, { db, caller, request, reply }) => {
    const kinds = parseKinds(query.kinds);
    const header = request.headers['last-event-id'];
    const lastEventId = (typeof header === 'string' ? header : undefined) ?? query.lastEventId;
    const tenant = tenantOf(caller.scope) ?? '';
    let after: string | undefined;
    if (lastEventId !== undefined && lastEventId !== '') {
      if (!/^\d{1,19}$/.test(lastEventId))
        throw new ApiError(400, ChangesCodes.lastEventIdInvalid, 'Last-Event-ID: an entry id');
      refuseExpired(lastEventId, (await q.counters(db, tenant)).prunedThrough);
      after = lastEventId;
    }
    const hub = request.server.changeHub;
    if (!hub) throw new Error('the change stream hub is not running');
    await hub.open(reply, { tenant, scope: caller.scope, kinds, after });
    return { status: 200, body: '' };
  },
});
