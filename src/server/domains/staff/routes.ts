import { StaffCodes, staffEndpoints } from '../../../contract/staff.ts';
import { implementDomain } from '../../platform/routes.ts';
import { writeStatus } from '../../platform/upsert.ts';
import { etag, ifMatchOf } from '../../platform/versions.ts';
import { historyAnswer } from '../changes/index.ts';
import * as service from './service.ts';

/** HTTP only: the rules live in service.ts. */
export const staffRoutes = implementDomain(staffEndpoints, {
  putSkill: async ({ params, body }, { db, caller, request }) => {
    const w = await service.putSkill(
      db,
      caller.scope,
      { code: params.skillCode, ...body },
      ifMatchOf(request),
    );
    return { status: writeStatus(w.outcome), headers: { etag: etag(w.version) } };
  },
  getSkillHistory: async ({ params, query }, ctx) => {
    await service.findSkill(ctx.db, params.skillCode);
    return historyAnswer(
      ctx,
      { kind: 'skill', code: params.skillCode },
      query,
      StaffCodes.continuationTokenInvalid,
    );
  },
  listSkills: async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listSkills(db, tokens, query.continuationToken),
  }),
  listCharacteristics: async ({ query }, { db, tokens }) => ({
    status: 200,
    body: await service.listCharacteristics(db, tokens, query.continuationToken),
  }),
});
