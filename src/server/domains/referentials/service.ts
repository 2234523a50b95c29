/**
 * Rules of the Referentials domain, one place each; used by the PUT routes and by the
 * importers. Every write function runs inside the caller's transaction (`trx`), so a
 * refusal leaves nothing written.
 *
 * Decisions where the spec is silent (also in the OpenAPI summaries):
 * - Office scope: a record whose office is outside the caller's tree does not exist for
 *   the caller. Codes are unique per tenant (a root office and the offices below it,
 *   migration 070): a record of another tenant neither blocks a code nor answers for it.
 *   Inside a tenant the offices share their codes, so a PUT on a code held outside the
 *   caller's tree is refused with `<entity>.office.unknown` (docs/security.md).
 * - A reference (parent, customer, site) must be visible to the caller, except when it is
 *   the one the record already holds: a record read with GET can be written back as is,
 *   even when its parent lives in an office above the caller's.
 * - An explicit officeCode may differ from the parent's office (any office of the caller's
 *   tree). When absent, it defaults per the spec, and a default outside the caller's tree
 *   falls back to the caller's office. A PUT is a full replacement: the default applies on
 *   update too.
 * - Depth: "reaches 10 or more levels" is refused, so a tree holds at most 9 levels; the
 *   whole resulting tree counts (ancestors above, the record, its deepest branch below).
 * - Writing a record identical to the stored one changes nothing (not even lastUpdate), so
 *   an import can be replayed.
 * - What the caller cannot see holds nothing back and is never mentioned: a site whose
 *   customer is outside the caller's tree is neither read (404) nor listed, and an asset
 *   transfer is refused for sub-assets the caller can see only (one filed in another tree
 *   stays under its parent, where it was).
 */
import { isDeepStrictEqual } from 'node:util';
import type { RawBuilder } from 'kysely';
import { CustomFieldEntity } from '../../../contract/common.ts';
import {
  ASSET,
  type Asset,
  type AssetBody,
  type AssetListQuery,
  ReferentialsCodes as C,
  CUSTOMER,
  type Customer,
  type CustomerBody,
  type CustomerListQuery,
  listAssets as listAssetsEndpoint,
  listCustomers as listCustomersEndpoint,
  listOffices as listOfficesEndpoint,
  listSites as listSitesEndpoint,
  MAX_HIERARCHY_LEVELS,
  OFFICES_PAGE_SIZE,
  type Office,
  REFERENTIALS_PAGE_SIZE,
  SITE,
  type Site,
  type SiteBody,
  type SiteListQuery,
  truncateDecimals,
} from '../../../contract/referentials.ts';
import type { Db } from '../../db/index.ts';
import { enterTenant, leaveTenant } from '../../db/tenant.ts';
import { IMPORT_ACTOR, recordAssetUpsert } from '../../events/emitters.ts';
import type { Actor } from '../../events/index.ts';
import { checkCustomFields, customFieldDefinitions } from '../../platform/customFields.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import {
  findOfficeInScope,
  type OfficeScope,
  officeFilterPath,
  tenantOf,
} from '../../platform/officeScope.ts';
import { isString, type PageTokens, pageRequest } from '../../platform/pagination.ts';
import { writeTransaction } from '../../platform/transactions.ts';
import { jsonb } from '../../platform/upsert.ts';
import { checkIfMatch, type IfMatch, type Written } from '../../platform/versions.ts';
import type { Ref } from './queries.ts';
import {
  type Entity,
  findRef,
  getAssetRow,
  getCustomerRow,
  getSiteRow,
  hasVisibleChildren,
  hierarchyAfterMove,
  insertRecord,
  isOfficeInScope,
  listAssetRows,
  listCustomerRows,
  listOfficeRows,
  listSiteRows,
  lockedRow,
  lockForWrite,
  lockTrees,
  tenantHolding,
  toAsset,
  toCustomer,
  toSite,
  updateRecord,
} from './queries.ts';
import type { StoredContact } from './tables.ts';

interface RuleCodes {
  officeUnknown: string;
  parentUnknown: string;
  parentIdentical: string;
  hierarchyError: string;
}

const LABEL: Record<Entity, string> = { customer: 'Customer', site: 'Site', asset: 'Asset' };
const PREFIX: Record<Entity, string> = { customer: CUSTOMER, site: SITE, asset: ASSET };

/** Options of a PUT: the caller's If-Match (conditional write). */
export interface PutOptions {
  ifMatch?: IfMatch;
}

/* ---------------- shared rules ---------------- */

