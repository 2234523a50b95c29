/**
 * Writes src/contract/examples.json: one example request and its real answer for every
 * operation of the API, drawn from the demo dataset (src/server/cli/demo.json). The requests
 * below are sent, in this order, to a service that holds the demo dataset and nothing else
 * (in memory), as the demo integration; each answer is recorded as the service gave it, and
 * a status other than the one expected stops the script.
 *
 *   node --import tsx scripts/openapi-examples.ts
 *
 * Run it after changing an endpoint or the demo dataset; src/server/platform/openapiExamples.test.ts
 * checks that every endpoint has an example and that each one matches its schemas.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { OperationExample } from '../src/contract/examples.ts';
import { endpoints } from '../src/contract/index.ts';
import { buildApp } from '../src/server/app.ts';
import { DEMO_CLIENT_ID, seedDemo } from '../src/server/cli/commands/seed.ts';
import { DEFAULT_RATE_LIMITS } from '../src/server/platform/rateLimit.ts';

const OUT = new URL('../src/contract/examples.json', import.meta.url);

interface Step {
  id: string;
  summary: string;
  params?: Record<string, string | (() => string)>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  status: number;
}

// What a later step needs of an earlier answer (work order uuids, the subscription's id...).
const found: Record<string, string> = {};
const uuidOf = (code: string) => () => found[`uuid:${code}`];

const STEPS: Step[] = [
  // Referentials
  {
    id: 'putCustomer',
    summary: 'A new customer of the FR-NORTH office',
    params: { customerCode: 'BAKERY-NORD' },
    body: {
      name: 'Boulangerie du Nord',
      officeCode: 'FR-NORTH',
      contact: { name: 'Claire Petit', details: [{ type: 'Phone', value: '+33 3 20 00 20 00' }] },
      addressDetails: { address: '12 rue Nationale', zipCode: '59000', city: 'Lille', country: 'FR' },
      description: 'Three ovens, serviced every year',
      customFields: { CUSTOMER_TIER: { dropDownValue: 'Silver' } },
    },
    status: 201,
  },
  { id: 'getCustomer', summary: 'The demo key account', params: { customerCode: 'ACME' }, status: 200 },
  {
    id: 'putSite',
    summary: "The new customer's shop",
    params: { siteCode: 'BAKERY-NORD-S1' },
    body: {
      name: 'Boulangerie du Nord — shop',
      customerCode: 'BAKERY-NORD',
      location: {
        geolocation: { latitude: 50.6368, longitude: 3.0635 },
        addressDetails: { address: '12 rue Nationale', zipCode: '59000', city: 'Lille', country: 'FR' },
      },
    },
    status: 201,
  },
  { id: 'getSite', summary: "Acme's main site", params: { siteCode: 'ACME-S1' }, status: 200 },
  {
    id: 'putAsset',
    summary: 'An oven of the new shop',
    params: { assetCode: 'OVEN-001' },
    body: { name: 'Deck oven', siteCode: 'BAKERY-NORD-S1', serialNumber: 'DO-2024-0042' },
    status: 201,
  },
  { id: 'getAsset', summary: 'An air handling unit', params: { assetCode: 'HVAC-001' }, status: 200 },
  {
    id: 'listCustomers',
    summary: 'Customers whose code or name holds "acme"',
    query: { q: 'acme' },
    status: 200,
  },
  { id: 'listSites', summary: 'The sites of one customer', query: { customerCode: 'ACME' }, status: 200 },
  { id: 'listAssets', summary: 'The assets of one site', query: { siteCode: 'ACME-S1' }, status: 200 },
  {
    id: 'listCustomFieldDefinitions',
    summary: 'The custom fields of customers',
    query: { entity: 'customer' },
    status: 200,
  },
  { id: 'listOffices', summary: 'The office tree', status: 200 },
  // Business organization
  {
    id: 'businessOrganization.items.put',
    summary: 'A new catalog item',
    params: { itemCode: 'FILTER-M5' },
    body: {
      name: 'Bag filter M5 592x592',
      category: 'Filters',
      unit: 'piece',
      unitPrice: 42.9,
      vatRates: [20],
      reference: 'FLT-M5-592',
      manufacturer: 'Camfil',
    },
    status: 201,
  },
  {
    id: 'businessOrganization.items.get',
    summary: 'An air filter',
    params: { itemCode: 'FILTER-G4' },
    status: 200,
  },
  {
    id: 'businessOrganization.items.list',
    summary: 'Active items of the Filters category',
    query: { category: 'Filters', active: true },
    status: 200,
  },
  { id: 'referentials.items.list', summary: 'Items holding "filter"', query: { q: 'filter' }, status: 200 },
  { id: 'businessOrganization.itemCategories.list', summary: 'Every item category', status: 200 },
  // Staff
  {
    id: 'staff.skills.put',
    summary: 'A new skill',
    params: { skillCode: 'WELD' },
    body: { name: 'Welding', description: 'Arc and gas welding' },
    status: 201,
  },
  { id: 'staff.skills.list', summary: 'Every skill', status: 200 },
  { id: 'staff.characteristics.list', summary: 'Every characteristic', status: 200 },
  // Rostering
  {
    id: 'rostering.crews.list',
    summary: 'Crews active in the first week of 2026, 10 a page',
    query: { crewsStartDate: '2026-01-05', crewsEndDate: '2026-01-11', crewsSize: 10 },
    status: 200,
  },
  { id: 'rostering.areas.list', summary: 'Every area', status: 200 },
  {
    id: 'rostering.technicians.list',
    summary: 'Active technicians of FR-NORTH and below',
    query: { officeCode: 'FR-NORTH', active: true },
    status: 200,
  },
  {
    id: 'rostering.technicians.get',
    summary: 'A technician',
    params: { technicianCode: 'TECH-LILLE-1' },
    status: 200,
  },
  // Field service (first: the work orders' uuids, for the uuid: paths of every domain)
  {
    id: 'fieldService.workOrders.get.code',
    summary: 'A completed work order',
    params: { workOrderCode: 'WO-0901' },
    status: 200,
  },
  {
    id: 'fieldService.workOrders.list',
    summary: 'New work orders of FR-NORTH whose code starts with WO-100',
    query: { q: 'WO-100', status: 'NEW', officeCode: 'FR-NORTH' },
    status: 200,
  },
  {
    id: 'fieldService.workOrders.get.uuid',
    summary: 'A work order by uuid',
    params: { workOrderUuid: uuidOf('WO-1001') },
    status: 200,
  },
  {
    id: 'fieldService.workOrders.usedItems.code',
    summary: 'Items used on a completed work order, 50 a page',
    params: { workOrderCode: 'WO-0901' },
    query: { pageSize: 50 },
    status: 200,
  },
  {
    id: 'fieldService.workOrders.usedItems.uuid',
    summary: 'Items charged to the customer',
    params: { workOrderUuid: uuidOf('WO-0901') },
    query: { invoiceMode: 'external' },
    status: 200,
  },
  {
    id: 'fieldService.workOrders.usedItems.totals.code',
    summary: 'Totals of the items used',
    params: { workOrderCode: 'WO-0901' },
    status: 200,
  },
  {
    id: 'fieldService.workOrders.usedItems.totals.uuid',
    summary: 'Totals of the items charged to the customer',
    params: { workOrderUuid: uuidOf('WO-0901') },
    query: { invoiceMode: 'external' },
    status: 200,
  },
  { id: 'fieldService.workOrderTypes.list', summary: 'Every work order type', status: 200 },
  // Field tracking
  {
    id: 'fieldTracking.technicians.positions',
    summary: "A technician's positions on a morning",
    params: { technicianCode: 'TECH-LILLE-1' },
    query: { positionsStartDate: '2025-11-03T07:00', positionsEndDate: '2025-11-03T12:00' },
    status: 200,
  },
  {
    id: 'fieldTracking.technicians.positions.span',
    summary: "Where a technician's positions start and end",
    params: { technicianCode: 'TECH-LILLE-1' },
    status: 200,
  },
  {
    id: 'fieldTracking.workOrders.activities.code',
    summary: 'The activities of a completed work order',
    params: { workOrderCode: 'WO-0901' },
    status: 200,
  },
  {
    id: 'fieldTracking.workOrders.activities.uuid',
    summary: 'Its billable activities',
    params: { workOrderUuid: uuidOf('WO-0901') },
    query: { invoicingStatus: 'billable' },
    status: 200,
  },
  {
    id: 'fieldTracking.workOrders.activities.totals.code',
    summary: 'Totals of its activities',
    params: { workOrderCode: 'WO-0901' },
    status: 200,
  },
  {
    id: 'fieldTracking.workOrders.activities.totals.uuid',
    summary: 'Totals of its validated activities',
    params: { workOrderUuid: uuidOf('WO-0901') },
    query: { validationStatus: 'validated' },
    status: 200,
  },
  { id: 'fieldTracking.activityTypes.list', summary: 'Every activity type', status: 200 },
  // Slots and scheduling
  {
    id: 'slots.search',
    summary: 'Slots for a boiler service in Lille over two days',
    body: {
      workOrderType: { code: 'BOILER-SERVICE' },
      timeRanges: [{ start: '2030-03-04T07:00', end: '2030-03-06T00:00' }],
      zipCode: '59000',
    },
    status: 200,
  },
  {
    id: 'slots.workOrders.needs',
    summary: 'What a work order needs',
    params: { workOrderCode: 'WO-1001' },
    status: 200,
  },
  {
    id: 'scheduling.workOrders.schedule.code',
    summary: 'Schedules a boiler service on a technician',
    params: { workOrderCode: 'WO-1001' },
    body: { technicianCode: 'TECH-LILLE-1', start: '2030-03-04T09:00' },
    status: 204,
  },
  {
    id: 'scheduling.workOrders.schedule.uuid',
    summary: 'Schedules another one by uuid',
    params: { workOrderUuid: uuidOf('WO-1108') },
    body: { technicianCode: 'TECH-LILLE-1', start: '2030-03-05T09:00' },
    status: 204,
  },
  {
    id: 'scheduling.workOrders.get.code',
    summary: 'The schedule of a work order',
    params: { workOrderCode: 'WO-1001' },
    status: 200,
  },
  {
    id: 'scheduling.workOrders.get.uuid',
    summary: 'The schedule of a work order, by uuid',
    params: { workOrderUuid: uuidOf('WO-1108') },
    status: 200,
  },
  {
    id: 'slots.check',
    summary: 'Would another work order fit the same technician that afternoon?',
    body: { workOrder: { code: 'WO-1108' }, technicianCode: 'TECH-LILLE-1', start: '2030-03-04T14:00' },
    status: 200,
  },
  {
    id: 'slots.board',
    summary: "The Lille technicians' week on the dispatch board",
    query: { start: '2030-03-04T00:00', end: '2030-03-09T00:00', q: 'LILLE' },
    status: 200,
  },
  // Diagnostic
  {
    id: 'diagnostic.flags.put.code',
    summary: 'Flags a work order urgent, parts to order',
    params: { workOrderCode: 'WO-1001' },
    body: { ids: [1, 3] },
    status: 204,
  },
  {
    id: 'diagnostic.flags.put.uuid',
    summary: 'Flags another by uuid',
    params: { workOrderUuid: uuidOf('WO-1002') },
    body: { ids: [2] },
    status: 204,
  },
  {
    id: 'diagnostic.notes.put.code',
    summary: 'A note of the technician',
    params: { workOrderCode: 'WO-1001', noteCode: 'ARRIVAL' },
    body: { content: 'Boiler room locked; the caretaker opened it at 9:10.' },
    status: 201,
  },
  {
    id: 'diagnostic.notes.put.uuid',
    summary: 'A report, by uuid',
    params: { workOrderUuid: uuidOf('WO-1002'), noteCode: 'QUOTE' },
    body: { reportFields: { panel: 'Legrand 3-row', quoteSent: true } },
    status: 201,
  },
  {
    id: 'diagnostic.workOrders.get.code',
    summary: 'Flags and notes',
    params: { workOrderCode: 'WO-1001' },
    status: 200,
  },
  {
    id: 'diagnostic.workOrders.get.uuid',
    summary: 'Flags and notes, by uuid',
    params: { workOrderUuid: uuidOf('WO-1002') },
    status: 200,
  },
  { id: 'diagnostic.flags.list', summary: 'Every flag', status: 200 },
  // Work order lifecycle
  {
    id: 'fieldService.workOrders.validate.code',
    summary: 'Validates a completed work order',
    params: { workOrderCode: 'WO-1105' },
    status: 204,
  },
  {
    id: 'fieldService.workOrders.validate.uuid',
    summary: 'Validates another by uuid',
    params: { workOrderUuid: uuidOf('WO-1107') },
    status: 204,
  },
  // Project management
  {
    id: 'projectManagement.projects.link',
    summary: 'Links a work order into a project, after the WORKS phase',
    params: { projectCode: 'PRJ-LILLE-HQ' },
    body: {
      type: 'workOrder',
      code: 'WO-1005',
      insertion: { insertionMode: 'after', relativePosition: 'WORKS', jobType: 'phase' },
    },
    status: 204,
  },
  {
    id: 'projectManagement.standardServiceOrders.link',
    summary: 'Adds a work order to a standard service order, first',
    params: { standardServiceOrderCode: 'SO-LILLE-ELEC' },
    body: { code: 'WO-1101', insertion: { insertionMode: 'first' } },
    status: 204,
  },
  {
    id: 'projectManagement.routeServiceOrders.link',
    summary: 'Adds a work order to a route, before another',
    params: { routeServiceOrderCode: 'RT-LILLE-MONDAY' },
    body: { code: 'WO-1004', insertion: { insertionMode: 'before', relativePosition: 'WO-1001' } },
    status: 204,
  },
  {
    id: 'projectManagement.projects.dependencies.delete',
    summary: 'Removes a dependency between two tasks',
    params: { projectCode: 'PRJ-LILLE-HQ' },
    body: { blocking: { jobType: 'task', code: 3 }, blocked: { jobType: 'task', code: 4 } },
    status: 204,
  },
  {
    id: 'projectManagement.projects.get',
    summary: 'A project',
    params: { projectCode: 'PRJ-LILLE-2029' },
    status: 200,
  },
  {
    id: 'projectManagement.standardServiceOrders.get',
    summary: 'A standard service order',
    params: { standardServiceOrderCode: 'SO-LILLE-BOILERS' },
    status: 200,
  },
  {
    id: 'projectManagement.routeServiceOrders.get',
    summary: 'A route',
    params: { routeServiceOrderCode: 'RT-LYON-TUESDAY' },
    status: 200,
  },
  {
    id: 'projectManagement.projects.list',
    summary: 'Projects holding "lille"',
    query: { q: 'lille' },
    status: 200,
  },
  {
    id: 'projectManagement.standardServiceOrders.list',
    summary: 'Every standard service order',
    status: 200,
  },
  {
    id: 'projectManagement.routeServiceOrders.list',
    summary: 'Routes holding "lyon"',
    query: { q: 'lyon' },
    status: 200,
  },
  {
    id: 'projectManagement.workOrders.list',
    summary: 'Work orders for the linker',
    query: { q: 'WO-110' },
    status: 200,
  },
  // Webhooks
  {
    id: 'webhooks.subscriptions.create',
    summary: 'Subscribes to validations and schedulings of work orders',
    body: {
      eventTypes: ['workorder.validation', 'status.scheduled'],
      callbackUrl: 'https://hooks.example.com/fieldwork',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      headers: { 'X-Tenant': 'demo' },
    },
    status: 201,
  },
  { id: 'webhooks.subscriptions.list', summary: 'Your subscriptions', status: 200 },
  {
    id: 'webhooks.subscriptions.test',
    summary: 'Sends a test callback',
    params: { subscriptionId: () => found.subscriptionId },
    status: 202,
  },
  {
    id: 'webhooks.deliveries.list',
    summary: 'The callbacks of a subscription',
    params: { subscriptionId: () => found.subscriptionId },
    status: 200,
  },
  {
    id: 'webhooks.deliveries.get',
    summary: 'One callback and its attempts',
    params: { subscriptionId: () => found.subscriptionId, deliveryId: () => found.deliveryId },
    status: 200,
  },
  {
    id: 'webhooks.deliveries.replay',
    summary: 'Sends a callback again',
    params: { subscriptionId: () => found.subscriptionId, deliveryId: () => found.deliveryId },
    status: 202,
  },
  // The change log (issue 29): histories of records written above, the feed, the stream.
  {
    id: 'referentials.customers.history',
    summary: 'Who changed the new customer, and what',
    params: { customerCode: 'BAKERY-NORD' },
    status: 200,
  },
  {
    id: 'referentials.sites.history',
    summary: "The new shop's history",
    params: { siteCode: 'BAKERY-NORD-S1' },
    status: 200,
  },
  {
    id: 'referentials.assets.history',
    summary: "The oven's history",
    params: { assetCode: 'OVEN-001' },
    status: 200,
  },
  {
    id: 'businessOrganization.items.history',
    summary: "An item's history, one actor's entries",
    params: { itemCode: 'FILTER-M5' },
    query: { actor: 'Demo integration', limit: 10 },
    status: 200,
  },
  { id: 'staff.skills.history', summary: "A skill's history", params: { skillCode: 'WELD' }, status: 200 },
  {
    id: 'fieldService.workOrders.history.code',
    summary: 'A work order scheduled, flagged and validated above',
    params: { workOrderCode: 'WO-1001' },
    status: 200,
  },
  {
    id: 'fieldService.workOrders.history.uuid',
    summary: 'The same by uuid',
    params: { workOrderUuid: uuidOf('WO-1001') },
    query: { limit: 2 },
    status: 200,
  },
  {
    id: 'projectManagement.projects.history',
    summary: "A project's history (work orders linked)",
    params: { projectCode: 'PRJ-LILLE-HQ' },
    status: 200,
  },
  {
    id: 'projectManagement.standardServiceOrders.history',
    summary: "A service order's history",
    params: { standardServiceOrderCode: 'SO-LILLE-ELEC' },
    status: 200,
  },
  {
    id: 'projectManagement.routeServiceOrders.history',
    summary: "A route's history",
    params: { routeServiceOrderCode: 'RT-LILLE-MONDAY' },
    status: 200,
  },
  {
    id: 'webhooks.subscriptions.history',
    summary: 'Your subscription created (its secret never shown)',
    params: { subscriptionId: () => found.subscriptionId },
    status: 200,
  },
  { id: 'changes.feed', summary: 'The first two changes of the feed', query: { limit: 2 }, status: 200 },
  {
    id: 'changes.stream',
    summary: 'The stream, resumed after the first change (the first event shown)',
    query: { lastEventId: '1' },
    status: 200,
  },
  // Deletions last: their work orders and subscription are gone after them.
  {
    id: 'fieldService.workOrders.delete.code',
    summary: 'Deletes a work order',
    params: { workOrderCode: 'WO-1111' },
    status: 204,
  },
  {
    id: 'fieldService.workOrders.delete.uuid',
    summary: 'Deletes a work order by uuid',
    params: { workOrderUuid: uuidOf('WO-1110') },
    status: 204,
  },
  {
    id: 'webhooks.subscriptions.delete',
    summary: 'Ends a subscription',
    params: { subscriptionId: () => found.subscriptionId },
    status: 204,
  },
  { id: 'console.me.get', summary: 'Who the token is', status: 200 },
  { id: 'console.home.get', summary: "Home's counts and offices", status: 200 },
  { id: 'console.search', summary: 'Records whose code starts with ACME', query: { q: 'ACME' }, status: 200 },
  // Last: the other examples show WO-1108 scheduled.
  {
    id: 'scheduling.workOrders.unschedule.code',
    summary: 'Takes a work order off its technician, back to the work to schedule',
    params: { workOrderCode: 'WO-1108' },
    status: 204,
  },
];

/** Waits until no callback is pending any more (the worker gave each up). */
/** The stream never ends: its example is its beginning, up to its first event. */
async function streamExample(app: FastifyInstance, token: string, step: Step, query: string) {
  const res = await app.inject({
    method: 'GET',
    url: `/eTech/rest/ws/changes/v1/stream?${query}`,
    headers: { authorization: `Bearer ${token}` },
    payloadAsStream: true,
  });
  if (res.statusCode !== step.status) throw new Error(`changes.stream: got ${res.statusCode}`);
  const stream = res.stream();
  let text = '';
  for await (const chunk of stream) {
    text += String(chunk);
    const end = text.indexOf('\n\n', text.indexOf('event: change'));
    if (text.includes('event: change') && end >= 0) {
      text = text.slice(0, end + 2);
      break;
    }
  }
  stream.destroy();
  return {
    summary: step.summary,
    request: { query: step.query },
    response: { status: res.statusCode, body: text },
  } satisfies OperationExample;
}

