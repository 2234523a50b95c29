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
import { writeStatus } from '../../platform/upsert.ts';
import * as service from './service.ts';

export const referentialsRoutes: Route[] = [
  implement(putCustomer, async ({ params, body }, { db, caller }) => ({
    status: writeStatus(
      await db
        .transaction()
        .execute((trx) => service.putCustomer(trx, caller.scope, params.customerCode, body)),
    ),
  })),
  implement(getCustomer, async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getCustomer(db, caller.scope, params.customerCode),
  })),
  implement(putSite, async ({ params, body }, { db, caller }) => ({
    status: writeStatus(
      await db.transaction().execute((trx) => service.putSite(trx, caller.scope, params.siteCode, body)),
    ),
  })),
  implement(getSite, async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getSite(db, caller.scope, params.siteCode),
  })),
  implement(putAsset, async ({ params, body }, { db, caller }) => ({
    status: writeStatus(
      await db
        .transaction()
        .execute((trx) => service.putAsset(trx, caller.scope, params.assetCode, body, actorOf(caller))),
    ),
  })),
  implement(getAsset, async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getAsset(db, caller.scope, params.assetCode),
  })),
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
