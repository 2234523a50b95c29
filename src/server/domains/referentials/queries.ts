/** SQL of the Referentials domain: reads in the caller's scope, hierarchy walks, row mapping. */
import { type Expression, type Selectable, type SqlBool, sql } from 'kysely';
import type { Asset, Customer, Site } from '../../../contract/referentials.ts';
import type { Db } from '../../db/index.ts';
import { prepared } from '../../db/prepared.ts';
import { inScope, type OfficeScope, officeUnder, pathUnder } from '../../platform/officeScope.ts';
import { likePattern } from '../../platform/sqlText.ts';
import { rfc3339 } from '../../platform/time.ts';
import { nextVersion, versionOf } from '../../platform/versions.ts';
import type { ReferentialsTables, StoredContact } from './tables.ts';

export type Entity = 'customer' | 'site' | 'asset';
export const TABLE = { customer: 'customers', site: 'sites', asset: 'assets' } as const;

/** A transaction-level advisory lock on a name; 64-bit hashes, so two names rarely share one. */
const lockOn = (name: string) => sql`pg_advisory_xact_lock(hashtextextended(${name}, 0))`;
const lockAll = (trx: Db, names: string[]) =>
  sql`SELECT ${sql.join([...new Set(names)].sort().map(lockOn))}`.execute(trx);

/**
 * First lock of a write, for the rest of the transaction: its code, so two PUTs of a new
 * code do not both insert it and a write waits for another of the same record, and the
 * parent the body names, so the parent does not move while it gains a child (an asset with
 * sub-assets cannot be transferred). Codes are locked together in one order, before any
 * tree (`lockTrees`): two writes never wait on each other in opposite orders.
 */
export async function lockForWrite(
  trx: Db,
  entity: Entity,
  tenant: string,
  code: string,
  parentCode?: string | null,
) {
  const codes = parentCode ? [code, parentCode] : [code];
  await lockAll(
    trx,
    codes.map((c) => `referentials.${entity}:${tenant}:${c}`),
  );
}

/**
 * Locks the hierarchies (trees, named by their root) holding `codes`, before a write changes
 * a parent link: the cycle and depth rules read these trees, and any other change of their
 * links takes the same locks, so the rules see no concurrent change. Trees of unrelated
 * hierarchies are other locks: their writes never wait on each other. A tree can gain a new
 * root between reading it and locking it (another write attached it elsewhere and
 * committed), so the roots are read again until every one is held.
 */
export async function lockTrees(trx: Db, entity: Entity, tenant: string, codes: string[]) {
  const t = sql.table(TABLE[entity]);
  const held = new Set<string>();
  for (;;) {
    const { rows } = await sql<{ code: string }>`
      WITH RECURSIVE up(code, parent_code, n) AS (
        SELECT code, parent_code, 0 FROM ${t} WHERE tenant_id = ${tenant} AND code IN (${sql.join(codes)})
        UNION ALL
        SELECT x.code, x.parent_code, up.n + 1 FROM ${t} x
        JOIN up ON x.code = up.parent_code AND x.tenant_id = ${tenant} WHERE up.n < 64
      )
      SELECT DISTINCT code FROM up WHERE parent_code IS NULL OR n = 64`.execute(trx);
    const missing = rows.map((r) => r.code).filter((root) => !held.has(root));
    if (missing.length === 0) return;
    await lockAll(
      trx,
      missing.map((root) => `referentials.${entity}.tree:${tenant}:${root}`),
    );
    for (const root of missing) held.add(root);
  }
}

/**
 * The stored row of `code` in `tenant`, its version, and whether it is in the caller's tree
 * (`visible`), locked for the rest of the transaction.
 */
export function lockedRow<E extends Entity>(
  trx: Db,
  entity: E,
  tenant: string,
  code: string,
  scope: OfficeScope,
) {
  return trx
    .selectFrom(TABLE[entity] as 'customers')
    .selectAll()
    .select(versionOf('last_update').as('version'))
    .select(sql<boolean>`${inScope(scope, 'office_id')}`.as('visible'))
    .where('tenant_id', '=', tenant)
    .where('code', '=', code)
    .forUpdate()
    .executeTakeFirst() as Promise<
    (Selectable<ReferentialsTables[(typeof TABLE)[E]]> & { version: string; visible: boolean }) | undefined
  >;
}

/**
 * The tenant holding `code` (an import row's reference), `preferred` first when it holds
 * it, else the lowest; undefined when no tenant does.
 */