async function deliveriesFinished(service: FastifyInstance) {
  for (let i = 0; i < 200; i++) {
    const pending = await service.fieldwork.dbh.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .execute();
    if (pending.length === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('callbacks still pending after 10 s');
}

const app = await buildApp(
  {
    host: '127.0.0.1',
    port: 0,
    publicUrl: 'https://fieldwork.example.com',
    dataDir: 'memory://',
    rateLimits: structuredClone(DEFAULT_RATE_LIMITS),
    accessTokenTtl: 3600,
    logLevel: 'silent',
    validateResponses: true,
    consoleDir: join(tmpdir(), 'fieldwork-examples-without-console'),
    // Callbacks are attempted, an hour of retries in 0.36 s: the example host does not
    // resolve, so the test callback ends failed, and can be replayed.
    webhooks: { worker: true, allowPrivate: false, timeScale: 0.0001, concurrency: 4 },
  },
  {
    logger: false,
    webhooks: {
      resolve: async (host) => {
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      },
    },
  },
);
try {
  const { generated } = await seedDemo(app.fieldwork.dbh.db);
  const secret = generated.find((c) => c.kind === 'application' && c.id === DEMO_CLIENT_ID)?.secret;
  if (!secret) throw new Error('the demo application has no secret');
  const tokenAnswer = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${DEMO_CLIENT_ID}:${secret}`).toString('base64')}`,
    },
    payload: 'grant_type=client_credentials',
  });
  const token = tokenAnswer.json().access_token as string;
  // Every work order's uuid, for the uuid: paths.
  for (const row of await app.fieldwork.dbh.db.selectFrom('work_orders').select(['code', 'uuid']).execute())
    found[`uuid:${row.code}`] = String(row.uuid);

  const byId = new Map(endpoints.map((e) => [e.id, e]));
  const examples: Record<string, OperationExample> = {};
  const failures: string[] = [];
  for (const step of STEPS) {
    const endpoint = byId.get(step.id);
    if (!endpoint) throw new Error(`no endpoint ${step.id}`);
    const params = Object.fromEntries(
      Object.entries(step.params ?? {}).map(([k, v]) => [k, typeof v === 'function' ? v() : v]),
    );
    const path = endpoint.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name]));
    const query = new URLSearchParams(
      Object.entries(step.query ?? {}).map(([k, v]) => [k, String(v)] as [string, string]),
    ).toString();
    if (step.id === 'changes.stream') {
      examples[step.id] = await streamExample(app, token, step, query);
      continue;
    }
    const res = await app.inject({
      method: endpoint.method,
      url: query ? `${path}?${query}` : path,
      headers: {
        authorization: `Bearer ${token}`,
        ...(step.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      payload: step.body === undefined ? undefined : JSON.stringify(step.body),
    });
    if (res.statusCode !== step.status) {
      failures.push(`${step.id}: expected ${step.status}, got ${res.statusCode} ${res.body.slice(0, 300)}`);
      continue;
    }
    const body = res.body ? res.json() : undefined;
    if (step.id === 'webhooks.subscriptions.create') found.subscriptionId = body.subscriptionId;
    if (step.id === 'webhooks.subscriptions.test') await deliveriesFinished(app);
    if (step.id === 'webhooks.deliveries.list') found.deliveryId = body.data[0].deliveryId;
    examples[step.id] = {
      summary: step.summary,
      request: {
        ...(step.params ? { params } : {}),
        ...(step.query ? { query: step.query } : {}),
        ...(step.body === undefined ? {} : { body: step.body }),
      },
      response: { status: res.statusCode, ...(body === undefined ? {} : { body }) },
    };
  }
  if (failures.length) throw new Error(`answers other than expected:\n${failures.join('\n')}`);
  const missing = endpoints.filter((e) => !examples[e.id]).map((e) => e.id);
  if (missing.length) throw new Error(`no example for ${missing.join(', ')}`);
  writeFileSync(OUT, `${JSON.stringify(examples, null, 2)}\n`);
  // In the layout the linter checks (npm run lint).
  const biome = fileURLToPath(new URL('../node_modules/@biomejs/biome/bin/biome', import.meta.url));
  const formatted = spawnSync(process.execPath, [biome, 'format', '--write', fileURLToPath(OUT)], {
    stdio: 'inherit',
  });
  if (formatted.status !== 0) throw new Error('biome format failed');
  process.stderr.write(`examples of ${Object.keys(examples).length} operations written to ${OUT.pathname}\n`);
} finally {
  await app.close();
}
