/** HTTP side of the Referentials domain: status codes and bodies; rules live in service.ts. */
import {
  getAsset,
  getCustomer,
  getSite,
  listAssets,
  listCustomers,
  listCustomFieldDefinitions,
  listOffices,
  listSites,
  putAsset,
  putCustomer,
  putSite,
} from '../../../contract/referentials.ts';
import { actorOf } from '../../events/index.ts';
import { implement, type Route } from '../../platform/routes.ts';
import { writeTransaction } from '../../platform/transactions.ts';
import { writeStatus } from '../../platform/upsert.ts';
import { etag, ifMatchOf, type Written } from '../../platform/versions.ts';
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

export const referentialsRoutes: Route[] = [
  implement(putCustomer, async ({ params, body }, { db, caller, request }) =>
    writtenAnswer(
      await writeTransaction(db, (trx) =>
        service.putCustomer(trx, caller.scope, params.customerCode, body, {
          ifMatch: ifMatchOf(request),
        }),
      ),
    ),
  ),
  implement(getCustomer, async ({ params }, { db, caller }) =>
    readAnswer(await service.getCustomer(db, caller.scope, params.customerCode)),
  ),
  implement(putSite, async ({ params, body }, { db, caller, request }) =>
    writtenAnswer(
      await writeTransaction(db, (trx) =>
        service.putSite(trx, caller.scope, params.siteCode, body, { ifMatch: ifMatchOf(request) }),
      ),
    ),
  ),
  implement(getSite, async ({ params }, { db, caller }) =>
    readAnswer(await service.getSite(db, caller.scope, params.siteCode)),
  ),
  implement(putAsset, async ({ params, body }, { db, caller, request }) =>
    writtenAnswer(
      await writeTransaction(db, (trx) =>
        service.putAsset(trx, caller.scope, params.assetCode, body, actorOf(caller), {
          ifMatch: ifMatchOf(request),
        }),
      ),
    ),
  ),
  implement(getAsset, async ({ params }, { db, caller }) =>
    readAnswer(await service.getAsset(db, caller.scope, params.assetCode)),
  ),
  implement(listCustomers, async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listCustomers(db, caller.scope, tokens, query),
  })),
  implement(listSites, async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listSites(db, caller.scope, tokens, query),
  })),
  implement(listAssets, async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listAssets(db, caller.scope, tokens, query),
  })),
  implement(listCustomFieldDefinitions, async ({ query }, { db }) => ({
    status: 200,
    body: await service.listCustomFieldDefinitions(db, query.entity),
  })),
  implement(listOffices, async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listOffices(db, caller.scope, tokens, query.continuationToken),
  })),
];