export async function tenantHolding(db: Db, entity: Entity, code: string, preferred: string) {
  const { rows } = await sql<{ tenant: string }>`
    SELECT tenant_id::text AS tenant FROM ${sql.table(TABLE[entity])} WHERE code = ${code}
    ORDER BY tenant_id <> ${preferred}, tenant_id LIMIT 1`.execute(db);
  return rows[0]?.tenant;
}

/** A record other records point to (a parent, a site's customer), with its office. */
export interface Ref {
  code: string;
  office_id: string;
  customer_code: string | null;
}

/**
 * The record `code` of the tenant, when the caller may use it: in the office tree of `scope`,
 * or anywhere in the tenant when `scope` is undefined (a reference the record holds already).
 */
export async function findRef(
  trx: Db,
  tenant: string,
  entity: Entity,
  code: string,
  scope: OfficeScope | undefined,
): Promise<Ref | undefined> {
  const customer = entity === 'site' ? sql`t.customer_code` : sql`NULL::text`;
  const visible = scope ? inScope(scope, 't.office_id') : sql`true`;
  const { rows } = await sql<Ref>`
    SELECT t.code, t.office_id::text AS office_id, ${customer} AS customer_code
    FROM ${sql.table(TABLE[entity])} t
    WHERE t.tenant_id = ${tenant} AND t.code = ${code} AND ${visible}`.execute(trx);
  return rows[0];
}

/** Replaces a record's columns; its version (`last_update`) moves on. Answers the new version. */
export async function updateRecord(
  trx: Db,
  entity: Entity,
  tenant: string,
  code: string,
  values: Record<string, unknown>,
): Promise<string | undefined> {
  const table = TABLE[entity] as 'customers';
  const row = await trx
    .updateTable(table)
    .set({ ...values, last_update: nextVersion(`${table}.last_update`) } as never)
    .where('tenant_id', '=', tenant)
    .where('code', '=', code)
    .returning(versionOf('last_update').as('version'))
    .executeTakeFirst();
  return row?.version;
}

/** Inserts a record; answers its version. */
export async function insertRecord(
  trx: Db,
  entity: Entity,
  values: Record<string, unknown>,
): Promise<string | undefined> {
  const row = await trx
    .insertInto(TABLE[entity] as 'customers')
    .values({ ...values, last_update: sql`now()` } as never)
    .returning(versionOf('last_update').as('version'))
    .executeTakeFirst();
  return row?.version;
}

export async function isOfficeInScope(db: Db, scope: OfficeScope, officeId: string): Promise<boolean> {
  const row = await db
    .selectFrom('offices')
    .select('id')
    .where('id', '=', officeId)
    .where(pathUnder('path', scope.path))
    .executeTakeFirst();
  return !!row;
}

/**
 * Shape of the hierarchy once `self` hangs under `parent`: whether `parent` is `self` or
 * one of its descendants (a cycle), and the number of levels of the resulting tree
 * (ancestors from `parent` up to the root, plus `self`, plus the deepest branch below
 * `self`). Two recursive walks in one statement; a hierarchy lies in one tenant, where it
 * can span offices (not scoped to the caller).
 */
export async function hierarchyAfterMove(
  db: Db,
  entity: Entity,
  tenant: string,
  self: string,
  parent: string,
): Promise<{ cycle: boolean; levels: number }> {
  const t = sql.table(TABLE[entity]);
  const { rows } = await sql<{ above: number; cycle: boolean; below: number }>`
    WITH RECURSIVE up(code, parent_code, n) AS (
      SELECT code, parent_code, 1 FROM ${t} WHERE tenant_id = ${tenant} AND code = ${parent}
      UNION ALL
      SELECT x.code, x.parent_code, up.n + 1 FROM ${t} x
      JOIN up ON x.code = up.parent_code AND x.tenant_id = ${tenant} WHERE up.n < 64
    ), down(code, n) AS (
      SELECT code, 0 FROM ${t} WHERE tenant_id = ${tenant} AND code = ${self}
      UNION ALL
      SELECT x.code, down.n + 1 FROM ${t} x
      JOIN down ON x.parent_code = down.code AND x.tenant_id = ${tenant} WHERE down.n < 64
    )
    SELECT (SELECT count(*) FROM up)::int AS above,
           (SELECT coalesce(bool_or(code = ${self}), false) FROM up) AS cycle,
           (SELECT coalesce(max(n), 0) FROM down)::int AS below`.execute(db);
  const r = rows[0];
  return { cycle: r.cycle, levels: Number(r.above) + 1 + Number(r.below) };
}

