/** HTTP side of the Referentials domain: status codes and bodies; rules live in service.ts. */
import { ReferentialsCodes as RC, referentialsEndpoints } from '../../../contract/referentials.ts';
import { actorOf } from '../../events/index.ts';
import { implementDomain } from '../../platform/routes.ts';
import { writeStatus } from '../../platform/upsert.ts';
import { etag, ifMatchOf, type Written } from '../../platform/versions.ts';
import { historyAnswer } from '../changes/index.ts';
import * as service from './service.ts';

/** 201 or 204 with the record's new version as ETag. */
const writtenAnswer = (w: Written) => ({
  status: writeStatus(w.outcome),
  headers: { etag: etag(w.version) },
});
/** 200 with the record, its version as ETag. */
const readAnswer = <T>(v: service.Versioned<T>) => ({
  status: 200 as const,
  body: v.record,
  headers: { etag: etag(v.version) },
});

export const referentialsRoutes = implementDomain(referentialsEndpoints, {
  putCustomer: async ({ params, body }, { db, caller, request }) =>
    writtenAnswer(
      await service.writeCustomer(db, caller.scope, params.customerCode, body, {
        ifMatch: ifMatchOf(request),
      }),
    ),
  getCustomer: async ({ params }, { db, caller }) =>
    readAnswer(await service.getCustomer(db, caller.scope, params.customerCode)),
  getCustomerHistory: async ({ params, query }, ctx) => {
    await service.getCustomer(ctx.db, ctx.caller.scope, params.customerCode);
    return historyAnswer(
      ctx,
      { kind: 'customer', code: params.customerCode },
      query,
      RC.continuationTokenInvalid,
    );
  },
  putSite: async ({ params, body }, { db, caller, request }) =>
    writtenAnswer(
      await service.writeSite(db, caller.scope, params.siteCode, body, { ifMatch: ifMatchOf(request) }),
    ),
  getSite: async ({ params }, { db, caller }) =>
    readAnswer(await service.getSite(db, caller.scope, params.siteCode)),
  getSiteHistory: async ({ params, query }, ctx) => {
    await service.getSite(ctx.db, ctx.caller.scope, params.siteCode);
    return historyAnswer(ctx, { kind: 'site', code: params.siteCode }, query, RC.continuationTokenInvalid);
  },
  putAsset: async ({ params, body }, { db, caller, request }) =>
    writtenAnswer(
      await service.writeAsset(db, caller.scope, params.assetCode, body, actorOf(caller), {
        ifMatch: ifMatchOf(request),
      }),
    ),
  getAsset: async ({ params }, { db, caller }) =>
    readAnswer(await service.getAsset(db, caller.scope, params.assetCode)),
  getAssetHistory: async ({ params, query }, ctx) => {
    await service.getAsset(ctx.db, ctx.caller.scope, params.assetCode);
    return historyAnswer(ctx, { kind: 'asset', code: params.assetCode }, query, RC.continuationTokenInvalid);
  },
  listCustomers: async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listCustomers(db, caller.scope, tokens, query),
  }),
  listSites: async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listSites(db, caller.scope, tokens, query),
  }),
  listAssets: async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listAssets(db, caller.scope, tokens, query),
  }),
  listCustomFieldDefinitions: async ({ query }, { db }) => ({
    status: 200,
    body: await service.listCustomFieldDefinitions(db, query.entity),
  }),
  listOffices: async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listOffices(db, caller.scope, tokens, query.continuationToken),
  }),
});