/** A referenced record the caller may use: visible, or already held by the record (see header). */
const usableRef = (
  trx: Db,
  scope: OfficeScope,
  tenant: string,
  entity: Entity,
  code: string,
  current: string | null | undefined,
): Promise<Ref | undefined> => findRef(trx, tenant, entity, code, code === current ? undefined : scope);

/**
 * The tenant a write lands in: the caller's. For an import (the whole instance): the tenant
 * of the row's officeCode; without one, of the first record it names that exists (`refs`:
 * parent, then customer or site; the import's default tenant first when several hold the
 * code), as the office defaults to that record's; else the import's default tenant.
 */
async function writeTenant(
  trx: Db,
  scope: OfficeScope,
  officeCode: string | undefined,
  refs: [Entity, string | null | undefined][],
): Promise<string> {
  const own = tenantOf(scope);
  if (own) return own;
  // An import: found as the owner (every tenant), then written inside the tenant found.
  await leaveTenant(trx);
  const tenant = await importRowTenant(trx, scope, officeCode, refs);
  await enterTenant(trx, tenant);
  return tenant;
}

async function importRowTenant(
  trx: Db,
  scope: OfficeScope,
  officeCode: string | undefined,
  refs: [Entity, string | null | undefined][],
): Promise<string> {
  const fallback = scope.officeId; // the import's root office: its id is its tenant
  if (officeCode !== undefined) {
    const office = await findOfficeInScope(trx, scope, officeCode);
    return office ? office.path.split('/')[1] : fallback;
  }
  for (const [entity, code] of refs) {
    const tenant = code ? await tenantHolding(trx, entity, code, fallback) : undefined;
    if (tenant) return tenant;
  }
  return fallback;
}

/**
 * Takes the locks of a write (queries.ts: its code and the named parent, then the trees
 * whose links change) and reads the stored record.
 */
async function lockRecord<E extends Entity>(
  trx: Db,
  scope: OfficeScope,
  entity: E,
  tenant: string,
  code: string,
  parentCode: string | null | undefined,
) {
  await lockForWrite(trx, entity, tenant, code, parentCode);
  const existing = await lockedRow(trx, entity, tenant, code, scope);
  const stored = existing as { parent_code: string | null } | undefined; // every entity has one
  if ((stored?.parent_code ?? null) !== (parentCode ?? null))
    await lockTrees(trx, entity, tenant, parentCode ? [code, parentCode] : [code]);
  return existing;
}

/**
 * If-Match against the version the caller sees (none when the record is outside its tree:
 * 412, as for a free code), then: the existing record must be in the caller's tree to be
 * replaced (see header).
 */
function assertReplaceable(
  entity: Entity,
  existing: { visible: boolean; version: string } | undefined,
  code: string,
  codes: RuleCodes,
  ifMatch: IfMatch | undefined,
) {
  const visible = existing?.visible;
  checkIfMatch(ifMatch, visible ? existing.version : undefined, PREFIX[entity], `${LABEL[entity]} ${code}`);
  if (existing && !visible)
    throw badRequest(codes.officeUnknown, `The office of ${entity} ${code} is unknown`);
}

/** Parent rules (conventions 6): not itself, usable, not below the record, under 10 levels. */
async function checkParent(
  trx: Db,
  scope: OfficeScope,
  tenant: string,
  entity: Entity,
  self: string,
  parentCode: string | null | undefined,
  current: string | null | undefined,
  codes: RuleCodes,
): Promise<Ref | null> {
  if (parentCode === null || parentCode === undefined) return null;
  if (parentCode === self)
    throw badRequest(codes.parentIdentical, `${LABEL[entity]} ${self} cannot be its own parent`);
  const parent = await usableRef(trx, scope, tenant, entity, parentCode, current);
  if (!parent) throw badRequest(codes.parentUnknown, `Parent ${entity} ${parentCode} is unknown`);
  const { cycle, levels } = await hierarchyAfterMove(trx, entity, tenant, self, parentCode);
  if (cycle)
    throw badRequest(
      codes.hierarchyError,
      `${parentCode} is below ${self} in the hierarchy: it cannot become its parent`,
    );
  if (levels > MAX_HIERARCHY_LEVELS)
    throw badRequest(
      codes.hierarchyError,
      `The hierarchy would reach ${levels} levels; it must stay below 10 levels`,
    );
  return parent;
}