/** Whether `code` has children the caller can see (the others do not exist for it). */
export async function hasVisibleChildren(
  db: Db,
  scope: OfficeScope,
  entity: Entity,
  tenant: string,
  code: string,
) {
  const t = sql.table(TABLE[entity]);
  const { rows } = await sql<{ found: boolean }>`
    SELECT EXISTS (SELECT 1 FROM ${t} t
      WHERE t.tenant_id = ${tenant} AND t.parent_code = ${code} AND ${inScope(scope, 't.office_id')}) AS found`.execute(
    db,
  );
  return rows[0].found;
}

/* ---------------- scoped reads ---------------- */

const contains = (column: string, q: string) => sql<SqlBool>`${sql.ref(column)} ILIKE ${likePattern(q)}`;

/**
 * Keyset condition "after this code". Codes sort in byte order (COLLATE "C"), where the
 * order of `left(code, 512), code` is the order of `code`; the prefix condition lets the
 * btree on `left(code, 512)` (migration 003) serve the range.
 */
const afterCode = (column: string, after: string) =>
  sql<SqlBool>`(left(${sql.ref(column)}, 512) >= left(${after}, 512) AND ${sql.ref(column)} > ${after})`;

export interface ListFilter {
  q?: string;
  officePath?: string;
  parentCode?: string;
  customerCode?: string;
  siteCode?: string;
  after?: string;
  limit: number;
}

function customersQuery(db: Db, scope: OfficeScope) {
  return db
    .selectFrom('customers as c')
    .innerJoin('offices as o', 'o.id', 'c.office_id')
    .selectAll('c')
    .select('o.code as office_code')
    .select(versionOf('c.last_update').as('version'))
    .where(inScope(scope, 'c.office_id'));
}
export type CustomerRow = NonNullable<
  Awaited<ReturnType<ReturnType<typeof customersQuery>['executeTakeFirst']>>
>;

/** A customer GET's read, built and compiled once (db/prepared.ts). */
const customerRow = prepared('customerRow', (db: Db, scope: OfficeScope, code: string) =>
  customersQuery(db, scope).where('c.code', '=', code),
);

export function getCustomerRow(db: Db, scope: OfficeScope, code: string): Promise<CustomerRow | undefined> {
  return customerRow.executeTakeFirst(db, scope, code);
}

export function listCustomerRows(db: Db, scope: OfficeScope, f: ListFilter) {
  const where: Expression<SqlBool>[] = [];
  if (f.q)
    where.push(
      sql<SqlBool>`(${contains('c.code', f.q)} OR ${contains('c.name', f.q)} OR ${contains('c.city', f.q)})`,
    );
  if (f.officePath) where.push(officeUnder('c.office_id', f.officePath));
  if (f.parentCode) where.push(sql<SqlBool>`c.parent_code = ${f.parentCode}`);
  if (f.after !== undefined) where.push(afterCode('c.code', f.after));
  return customersQuery(db, scope)
    .where((eb) => eb.and(where))
    .orderBy(sql`left(c.code, 512)`)
    .orderBy('c.code')
    .limit(f.limit + 1)
    .execute();
}

function sitesQuery(db: Db, scope: OfficeScope) {
  return db
    .selectFrom('sites as s')
    .innerJoin('offices as o', 'o.id', 's.office_id')
    .selectAll('s')
    .select('o.code as office_code')
    .select(versionOf('s.last_update').as('version'))
    .where(inScope(scope, 's.office_id'));
}
export type SiteRow = NonNullable<Awaited<ReturnType<ReturnType<typeof sitesQuery>['executeTakeFirst']>>>;

export function getSiteRow(db: Db, scope: OfficeScope, code: string) {
  return sitesQuery(db, scope).where('s.code', '=', code).executeTakeFirst();
}

export function listSiteRows(db: Db, scope: OfficeScope, f: ListFilter) {
  // A site whose customer the caller cannot see answers 404 to its GET: not listed either.
  const where: Expression<SqlBool>[] = [
    sql<SqlBool>`EXISTS (SELECT 1 FROM customers c
      WHERE c.tenant_id = s.tenant_id AND c.code = s.customer_code AND ${inScope(scope, 'c.office_id')})`,
  ];
  if (f.q)
    where.push(
      sql<SqlBool>`(${contains('s.code', f.q)} OR ${contains('s.name', f.q)} OR ${contains('s.city', f.q)})`,
    );
  if (f.officePath) where.push(officeUnder('s.office_id', f.officePath));
  if (f.parentCode) where.push(sql<SqlBool>`s.parent_code = ${f.parentCode}`);
  if (f.customerCode) where.push(sql<SqlBool>`s.customer_code = ${f.customerCode}`);
  if (f.after !== undefined) where.push(afterCode('s.code', f.after));
  return sitesQuery(db, scope)
    .where((eb) => eb.and(where))
    .orderBy(sql`left(s.code, 512)`)
    .orderBy('s.code')
    .limit(f.limit + 1)
    .execute();
}

