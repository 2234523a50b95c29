import { diagnosticEndpoints } from '../../../contract/diagnostic.ts';
import { implementDomain } from '../../platform/routes.ts';
import { writeStatus } from '../../platform/upsert.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const diagnosticRoutes = implementDomain(diagnosticEndpoints, {
  putFlagsByCode: async ({ params, body }, { db, caller }) => {
    await service.setFlags(db, caller.scope, { code: params.workOrderCode }, body.ids);
    return { status: 204 };
  },
  putFlagsByUuid: async ({ params, body }, { db, caller }) => {
    await service.setFlags(db, caller.scope, { uuid: params.workOrderUuid }, body.ids);
    return { status: 204 };
  },
  putNoteByCode: async ({ params, body }, { db, caller }) => ({
    status: writeStatus(
      await service.putNote(db, caller.scope, { code: params.workOrderCode }, params.noteCode, body),
    ),
  }),
  putNoteByUuid: async ({ params, body }, { db, caller }) => ({
    status: writeStatus(
      await service.putNote(db, caller.scope, { uuid: params.workOrderUuid }, params.noteCode, body),
    ),
  }),
  getDiagnosticByCode: async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getDiagnostic(db, caller.scope, { code: params.workOrderCode }),
  }),
  getDiagnosticByUuid: async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getDiagnostic(db, caller.scope, { uuid: params.workOrderUuid }),
  }),
  listFlags: async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listFlags(db, tokens, query.continuationToken),
  }),
});