/** officeCode: explicit (in the caller's tree), else the first default in the tree, else the caller's. */
async function resolveOffice(
  trx: Db,
  scope: OfficeScope,
  explicit: string | undefined,
  defaults: (string | null | undefined)[],
  codes: RuleCodes,
): Promise<string> {
  if (explicit !== undefined) {
    const office = await findOfficeInScope(trx, scope, explicit);
    if (!office) throw badRequest(codes.officeUnknown, `Office ${explicit} is unknown`);
    return String(office.id);
  }
  for (const id of defaults) if (id && (await isOfficeInScope(trx, scope, id))) return id;
  return scope.officeId;
}

type Contact = CustomerBody['contact'];
/** Absent fields become null (conventions 5); the detail type already defaults to Phone. */
function storedContact(c: Contact): StoredContact | null {
  if (c === undefined || c === null) return null;
  return {
    name: c.name ?? null,
    details:
      c.details?.map((d) => ({ type: d.type, value: d.value, description: d.description ?? null })) ?? null,
  };
}

type Row = Record<string, unknown> & { code: string };
const JSON_COLUMNS = new Set(['contact', 'custom_fields']);

/**
 * Inserts or replaces the row; an identical row is left as it is. Answers the outcome and the
 * record's version (the stored one when unchanged, the written one from the write itself).
 */
async function write(
  trx: Db,
  entity: Entity,
  tenant: string,
  existing: (Row & { version: string }) | undefined,
  row: Row,
): Promise<Written> {
  if (existing && Object.keys(row).every((k) => isDeepStrictEqual(existing[k], row[k])))
    return { outcome: 'unchanged', version: existing.version };
  const values: Record<string, unknown | RawBuilder<unknown>> = {};
  for (const [k, v] of Object.entries(row)) values[k] = JSON_COLUMNS.has(k) && v !== null ? jsonb(v) : v;
  const version = existing
    ? await updateRecord(trx, entity, tenant, row.code, values)
    : await insertRecord(trx, entity, values);
  if (version === undefined) throw new Error(`${entity} ${row.code}: written but not found`);
  return { outcome: existing ? 'updated' : 'created', version };
}

/* ---------------- customer ---------------- */

export async function putCustomer(
  trx: Db,
  scope: OfficeScope,
  code: string,
  body: CustomerBody,
  opts: PutOptions = {},
): Promise<Written> {
  const codes = C.customer;
  const tenant = await writeTenant(trx, scope, body.officeCode, [['customer', body.parentCustomerCode]]);
  const existing = await lockRecord(trx, scope, 'customer', tenant, code, body.parentCustomerCode);
  assertReplaceable('customer', existing, code, codes, opts.ifMatch);
  const customFields = await checkCustomFields(trx, 'customer', CUSTOMER, body.customFields);
  const parent = await checkParent(
    trx,
    scope,
    tenant,
    'customer',
    code,
    body.parentCustomerCode,
    existing?.parent_code,
    codes,
  );
  const officeId = await resolveOffice(trx, scope, body.officeCode, [parent?.office_id], codes);
  const a = body.addressDetails;
  return write(trx, 'customer', tenant, existing, {
    code,
    name: body.name,
    parent_code: body.parentCustomerCode ?? null,
    office_id: officeId,
    contact: storedContact(body.contact),
    address: a.address ?? null,
    zip_code: a.zipCode ?? null,
    city: a.city,
    country: a.country ?? null,
    description: body.description ?? null,
    custom_fields: customFields,
  });
}

/* ---------------- site ---------------- */

export async function putSite(
  trx: Db,
  scope: OfficeScope,
  code: string,
  body: SiteBody,
  opts: PutOptions = {},
): Promise<Written> {
  const codes = C.site;
  const tenant = await writeTenant(trx, scope, body.officeCode, [
    ['site', body.parentSiteCode],
    ['customer', body.customerCode],
  ]);
  const existing = await lockRecord(trx, scope, 'site', tenant, code, body.parentSiteCode);
  assertReplaceable('site', existing, code, codes, opts.ifMatch);
  const customFields = await checkCustomFields(trx, 'site', SITE, body.customFields);
  const customer = await usableRef(
    trx,
    scope,
    tenant,
    'customer',
    body.customerCode,
    existing?.customer_code,
  );
  if (!customer) throw badRequest(C.site.customerUnknown, `Customer ${body.customerCode} is unknown`);
  const parent = await checkParent(
    trx,
    scope,
    tenant,
    'site',
    code,
    body.parentSiteCode,
    existing?.parent_code,
    codes,
  );
  const officeId = await resolveOffice(
    trx,
    scope,
    body.officeCode,
    [parent?.office_id, customer.office_id],
    codes,
  );
  const { geolocation: g, addressDetails: a } = body.location;
  return write(trx, 'site', tenant, existing, {
    code,
    name: body.name,
    customer_code: body.customerCode,
    parent_code: body.parentSiteCode ?? null,
    office_id: officeId,
    contact: storedContact(body.contact),
    address: a.address,
    zip_code: a.zipCode ?? null,
    city: a.city,
    country: a.country ?? null,
    // Precision beyond 16 decimal places is truncated (spec: location.geolocation).
    latitude: g ? truncateDecimals(g.latitude) : null,
    longitude: g ? truncateDecimals(g.longitude) : null,
    description: body.description ?? null,
    custom_fields: customFields,
  });
}