function assetsQuery(db: Db, scope: OfficeScope) {
  return db
    .selectFrom('assets as a')
    .innerJoin('offices as o', 'o.id', 'a.office_id')
    .selectAll('a')
    .select('o.code as office_code')
    .select(versionOf('a.last_update').as('version'))
    .where(inScope(scope, 'a.office_id'));
}
export type AssetRow = NonNullable<Awaited<ReturnType<ReturnType<typeof assetsQuery>['executeTakeFirst']>>>;

export function getAssetRow(db: Db, scope: OfficeScope, code: string) {
  return assetsQuery(db, scope).where('a.code', '=', code).executeTakeFirst();
}

export function listAssetRows(db: Db, scope: OfficeScope, f: ListFilter) {
  const where: Expression<SqlBool>[] = [];
  if (f.q)
    where.push(
      sql<SqlBool>`(${contains('a.code', f.q)} OR ${contains('a.name', f.q)} OR ${contains('a.serial_number', f.q)})`,
    );
  if (f.officePath) where.push(officeUnder('a.office_id', f.officePath));
  if (f.parentCode) where.push(sql<SqlBool>`a.parent_code = ${f.parentCode}`);
  if (f.customerCode) where.push(sql<SqlBool>`a.customer_code = ${f.customerCode}`);
  if (f.siteCode) where.push(sql<SqlBool>`a.site_code = ${f.siteCode}`);
  if (f.after !== undefined) where.push(afterCode('a.code', f.after));
  return assetsQuery(db, scope)
    .where((eb) => eb.and(where))
    .orderBy(sql`left(a.code, 512)`)
    .orderBy('a.code')
    .limit(f.limit + 1)
    .execute();
}

/** The caller's office and those below it; the caller's own office shows no parent. */
export function listOfficeRows(db: Db, scope: OfficeScope, after: string | undefined, limit: number) {
  let q = db
    .selectFrom('offices as o')
    .leftJoin('offices as p', 'p.id', 'o.parent_id')
    .select(['o.code', 'o.name', 'o.path', 'p.code as parent_code', 'o.id'])
    .where(pathUnder('o.path', scope.path))
    .orderBy('o.path')
    .limit(limit + 1);
  if (after !== undefined) q = q.where('o.path', '>', after);
  return q.execute();
}

/* ---------------- row -> response ---------------- */

const contactOut = (c: unknown) => (c ?? null) as Customer['contact'];
const customFieldsOut = (c: unknown) => (c ?? {}) as Customer['customFields'];

export function toCustomer(r: CustomerRow): Customer {
  return {
    customerCode: r.code,
    name: r.name,
    parentCustomerCode: r.parent_code,
    officeCode: r.office_code,
    contact: contactOut(r.contact),
    addressDetails: { address: r.address, zipCode: r.zip_code, city: r.city, country: r.country },
    description: r.description,
    customFields: customFieldsOut(r.custom_fields),
    lastUpdate: rfc3339(r.last_update),
  };
}

export function toSite(r: SiteRow): Site {
  return {
    siteCode: r.code,
    name: r.name,
    customerCode: r.customer_code,
    parentSiteCode: r.parent_code,
    officeCode: r.office_code,
    contact: contactOut(r.contact),
    location: {
      geolocation:
        r.latitude === null || r.longitude === null
          ? null
          : { latitude: Number(r.latitude), longitude: Number(r.longitude) },
      addressDetails: { address: r.address, zipCode: r.zip_code, city: r.city, country: r.country },
    },
    description: r.description,
    customFields: customFieldsOut(r.custom_fields),
    lastUpdate: rfc3339(r.last_update),
  };
}

export function toAsset(r: AssetRow): Asset {
  return {
    assetCode: r.code,
    name: r.name,
    siteCode: r.site_code,
    customerCode: r.customer_code,
    parentAssetCode: r.parent_code,
    officeCode: r.office_code,
    serialNumber: r.serial_number,
    description: r.description,
    customFields: customFieldsOut(r.custom_fields),
    lastUpdate: rfc3339(r.last_update),
  };
}

export type { StoredContact };
