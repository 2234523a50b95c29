/**
 * Isolation matrix (OWASP API1, object-level authorization; docs/security.md). Every row
 * of the endpoint table is classified here: an operation on one office-scoped record, a
 * list of office-scoped records, or open (not office-scoped, with the reason). A row
 * that is not classified fails the test, so a new endpoint is covered when it is added.
 *
 * The records belong to NORTH (the e2e dataset). Two applications attack them: SOUTH (a
 * sibling office) and NORTH-A (a child office: it sees its office and below, never its
 * parent's). On every record operation the answer must be exactly the answer to the same
 * request on a record that does not exist (the spec's "unknown", never "forbidden"), and
 * no table changes (every table's checksum, webhook outbox and deliveries included). On
 * every list, none of NORTH's records appears. The owner's own call is checked too, so
 * that a request refused for another reason (a wrong body) cannot pass for isolation.
 *
 * A third attacker is another tenant (RIVAL, a second root office: issue 24, 4). It is
 * tried on every operation, the catalog's included (items, skills, characteristics, work
 * order and activity types, areas, flags, custom field definitions are the tenant's: the
 * rows of TENANT_TARGETS): its answer is, byte for byte once the codes are set aside, the
 * answer to the same request on a code that does not exist; a PUT on a code of ROOT's
 * tenant creates RIVAL's own record (201, as for a new code); no row of ROOT's tenant
 * changes; no list shows one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWorkOrderByCode } from '../../contract/fieldService.ts';
import { type Endpoint, endpoints } from '../../contract/index.ts';
import { createSubscription, listDeliveries, sendTestEvent } from '../../contract/webhooks.ts';
import { runImport } from '../cli/importFile.ts';
import { futureMonday } from '../domains/slots/fixture.ts';
import { NO_RATE_LIMITS } from '../domains/webhooks/testReceiver.ts';
import { createTestApp, type TestApp, type TestClient } from '../testing/harness.ts';

/**
 * The one place for "PUT by code on a record the caller cannot see" (the referentials'
 * upserts). The attackers here share NORTH's tenant (codes are unique per tenant, migration
 * 070), so it is 400 `<prefix>.office.unknown` and nothing written. Another tenant's PUT
 * on the same code creates its own record: referentials/sitesAssets.test.ts.
 */
const expectPutOnInvisible = (res: LightMyRequestResponse, e: Endpoint) => {
  expect(res.statusCode, res.body).toBe(400);
  expect(codes(res), res.body).toContain(`${e.errorPrefix}.office.unknown`);
};

type Values = Record<string, string>;
type Target =
  /** One record: path values (and body) of NORTH's record; `missing` replaces them for "unknown". */
  | {
      kind: 'record';
      values: () => Values;
      body?: (v: Values) => unknown;
      upsert?: boolean;
      /**
       * The spec lets a child office name its parent's record here (project links, rule 1):
       * the child's answer is this refusal (it cannot see the work order named), not "unknown".
       */
      child?: { codes: string[]; reason: string };
    }
  /** A list: none of these JSON strings may appear in another office's answer. */
  | { kind: 'list'; ownerOnly: string[]; query?: string }
  | { kind: 'open'; reason: string };

const monday = futureMonday();
const ids: Values = {};
const MISSING: Values = {
  customerCode: 'ISO-NOPE',
  siteCode: 'ISO-NOPE',
  assetCode: 'ISO-NOPE',
  technicianCode: 'ISO-NOPE',
  workOrderCode: 'ISO-NOPE',
  workOrderUuid: '00000000-0000-4000-8000-000000000000',
  projectCode: 'ISO-NOPE',
  standardServiceOrderCode: 'ISO-NOPE',
  routeServiceOrderCode: 'ISO-NOPE',
  subscriptionId: '00000000-0000-4000-8000-000000000001',
  deliveryId: '00000000-0000-4000-8000-000000000002',
  noteCode: 'N-ISO',
  itemCode: 'ISO-NOPE',
  skillCode: 'ISO-NOPE',
};
const wo =
  (code = 'WO-E2E-1') =>
  () => ({ workOrderCode: code, workOrderUuid: ids[`uuid:${code}`] });
