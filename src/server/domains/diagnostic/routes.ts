import {
  getDiagnosticByCode,
  getDiagnosticByUuid,
  listFlags,
  putFlagsByCode,
  putFlagsByUuid,
  putNoteByCode,
  putNoteByUuid,
} from '../../../contract/diagnostic.ts';
import { implement, type Route } from '../../platform/routes.ts';
import { writeStatus } from '../../platform/upsert.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const diagnosticRoutes: Route[] = [
  implement(putFlagsByCode, async ({ params, body }, { db, caller }) => {
    await service.setFlags(db, caller.scope, { code: params.workOrderCode }, body.ids);
    return { status: 204 };
  }),
  implement(putFlagsByUuid, async ({ params, body }, { db, caller }) => {
    await service.setFlags(db, caller.scope, { uuid: params.workOrderUuid }, body.ids);
    return { status: 204 };
  }),
  implement(putNoteByCode, async ({ params, body }, { db, caller }) => ({
    status: writeStatus(
      await service.putNote(db, caller.scope, { code: params.workOrderCode }, params.noteCode, body),
    ),
  })),
  implement(putNoteByUuid, async ({ params, body }, { db, caller }) => ({
    status: writeStatus(
      await service.putNote(db, caller.scope, { uuid: params.workOrderUuid }, params.noteCode, body),
    ),
  })),
  implement(getDiagnosticByCode, async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getDiagnostic(db, caller.scope, { code: params.workOrderCode }),
  })),
  implement(getDiagnosticByUuid, async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getDiagnostic(db, caller.scope, { uuid: params.workOrderUuid }),
  })),
  implement(listFlags, async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listFlags(db, tokens, query.continuationToken),
  })),
];
