/** HTTP side of the Referentials domain: status codes and bodies; rules live in service.ts. */
import { CustomFieldEntity } from '../../../contract/common.ts';
import {
  ReferentialsCodes as C,
  getAsset,
  getCustomer,
  getSite,
  listAssets,
  listCustomers,
  listCustomFieldDefinitions,
  listOffices,
  listSites,
  OFFICES_PAGE_SIZE,
  putAsset,
  putCustomer,
  putSite,
  REFERENTIALS_PAGE_SIZE,
} from '../../../contract/referentials.ts';
import { customFieldDefinitions } from '../../platform/customFields.ts';
import { ApiError, badRequest, notFound } from '../../platform/errors.ts';
import { findOfficeInScope } from '../../platform/officeScope.ts';
import { toPage } from '../../platform/pagination.ts';
import { implement, type RequestContext, type Route } from '../../platform/routes.ts';
import {
  getAssetRow,
  getCustomerRow,
  getSiteRow,
  type ListFilter,
  listAssetRows,
  listCustomerRows,
  listOfficeRows,
  listSiteRows,
  toAsset,
  toCustomer,
  toSite,
} from './queries.ts';
import * as service from './service.ts';

const written = (outcome: service.WriteOutcome) => ({ status: outcome === 'created' ? 201 : 204 });

/** Position after which the page starts: a code (or office path) carried by the token. */
function position(ctx: RequestContext, token: string | undefined): string | undefined {
  const p = ctx.tokens.decode<unknown>(ctx.endpoint.id, token, C.continuationTokenInvalid);
  if (p !== undefined && typeof p !== 'string')
    throw new ApiError(400, C.continuationTokenInvalid, 'The continuationToken is malformed');
  return p;
}

/** Common filters of the list extensions; officeCode must be in the caller's tree. */
async function listFilter(
  ctx: RequestContext,
  query: { q?: string; officeCode?: string; parentCode?: string; continuationToken?: string },
  officeUnknown: string,
): Promise<ListFilter> {
  let officePath: string | undefined;
  if (query.officeCode !== undefined) {
    const office = await findOfficeInScope(ctx.db, ctx.caller.scope, query.officeCode);
    if (!office) throw badRequest(officeUnknown, `Office ${query.officeCode} is unknown`);
    officePath = office.path;
  }
  return {
    q: query.q?.trim() || undefined,
    officePath,
    parentCode: query.parentCode,
    after: position(ctx, query.continuationToken),
    limit: REFERENTIALS_PAGE_SIZE,
  };
}

const byCode = (r: { code: string }) => r.code;

export const referentialsRoutes: Route[] = [
  implement(putCustomer, async ({ params: p, body: b }, ctx) => {
    const params = p!;
    const body = b!;
    return written(
      await ctx.db
        .transaction()
        .execute((trx) => service.putCustomer(trx, ctx.caller.scope, params.customerCode, body)),
    );
  }),

  implement(getCustomer, async ({ params: p }, ctx) => {
    const params = p!;
    const row = await getCustomerRow(ctx.db, ctx.caller.scope, params.customerCode);
    if (!row) throw notFound(C.customer.notFound, `Customer ${params.customerCode} not found`);
    return { status: 200, body: toCustomer(row) };
  }),

  implement(putSite, async ({ params: p, body: b }, ctx) => {
    const params = p!;
    const body = b!;
    return written(
      await ctx.db
        .transaction()
        .execute((trx) => service.putSite(trx, ctx.caller.scope, params.siteCode, body)),
    );
  }),

  implement(getSite, async ({ params: p }, ctx) => {
    const params = p!;
    const row = await getSiteRow(ctx.db, ctx.caller.scope, params.siteCode);
    if (!row) throw notFound(C.site.notFound, `Site ${params.siteCode} not found`);
    // Spec: 404 when the site or the customer is not found (the customer may sit above the caller).
    if (!(await getCustomerRow(ctx.db, ctx.caller.scope, row.customer_code)))
      throw notFound(C.customer.notFound, `Customer ${row.customer_code} of site ${row.code} not found`);
    return { status: 200, body: toSite(row) };
  }),

  implement(putAsset, async ({ params: p, body: b }, ctx) => {
    const params = p!;
    const body = b!;
    return written(
      await ctx.db
        .transaction()
        .execute((trx) => service.putAsset(trx, ctx.caller.scope, params.assetCode, body)),
    );
  }),

  implement(getAsset, async ({ params: p }, ctx) => {
    const params = p!;
    const row = await getAssetRow(ctx.db, ctx.caller.scope, params.assetCode);
    if (!row) throw notFound(C.asset.notFound, `Asset ${params.assetCode} not found`);
    return { status: 200, body: toAsset(row) };
  }),

  implement(listCustomers, async ({ query: q }, ctx) => {
    const query = q!;
    const filter = await listFilter(ctx, query, C.customer.officeUnknown);
    const rows = await listCustomerRows(ctx.db, ctx.caller.scope, filter);
    return { status: 200, body: toPage(rows, filter.limit, toCustomer, byCode, ctx.tokens, ctx.endpoint.id) };
  }),

  implement(listSites, async ({ query: q }, ctx) => {
    const query = q!;
    const filter = await listFilter(ctx, query, C.site.officeUnknown);
    const rows = await listSiteRows(ctx.db, ctx.caller.scope, {
      ...filter,
      customerCode: query.customerCode,
    });
    return { status: 200, body: toPage(rows, filter.limit, toSite, byCode, ctx.tokens, ctx.endpoint.id) };
  }),

  implement(listAssets, async ({ query: q }, ctx) => {
    const query = q!;
    const filter = await listFilter(ctx, query, C.asset.officeUnknown);
    const rows = await listAssetRows(ctx.db, ctx.caller.scope, {
      ...filter,
      customerCode: query.customerCode,
      siteCode: query.siteCode,
    });
    return { status: 200, body: toPage(rows, filter.limit, toAsset, byCode, ctx.tokens, ctx.endpoint.id) };
  }),

  implement(listCustomFieldDefinitions, async ({ query: q }, ctx) => {
    const query = q!;
    const entities = query.entity ? [query.entity] : CustomFieldEntity.options;
    const data = (await Promise.all(entities.map((e) => customFieldDefinitions(ctx.db, e)))).flat();
    return { status: 200, body: { continuationToken: null, data } };
  }),

  implement(listOffices, async ({ query: q }, ctx) => {
    const query = q!;
    const scope = ctx.caller.scope;
    const rows = await listOfficeRows(
      ctx.db,
      scope,
      position(ctx, query.continuationToken),
      OFFICES_PAGE_SIZE,
    );
    const toOffice = (r: (typeof rows)[number]) => ({
      code: r.code,
      name: r.name,
      // The caller's own office: its parent is outside the tree, hence not shown.
      parentCode: r.path === scope.path ? null : r.parent_code,
    });
    return {
      status: 200,
      body: toPage(rows, OFFICES_PAGE_SIZE, toOffice, (r) => r.path, ctx.tokens, ctx.endpoint.id),
    };
  }),
];