/** docs/api/projectManagement.md, Visibility. */
const LINK_UP =
  "a link may name a project or service order of the caller's parent offices; dependencies are changed from the project's tree only";
const catalog = 'the catalog is shared by every office (only ROOT writes it: spec, Rights)';

const TARGETS: Record<string, Target> = {
  putCustomer: {
    kind: 'record',
    values: () => ({ customerCode: 'ACME' }),
    upsert: true,
    body: () => ({ name: 'Mine', addressDetails: { city: 'X' } }),
  },
  getCustomer: { kind: 'record', values: () => ({ customerCode: 'ACME' }) },
  'referentials.customers.history': { kind: 'record', values: () => ({ customerCode: 'ACME' }) },
  'referentials.sites.history': { kind: 'record', values: () => ({ siteCode: 'ACME-HQ' }) },
  'referentials.assets.history': { kind: 'record', values: () => ({ assetCode: 'ACME-BOILER-1' }) },
  putSite: {
    kind: 'record',
    values: () => ({ siteCode: 'ACME-HQ' }),
    upsert: true,
    body: () => ({
      name: 'Mine',
      customerCode: 'ACME',
      location: { addressDetails: { address: '1 rue', city: 'X' } },
    }),
  },
  getSite: { kind: 'record', values: () => ({ siteCode: 'ACME-HQ' }) },
  putAsset: {
    kind: 'record',
    values: () => ({ assetCode: 'ACME-BOILER-1' }),
    upsert: true,
    body: () => ({ name: 'Mine' }),
  },
  getAsset: { kind: 'record', values: () => ({ assetCode: 'ACME-BOILER-1' }) },
  listCustomers: { kind: 'list', ownerOnly: ['"ACME"'] },
  listSites: { kind: 'list', ownerOnly: ['"ACME-HQ"'] },
  listAssets: { kind: 'list', ownerOnly: ['"ACME-BOILER-1"'] },
  listCustomFieldDefinitions: {
    kind: 'open',
    reason: 'definitions of custom fields are the instance’s, not an office’s',
  },
  listOffices: { kind: 'list', ownerOnly: ['"NORTH"'] },
  'businessOrganization.items.put': { kind: 'open', reason: catalog },
  'businessOrganization.items.get': { kind: 'open', reason: catalog },
  'businessOrganization.items.history': { kind: 'open', reason: catalog },
  'staff.skills.history': { kind: 'open', reason: catalog },
  'businessOrganization.items.list': { kind: 'open', reason: catalog },
  'referentials.items.list': { kind: 'open', reason: catalog },
  'businessOrganization.itemCategories.list': { kind: 'open', reason: catalog },
  'staff.skills.put': { kind: 'open', reason: catalog },
  'staff.skills.list': { kind: 'open', reason: catalog },
  'staff.characteristics.list': { kind: 'open', reason: catalog },
  'rostering.crews.list': {
    kind: 'list',
    // A crew is listed to every office one of its members belongs to (docs/api/rostering.md):
    // CREW-NORTH has TECH-S1 of SOUTH; NORTH's members are hidden from SOUTH.
    // (its main resource TECH-N1 is shown with it).
    ownerOnly: ['"TECH-N2"'],
    query: '?crewsStartDate=2025-01-01&crewsEndDate=2025-12-31',
  },
  'rostering.areas.list': { kind: 'open', reason: 'areas (zip codes) are the instance’s' },
  'rostering.technicians.list': { kind: 'list', ownerOnly: ['"TECH-N1"', '"TECH-N2"'] },
  'rostering.technicians.get': { kind: 'record', values: () => ({ technicianCode: 'TECH-N1' }) },
  'fieldTracking.technicians.positions': { kind: 'record', values: () => ({ technicianCode: 'TECH-N1' }) },
  'fieldTracking.technicians.positions.span': {
    kind: 'record',
    values: () => ({ technicianCode: 'TECH-N1' }),
  },
  'fieldTracking.workOrders.activities.code': { kind: 'record', values: wo() },
  'fieldTracking.workOrders.activities.uuid': { kind: 'record', values: wo() },
  'fieldTracking.workOrders.activities.totals.code': { kind: 'record', values: wo() },
  'fieldTracking.workOrders.activities.totals.uuid': { kind: 'record', values: wo() },
  'fieldTracking.activityTypes.list': { kind: 'open', reason: catalog },
  'fieldService.workOrders.usedItems.code': { kind: 'record', values: wo() },
  'fieldService.workOrders.usedItems.uuid': { kind: 'record', values: wo() },
  'fieldService.workOrders.usedItems.totals.code': { kind: 'record', values: wo() },
  'fieldService.workOrders.usedItems.totals.uuid': { kind: 'record', values: wo() },
  'fieldService.workOrders.list': { kind: 'list', ownerOnly: ['"WO-E2E-1"', '"WO-E2E-P1"'] },
  'fieldService.workOrders.get.code': { kind: 'record', values: wo() },
  'fieldService.workOrders.get.uuid': { kind: 'record', values: wo() },
  'fieldService.workOrders.history.code': { kind: 'record', values: wo() },
  'fieldService.workOrders.history.uuid': { kind: 'record', values: wo() },
  'fieldService.workOrders.validate.code': { kind: 'record', values: wo('WO-E2E-DONE') },
  'fieldService.workOrders.validate.uuid': { kind: 'record', values: wo('WO-E2E-DONE') },
  'fieldService.workOrders.delete.code': { kind: 'record', values: wo('WO-E2E-2') },
  'fieldService.workOrders.delete.uuid': { kind: 'record', values: wo('WO-E2E-2') },
  'fieldService.workOrderTypes.list': { kind: 'open', reason: catalog },
  'slots.search': {
    kind: 'record',
    values: () => ({ workOrderCode: 'WO-E2E-PLAN' }),
    body: (v) => ({
      workOrderType: { code: 'REPAIR' },
      workOrder: { code: v.workOrderCode },
      timeRanges: [{ start: `${monday}T08:00`, end: `${monday}T18:00` }],
    }),
  },
  'slots.workOrders.needs': { kind: 'record', values: wo('WO-E2E-PLAN') },
  'slots.check': {
    kind: 'record',
    values: () => ({ workOrderCode: 'WO-E2E-PLAN', technicianCode: 'TECH-N1' }),
    body: (v) => ({
      workOrder: { code: v.workOrderCode },
      technicianCode: v.technicianCode,
      start: `${monday}T08:00`,
    }),
  },
  'slots.board': {
    kind: 'list',
    ownerOnly: ['"TECH-N1"', '"TECH-N2"'],
    query: `?start=${monday}T00:00&end=${monday}T23:59`,
  },
  'scheduling.workOrders.schedule.code': {
    kind: 'record',
    values: wo('WO-E2E-PLAN'),
    body: () => ({ technicianCode: 'TECH-N1', start: `${monday}T08:00` }),
  },
  'scheduling.workOrders.schedule.uuid': {
    kind: 'record',
    values: wo('WO-E2E-PLAN'),
    body: () => ({ technicianCode: 'TECH-N1', start: `${monday}T08:00` }),
  },
  'scheduling.workOrders.get.code': { kind: 'record', values: wo() },
  'scheduling.workOrders.get.uuid': { kind: 'record', values: wo() },
  'scheduling.workOrders.unschedule.code': { kind: 'record', values: wo('WO-E2E-P3') },
  'diagnostic.flags.put.code': { kind: 'record', values: wo(), body: () => ({ ids: [1] }) },
  'diagnostic.flags.put.uuid': { kind: 'record', values: wo(), body: () => ({ ids: [1] }) },
  'diagnostic.notes.put.code': {
    kind: 'record',
    values: () => ({ ...wo()(), noteCode: 'N-ISO' }),
    body: () => ({ content: 'x' }),
  },
  'diagnostic.notes.put.uuid': {
    kind: 'record',
    values: () => ({ ...wo()(), noteCode: 'N-ISO' }),
    body: () => ({ content: 'x' }),
  },
  'diagnostic.workOrders.get.code': { kind: 'record', values: wo() },
  'diagnostic.workOrders.get.uuid': { kind: 'record', values: wo() },
  'diagnostic.flags.list': { kind: 'open', reason: 'flag labels are the instance’s' },
  'projectManagement.projects.link': {
    kind: 'record',
    child: { codes: ['projectmanagement.project.job.code.unknown'], reason: LINK_UP },
    values: () => ({ projectCode: 'PRJ-E2E' }),
    body: () => ({ type: 'workOrder', code: 'WO-E2E-P5' }),
  },
  'projectManagement.standardServiceOrders.link': {
    kind: 'record',
    child: { codes: ['projectmanagement.standardserviceorder.workorder.code.unknown'], reason: LINK_UP },
    values: () => ({ standardServiceOrderCode: 'SO-E2E' }),
    body: () => ({ code: 'WO-E2E-SO5' }),
  },
  'projectManagement.routeServiceOrders.link': {
    kind: 'record',
    child: { codes: ['projectmanagement.routeserviceorder.workorder.code.unknown'], reason: LINK_UP },
    values: () => ({ routeServiceOrderCode: 'RT-E2E' }),
    body: () => ({ code: 'WO-E2E-SO5' }),
  },
  'projectManagement.projects.dependencies.delete': {
    kind: 'record',
    child: { codes: ['projectmanagement.project.block.office.conflict'], reason: LINK_UP },
    values: () => ({ projectCode: 'PRJ-E2E' }),
    body: () => ({
      blocking: { jobType: 'task', code: 2 },
      blocked: { jobType: 'workOrder', code: 'WO-E2E-P3' },
    }),
  },
  'projectManagement.projects.get': { kind: 'record', values: () => ({ projectCode: 'PRJ-E2E' }) },
  'projectManagement.projects.history': { kind: 'record', values: () => ({ projectCode: 'PRJ-E2E' }) },
  'projectManagement.standardServiceOrders.history': {
    kind: 'record',
    values: () => ({ standardServiceOrderCode: 'SO-E2E' }),
  },
  'projectManagement.routeServiceOrders.history': {
    kind: 'record',
    values: () => ({ routeServiceOrderCode: 'RT-E2E' }),
  },
  'projectManagement.standardServiceOrders.get': {
    kind: 'record',
    values: () => ({ standardServiceOrderCode: 'SO-E2E' }),
  },
  'projectManagement.routeServiceOrders.get': {
    kind: 'record',
    values: () => ({ routeServiceOrderCode: 'RT-E2E' }),
  },
  'projectManagement.projects.list': { kind: 'list', ownerOnly: ['"PRJ-E2E"'] },
  'projectManagement.standardServiceOrders.list': { kind: 'list', ownerOnly: ['"SO-E2E"'] },
  'projectManagement.routeServiceOrders.list': { kind: 'list', ownerOnly: ['"RT-E2E"'] },
  'projectManagement.workOrders.list': { kind: 'list', ownerOnly: ['"WO-E2E-1"', '"WO-E2E-P1"'] },
  'webhooks.subscriptions.create': {
    kind: 'open',
    reason: 'creates the caller’s own subscription; its events are its office’s (webhooks tests)',
  },
  'webhooks.subscriptions.list': { kind: 'list', ownerOnly: ['subscriptionId'] },
  'webhooks.subscriptions.delete': { kind: 'record', values: () => ({ subscriptionId: ids.subscriptionId }) },
  'webhooks.deliveries.list': { kind: 'record', values: () => ({ subscriptionId: ids.subscriptionId }) },
  'webhooks.deliveries.get': {
    kind: 'record',
    values: () => ({ subscriptionId: ids.subscriptionId, deliveryId: ids.deliveryId }),
  },
  'webhooks.deliveries.replay': {
    kind: 'record',
    values: () => ({ subscriptionId: ids.subscriptionId, deliveryId: ids.deliveryId }),
  },
  'webhooks.subscriptions.test': { kind: 'record', values: () => ({ subscriptionId: ids.subscriptionId }) },
  'webhooks.subscriptions.history': {
    kind: 'record',
    values: () => ({ subscriptionId: ids.subscriptionId }),
  },
  'changes.feed': { kind: 'list', ownerOnly: ['"WO-E2E-1"'], query: '?kinds=workOrder' },
  'changes.stream': { kind: 'list', ownerOnly: ['"WO-E2E-1"'], query: '?kinds=workOrder&lastEventId=0' },
  'console.me.get': { kind: 'open', reason: 'the caller itself' },
  'console.search': { kind: 'list', ownerOnly: ['"WO-E2E-1"', '"WO-E2E-P1"'], query: '?q=WO-E2E&size=50' },
  'console.home.get': {
    kind: 'open',
    reason:
      'the caller’s own counts and offices (consoleData.test.ts: no other tree’s or tenant’s record is counted)',
  },
};