/* ---------------- asset ---------------- */

export async function putAsset(
  trx: Db,
  scope: OfficeScope,
  code: string,
  body: AssetBody,
  actor: Actor = IMPORT_ACTOR,
  opts: PutOptions = {},
): Promise<Written> {
  const codes = C.asset;
  const tenant = await writeTenant(trx, scope, body.officeCode, [
    ['asset', body.parentAssetCode],
    ['site', body.siteCode],
    ['customer', body.customerCode],
  ]);
  const existing = await lockRecord(trx, scope, 'asset', tenant, code, body.parentAssetCode);
  assertReplaceable('asset', existing, code, codes, opts.ifMatch);
  const customFields = await checkCustomFields(trx, 'asset', ASSET, body.customFields);

  const siteCode = body.siteCode ?? null;
  const site =
    siteCode === null
      ? undefined
      : await usableRef(trx, scope, tenant, 'site', siteCode, existing?.site_code);
  if (siteCode !== null && !site) throw badRequest(codes.siteUnknown, `Site ${siteCode} is unknown`);

  // Absent (or null) customerCode: the site's customer; given with a site: they must agree.
  let customerCode = body.customerCode ?? null;
  if (customerCode !== null) {
    const customer = await usableRef(trx, scope, tenant, 'customer', customerCode, existing?.customer_code);
    if (!customer) throw badRequest(codes.customerUnknown, `Customer ${customerCode} is unknown`);
    if (site && site.customer_code !== customerCode)
      throw badRequest(
        codes.customerMismatch,
        `Site ${siteCode} belongs to customer ${site.customer_code}, not ${customerCode}`,
      );
  } else if (site) customerCode = site.customer_code;

  const parent = await checkParent(
    trx,
    scope,
    tenant,
    'asset',
    code,
    body.parentAssetCode,
    existing?.parent_code,
    codes,
  );
  const officeId = await resolveOffice(
    trx,
    scope,
    body.officeCode,
    [parent?.office_id, site?.office_id],
    codes,
  );

  // Only an asset without sub-assets can be transferred (spec: Asset); sub-assets outside
  // the caller's tree do not exist for it and do not hold the transfer (see header).
  const moves = existing && (existing.site_code !== siteCode || existing.office_id !== officeId);
  if (moves && (await hasVisibleChildren(trx, scope, 'asset', tenant, code)))
    throw badRequest(
      codes.transferSubassets,
      `Asset ${code} has sub-assets: it cannot move to another site or office`,
    );

  const written = await write(trx, 'asset', tenant, existing, {
    code,
    name: body.name,
    site_code: siteCode,
    customer_code: customerCode,
    parent_code: body.parentAssetCode ?? null,
    office_id: officeId,
    serial_number: body.serialNumber ?? null,
    description: body.description ?? null,
    custom_fields: customFields,
  });
  // Webhooks: asset.upsert in this transaction (outbox), unless nothing changed.
  if (written.outcome !== 'unchanged') await recordAssetUpsert(trx, tenant, code, actor);
  return written;
}

/* ---------------- reads ---------------- */

/** A record as read and its version (the GET answers it as ETag). */
export interface Versioned<T> {
  record: T;
  version: string;
}

export async function getCustomer(db: Db, scope: OfficeScope, code: string): Promise<Versioned<Customer>> {
  const row = await getCustomerRow(db, scope, code);
  if (!row) throw notFound(C.customer.notFound, `Customer ${code} not found`);
  return { record: toCustomer(row), version: row.version };
}

export async function getSite(db: Db, scope: OfficeScope, code: string): Promise<Versioned<Site>> {
  const row = await getSiteRow(db, scope, code);
  if (!row) throw notFound(C.site.notFound, `Site ${code} not found`);
  // Spec: 404 when the site or the customer is not found (the customer may sit above the caller).
  if (!(await getCustomerRow(db, scope, row.customer_code)))
    throw notFound(C.customer.notFound, `Customer ${row.customer_code} of site ${row.code} not found`);
  return { record: toSite(row), version: row.version };
}

export async function getAsset(db: Db, scope: OfficeScope, code: string): Promise<Versioned<Asset>> {
  const row = await getAssetRow(db, scope, code);
  if (!row) throw notFound(C.asset.notFound, `Asset ${code} not found`);
  return { record: toAsset(row), version: row.version };
}

/** A list page of one of the list extensions: filters checked, keyset position from the token. */
async function listRequest(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  endpointId: string,
  query: CustomerListQuery & { customerCode?: string; siteCode?: string },
  officeUnknown: string,
) {
  const { continuationToken, ...filters } = query;
  const officePath = await officeFilterPath(db, scope, filters.officeCode, officeUnknown);
  const request = pageRequest(
    tokens,
    { id: endpointId, filters, invalidCode: C.continuationTokenInvalid, isKey: isString },
    continuationToken,
  );
  const filter = {
    ...filters,
    q: filters.q?.trim() || undefined,
    officePath,
    after: request.after,
    limit: REFERENTIALS_PAGE_SIZE,
  };
  return { request, filter };
}

const byCode = (r: { code: string }) => r.code;

export async function listCustomers(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  query: CustomerListQuery,
) {
  const { request, filter } = await listRequest(
    db,
    scope,
    tokens,
    listCustomersEndpoint.id,
    query,
    C.customer.officeUnknown,
  );
  return request.page(await listCustomerRows(db, scope, filter), filter.limit, toCustomer, byCode);
}

export async function listSites(db: Db, scope: OfficeScope, tokens: PageTokens, query: SiteListQuery) {
  const { request, filter } = await listRequest(
    db,
    scope,
    tokens,
    listSitesEndpoint.id,
    query,
    C.site.officeUnknown,
  );
  return request.page(await listSiteRows(db, scope, filter), filter.limit, toSite, byCode);
}

export async function listAssets(db: Db, scope: OfficeScope, tokens: PageTokens, query: AssetListQuery) {
  const { request, filter } = await listRequest(
    db,
    scope,
    tokens,
    listAssetsEndpoint.id,
    query,
    C.asset.officeUnknown,
  );
  return request.page(await listAssetRows(db, scope, filter), filter.limit, toAsset, byCode);
}

/** Definitions of one entity, or of all (a single page). */
export async function listCustomFieldDefinitions(db: Db, entity: CustomFieldEntity | undefined) {
  const entities = entity ? [entity] : CustomFieldEntity.options;
  const data = (await Promise.all(entities.map((e) => customFieldDefinitions(db, e)))).flat();
  return { continuationToken: null, data };
}

/** The caller's office and those below it, by path; the caller's own office shows no parent. */
export async function listOffices(db: Db, scope: OfficeScope, tokens: PageTokens, token: string | undefined) {
  const request = pageRequest(
    tokens,
    { id: listOfficesEndpoint.id, invalidCode: C.continuationTokenInvalid, isKey: isString },
    token,
  );
  const rows = await listOfficeRows(db, scope, request.after, OFFICES_PAGE_SIZE);
  const toOffice = (r: (typeof rows)[number]): Office => ({
    code: r.code,
    name: r.name,
    parentCode: r.path === scope.path ? null : r.parent_code,
  });
  return request.page(rows, OFFICES_PAGE_SIZE, toOffice, (r) => r.path);
}

/* ---------------- the PUT endpoints ---------------- */

/**
 * The PUTs of the API, each in its own transaction (retried on a deadlock): the functions
 * above run inside the caller's, so an import applies many records in one.
 */
export const writeCustomer = (
  db: Db,
  scope: OfficeScope,
  code: string,
  body: CustomerBody,
  opts: PutOptions,
) => writeTransaction(db, (trx) => putCustomer(trx, scope, code, body, opts));
export const writeSite = (db: Db, scope: OfficeScope, code: string, body: SiteBody, opts: PutOptions) =>
  writeTransaction(db, (trx) => putSite(trx, scope, code, body, opts));
export const writeAsset = (
  db: Db,
  scope: OfficeScope,
  code: string,
  body: AssetBody,
  actor: Actor,
  opts: PutOptions,
) => writeTransaction(db, (trx) => putAsset(trx, scope, code, body, actor, opts));