/**
 * What is shared by the offices of a tenant but not across tenants: for RIVAL, these rows
 * replace the `open` ones of TARGETS.
 */
const TENANT_TARGETS: Record<string, Target> = {
  'businessOrganization.items.put': {
    kind: 'record',
    values: () => ({ itemCode: 'E2E-FILTER' }),
    upsert: true,
    body: () => ({ name: 'Mine', unitPrice: 0, serialNumberPattern: '^X$' }),
  },
  'businessOrganization.items.get': { kind: 'record', values: () => ({ itemCode: 'E2E-FILTER' }) },
  'businessOrganization.items.history': { kind: 'record', values: () => ({ itemCode: 'E2E-FILTER' }) },
  'businessOrganization.items.list': { kind: 'list', ownerOnly: ['"E2E-FILTER"'] },
  'referentials.items.list': { kind: 'list', ownerOnly: ['"E2E-FILTER"'] },
  'businessOrganization.itemCategories.list': { kind: 'list', ownerOnly: ['"E2E-CATEGORY"'] },
  'staff.skills.put': {
    kind: 'record',
    values: () => ({ skillCode: 'ELEC' }),
    upsert: true,
    body: () => ({ name: 'Mine' }),
  },
  'staff.skills.list': { kind: 'list', ownerOnly: ['"ELEC"'] },
  'staff.skills.history': { kind: 'record', values: () => ({ skillCode: 'ELEC' }) },
  'staff.characteristics.list': { kind: 'list', ownerOnly: ['"DRIVING_C"'] },
  'rostering.areas.list': { kind: 'list', ownerOnly: ['"LILLE-METRO"'] },
  'fieldTracking.activityTypes.list': { kind: 'list', ownerOnly: ['"WORK"'] },
  'fieldService.workOrderTypes.list': { kind: 'list', ownerOnly: ['"REPAIR"'] },
  'diagnostic.flags.list': { kind: 'list', ownerOnly: ['"Urgent"'] },
  listCustomFieldDefinitions: { kind: 'list', ownerOnly: ['"TIER"'] },
};

let t: TestApp;
let tables: string[] = [];
/** Tables that hold tenant_id (migration 090). */
let tenantTables = new Set<string>();
const codes = (res: LightMyRequestResponse) =>
  (res.json() as { errors?: { code: string }[] }).errors?.map((e) => e.code) ?? [];

beforeAll(async () => {
  t = await createTestApp({ rateLimits: NO_RATE_LIMITS });
  const dataset = JSON.parse(
    readFileSync(join(import.meta.dirname, '../../../e2e/support/dataset.json'), 'utf8'),
  );
  dataset.positions = [
    ...(dataset.positions ?? []),
    { technicianCode: 'TECH-N1', timestamp: '2025-06-02T08:00', latitude: 50.6, longitude: 3.0 },
  ];
  delete dataset.users;
  dataset.items[0].category = 'E2E-CATEGORY';
  await runImport(t.db, dataset);
  for (const code of ['WO-E2E-1', 'WO-E2E-2', 'WO-E2E-DONE', 'WO-E2E-PLAN']) {
    const res = await t.api(getWorkOrderByCode, { params: { workOrderCode: code } });
    expect(res.statusCode, `${code}: ${res.body}`).toBe(200);
    ids[`uuid:${code}`] = res.json().uuid;
  }
  // NORTH's subscription and one delivery of it (the worker is off: it stays pending).
  const sub = await t.api(createSubscription, {
    as: 'north',
    body: {
      eventTypes: ['asset.upsert'],
      callbackUrl: 'https://hooks.example.com/north',
      secret: 'x'.repeat(32),
    },
  });
  expect(sub.statusCode, sub.body).toBe(201);
  ids.subscriptionId = sub.json().subscriptionId;
  const test = await t.api(sendTestEvent, { params: { subscriptionId: ids.subscriptionId }, as: 'north' });
  expect(test.statusCode, test.body).toBeLessThan(300);
  const deliveries = await t.api(listDeliveries, {
    params: { subscriptionId: ids.subscriptionId },
    as: 'north',
  });
  ids.deliveryId = deliveries.json().data[0]?.deliveryId ?? deliveries.json().data[0]?.id;
  expect(ids.deliveryId, deliveries.body).toBeTruthy();
  for (const c of ['root', 'north', 'northA', 'south', 'rival'] as const) await t.token(c);
  const rows = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(t.db);
  // caller_listeners: each service process's heartbeat (every 5 s on PostgreSQL), not data.
  tables = rows.rows.map((r) => r.table_name).filter((name) => name !== 'caller_listeners');
  const owned = await sql<{ table_name: string }>`
    select table_name from information_schema.columns
    where table_schema = current_schema() and column_name = 'tenant_id'`.execute(t.db);
  tenantTables = new Set(owned.rows.map((r) => r.table_name));
}, 120_000);
afterAll(() => t?.close());

/** A checksum of every row of every table, by table; without `exceptTenant`'s own rows. */
async function checksums(exceptTenant?: string): Promise<Record<string, string>> {
  const union = tables
    .map((name) => {
      const own =
        exceptTenant && tenantTables.has(name) ? ` where x.tenant_id <> ${Number(exceptTenant)}` : '';
      return `select '${name}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${name}" x${own}`;
    })
    .join(' union all ');
  const { rows } = await sql.raw<{ t: string; h: string }>(union).execute(t.db);
  return Object.fromEntries(rows.map((r) => [r.t, r.h]));
}

function urlOf(e: Endpoint, v: Values) {
  return e.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = v[name];
    if (value === undefined) throw new Error(`${e.id}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}

const ATTACKERS: { as: TestClient; what: string }[] = [
  { as: 'south', what: 'a sibling office (SOUTH)' },
  { as: 'northA', what: 'a child office (NORTH-A)' },
  { as: 'rival', what: 'another tenant (RIVAL)' },
];
const RIVAL = ATTACKERS[2];

/** An answer with the codes of the request set aside (and the error reference, always new). */
function shape(res: LightMyRequestResponse, values: Values) {
  let body = res.body;
  for (const v of Object.values(values)
    .filter(Boolean)
    .sort((a, b) => b.length - a.length))
    body = body.replaceAll(v, '<code>').replaceAll(v.toUpperCase(), '<code>');
  const parsed = body ? JSON.parse(body) : null;
  if (parsed && typeof parsed === 'object') delete parsed.errorReference;
  return { status: res.statusCode, body: parsed };
}

describe('isolation matrix', () => {
  it('classifies every endpoint of the table (a new one must be added here)', () => {
    const missing = endpoints.filter((e) => !TARGETS[e.id]).map((e) => e.id);
    expect(missing, 'endpoints not in the isolation matrix').toEqual([]);
    const stale = Object.keys({ ...TARGETS, ...TENANT_TARGETS }).filter(
      (id) => !endpoints.some((e) => e.id === id),
    );
    expect(stale, 'matrix rows of endpoints that no longer exist').toEqual([]);
    // Open across tenants: only what is the caller's own.
    const open = endpoints.filter((e) => (TENANT_TARGETS[e.id] ?? TARGETS[e.id]).kind === 'open');
    expect(open.map((e) => e.id).sort()).toEqual([
      'console.home.get',
      'console.me.get',
      'webhooks.subscriptions.create',
    ]);
  });

  // Deletions last: they remove the records the other rows use.
  const ordered = [...endpoints].sort(
    (a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
  );
  const records = ordered.filter((e) => TARGETS[e.id]?.kind === 'record');
  const lists = ordered.filter((e) => TARGETS[e.id]?.kind === 'list');
  let cases = 0;

  it.each(lists.map((e) => [`${e.method} ${e.path}`, e] as const))('list %s', async (_n, e) => {
    const target = TARGETS[e.id] as Extract<Target, { kind: 'list' }>;
    const owner = await t.call(e.method, urlOf(e, {}) + (target.query ?? ''), { as: 'north' });
    expect(owner.statusCode, owner.body).toBe(200);
    const forbidden = target.ownerOnly.map((s) => (s === 'subscriptionId' ? ids.subscriptionId : s));
    for (const s of forbidden) expect(owner.body, `NORTH sees its own ${s}`).toContain(s);
    for (const { as, what } of ATTACKERS) {
      const res = await t.call(e.method, urlOf(e, {}) + (target.query ?? ''), { as });
      cases++;
      expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
      for (const s of forbidden) expect(res.body, `${what} sees NORTH's ${s}`).not.toContain(s);
    }
  });

  // The catalog and the other lists a tenant's offices share: none of it reaches RIVAL.
  const tenantLists = ordered.filter((e) => TENANT_TARGETS[e.id]?.kind === 'list');
  it.each(tenantLists.map((e) => [`${e.method} ${e.path}`, e] as const))('tenant list %s', async (_n, e) => {
    const target = TENANT_TARGETS[e.id] as Extract<Target, { kind: 'list' }>;
    const owner = await t.call(e.method, urlOf(e, {}), { as: 'south' });
    expect(owner.statusCode, owner.body).toBe(200);
    for (const s of target.ownerOnly) expect(owner.body, `SOUTH sees its tenant's ${s}`).toContain(s);
    const res = await t.call(e.method, urlOf(e, {}), { as: RIVAL.as });
    cases++;
    expect(res.statusCode, res.body).toBe(200);
    for (const s of target.ownerOnly) expect(res.body, `RIVAL sees ROOT's ${s}`).not.toContain(s);
  });

  const tenantRecords = ordered.filter((e) => TENANT_TARGETS[e.id]?.kind === 'record');
  it.each(tenantRecords.map((e) => [`${e.method} ${e.path}`, e] as const))(
    'tenant record %s',
    async (_n, e) => {
      const target = TENANT_TARGETS[e.id] as Extract<Target, { kind: 'record' }>;
      await attackAsRival(e, target);
      const own = await t.call(e.method, urlOf(e, target.values()), {
        as: 'root',
        ...(target.body ? { body: target.body(target.values()) } : {}),
      });
      expect(own.statusCode, `${e.id} by ROOT: ${own.body}`).toBeLessThan(300);
    },
  );

  it.each(records.map((e) => [`${e.method} ${e.path}`, e] as const))('record %s', async (_n, e) => {
    const target = TARGETS[e.id] as Extract<Target, { kind: 'record' }>;
    const values = target.values();
    const missing = { ...values, ...Object.fromEntries(Object.keys(values).map((k) => [k, MISSING[k]])) };
    // noteCode is the caller's to choose: only the work order is missing.
    if ('noteCode' in values) missing.noteCode = values.noteCode;
    const body = target.body?.(values);
    await attackAsRival(e, target);
    for (const { as, what } of ATTACKERS.filter((a) => a !== RIVAL)) {
      // (A PUT by code on a code that does not exist creates it: not asked of the upserts.)
      const unknown = target.upsert
        ? undefined
        : await t.call(e.method, urlOf(e, missing), {
            as,
            ...(target.body ? { body: target.body(missing) } : {}),
          });
      const before = await checksums();
      const res = await t.call(e.method, urlOf(e, values), { as, ...(body === undefined ? {} : { body }) });
      cases++;
      if (process.env.ISOLATION_DEBUG) console.log(e.id, as, res.statusCode, codes(res).join(' '));
      const label = `${e.id} by ${what}: ${res.statusCode} ${res.body}`;
      if (!unknown) expectPutOnInvisible(res, e);
      else if (as === 'northA' && target.child) {
        expect(res.statusCode, label).toBe(400);
        expect(codes(res), `${label} (${target.child.reason})`).toEqual(target.child.codes);
      } else {
        // The spec's "unknown": 404, or the endpoint's own `...unknown` / `...notfound` code.
        expect(
          unknown.statusCode === 404 || codes(unknown).some((c) => /unknown|notfound/i.test(c)),
          `unknown record: ${unknown.statusCode} ${unknown.body}`,
        ).toBe(true);
        expect(res.statusCode, label).toBe(unknown.statusCode);
        expect(codes(res), label).toEqual(codes(unknown));
      }
      expect(await checksums(), `${label}: tables changed`).toEqual(before);
    }
    // The owner's own request is not refused for its shape (reads and writes alike).
    if (e.method !== 'DELETE') {
      const own = await t.call(e.method, urlOf(e, values), {
        as: 'north',
        ...(body === undefined ? {} : { body }),
      });
      expect(own.statusCode, `${e.id} by NORTH: ${own.body}`).not.toBe(404);
    }
  });

  /**
   * RIVAL on one record of ROOT's tenant: the answer is the answer on a code that does not
   * exist (a PUT creates RIVAL's own record on either), and no row of ROOT's tenant changes.
   */
  async function attackAsRival(e: Endpoint, target: Extract<Target, { kind: 'record' }>) {
    const values = target.values();
    // A PUT creates its code: each upsert is compared with a code never used before.
    const absent = (k: string) => (target.upsert ? `RIVAL-NEW-${cases}` : MISSING[k]);
    const missing = { ...values, ...Object.fromEntries(Object.keys(values).map((k) => [k, absent(k)])) };
    if ('noteCode' in values) missing.noteCode = values.noteCode;
    const send = (v: Values) =>
      t.call(e.method, urlOf(e, v), { as: RIVAL.as, ...(target.body ? { body: target.body(v) } : {}) });
    const unknown = await send(missing);
    const before = await checksums(t.tenants.RIVAL);
    const res = await send(values);
    cases++;
    const label = `${e.id} by ${RIVAL.what}: ${res.statusCode} ${res.body}`;
    if (process.env.ISOLATION_DEBUG) console.log(e.id, 'rival', res.statusCode, codes(res).join(' '));
    // (A site names its customer, ACME, which RIVAL does not hold: refused alike for both codes.)
    if (target.upsert && e.id !== 'putSite') expect(res.statusCode, label).toBe(201);
    else
      expect(
        unknown.statusCode === 404 || codes(unknown).some((c) => /unknown|notfound/i.test(c)),
        `unknown record: ${unknown.statusCode} ${unknown.body}`,
      ).toBe(true);
    expect(shape(res, values), label).toEqual(shape(unknown, missing));
    expect(await checksums(t.tenants.RIVAL), `${label}: ROOT's tenant changed`).toEqual(before);
    // RIVAL's own records go: its later reads of these codes must find nothing of its own.
    if (target.upsert)
      for (const table of ['customers', 'sites', 'assets', 'items', 'skills'])
        await sql`DELETE FROM ${sql.table(table)} WHERE tenant_id = ${t.tenants.RIVAL}`.execute(t.db);
  }

  afterAll(() =>
    console.log(
      `isolation matrix: ${cases} cross-office and cross-tenant cases over ${endpoints.length} endpoints`,
    ),
  );
});
