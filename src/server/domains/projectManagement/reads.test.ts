import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ProjectManagementCodes as C,
  getProject,
  getRouteServiceOrder,
  getStandardServiceOrder,
  linkProject,
  linkRouteServiceOrder,
  linkStandardServiceOrder,
  listLinkableWorkOrders,
  listProjects,
  listRouteServiceOrders,
  listStandardServiceOrders,
  PROJECT_LINK_CODES,
  projectManagementEndpoints,
  ROUTE_LINK_CODES,
  STANDARD_LINK_CODES,
} from '../../../contract/projectManagement.ts';
import { runImport } from '../../cli/importFile.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { projectFixture, UNLIMITED } from './fixture.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: UNLIMITED });
  await runImport(t.db, projectFixture());
});
afterAll(() => t.close());

const uuidOf = async (code: string) =>
  (
    await sql<{
      uuid: string;
    }>`SELECT uuid::text AS uuid FROM work_orders WHERE code = ${code} AND status <> 'VALIDATED'`.execute(
      t.db,
    )
  ).rows[0].uuid;

describe('GET a project, a service order (extensions)', () => {
  it('answers the project: jobs in order with their planned dates, and its dependencies', async () => {
    await runImport(t.db, {
      workOrders: [
        {
          workOrderCode: 'WO-N1',
          workOrderTypeCode: 'REPAIR',
          status: 'SCHEDULED',
          officeCode: 'NORTH',
          scheduledStart: '2030-01-09T08:00',
        },
      ],
    });
    const res = await t.api(getProject, { params: { projectCode: 'p-north' }, as: 'north' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      projectCode: 'P-NORTH',
      name: 'North renovation',
      officeCode: 'NORTH',
      status: 'inProgress',
      jobs: [
        {
          jobType: 'phase',
          code: 'PH-1',
          name: 'Study',
          plannedStart: '2030-01-01T08:00:00Z',
          plannedEnd: '2030-01-05T17:00:00Z',
        },
        {
          jobType: 'task',
          code: '1',
          name: 'Survey',
          plannedStart: '2030-01-02T08:00:00Z',
          plannedEnd: '2030-01-07T10:00:00Z',
        },
        // A work order's planned dates are its schedule: start plus the type's 120 minutes.
        {
          jobType: 'workOrder',
          code: 'WO-N1',
          uuid: await uuidOf('WO-N1'),
          plannedStart: '2030-01-09T08:00:00Z',
          plannedEnd: '2030-01-09T10:00:00Z',
        },
        { jobType: 'task', code: '2', name: 'Order parts', plannedStart: null, plannedEnd: null },
        { jobType: 'phase', code: 'PH-2', name: 'Works', plannedStart: null, plannedEnd: null },
        {
          jobType: 'workOrder',
          code: 'WO-N2',
          uuid: await uuidOf('WO-N2'),
          plannedStart: null,
          plannedEnd: null,
        },
        {
          jobType: 'task',
          code: '3',
          name: 'Handover',
          plannedStart: '2030-02-01T08:00:00Z',
          plannedEnd: null,
        },
      ],
      dependencies: [
        { blocking: { jobType: 'task', code: '1' }, blocked: { jobType: 'workOrder', code: 'WO-N1' } },
      ],
    });
  });

  it('outside the caller tree a project is unknown (404), its parent offices included', async () => {
    for (const [code, as] of [
      ['P-SOUTH', 'north'],
      ['P-ROOT', 'north'],
      ['NOPE', 'root'],
      ['P'.repeat(51), 'root'],
    ] as const) {
      const res = await t.api(getProject, { params: { projectCode: code }, as });
      expect(res.statusCode, code).toBe(404);
      expect(res.json().errors[0].code).toBe(C.projectUnknown);
    }
    const empty = await t.api(getProject, { params: { projectCode: '' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].code).toBe(C.projectCodeMandatory);
  });

  it('answers a service order of each kind; a code of another kind is unknown', async () => {
    const so = await t.api(getStandardServiceOrder, {
      params: { standardServiceOrderCode: 'so-north' },
      as: 'north',
    });
    expect(so.json()).toEqual({
      serviceOrderCode: 'SO-NORTH',
      officeCode: 'NORTH',
      status: 'open',
      maxWorkOrders: 50,
      workOrders: [
        { code: 'WO-N3', uuid: await uuidOf('WO-N3'), status: 'NEW' },
        { code: 'WO-N4', uuid: await uuidOf('WO-N4'), status: 'NEW' },
      ],
    });
    const route = await t.api(getRouteServiceOrder, { params: { routeServiceOrderCode: 'RT-EMPTY' } });
    expect(route.json()).toEqual({
      serviceOrderCode: 'RT-EMPTY',
      officeCode: 'NORTH',
      status: 'open',
      maxWorkOrders: 100,
      workOrders: [],
    });
    for (const [read, code] of [
      [
        () => t.api(getStandardServiceOrder, { params: { standardServiceOrderCode: 'RT-NORTH' } }),
        C.standardUnknown,
      ],
      [
        () => t.api(getStandardServiceOrder, { params: { standardServiceOrderCode: 'ME-NORTH' } }),
        C.standardUnknown,
      ],
      [() => t.api(getRouteServiceOrder, { params: { routeServiceOrderCode: 'SO-NORTH' } }), C.routeUnknown],
    ] as const) {
      const res = await read();
      expect(res.statusCode).toBe(404);
      expect(res.json().errors[0].code).toBe(code);
    }
    expect(
      (await t.api(getStandardServiceOrder, { params: { standardServiceOrderCode: 'SO-ROOT' }, as: 'north' }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.api(getStandardServiceOrder, {
          params: { standardServiceOrderCode: 'SO-SOUTH' },
          as: 'north',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.api(getStandardServiceOrder, { params: { standardServiceOrderCode: '' } })).json().errors[0]
        .code,
    ).toBe(C.serviceOrderCodeMandatory);
  });
});

describe('lists (extensions): the caller tree, keyset by code, search by code', () => {
  it('projects: the caller tree only, with counts; q searches the code', async () => {
    const north = await t.api(listProjects, { as: 'north' });
    expect(north.json()).toEqual({
      continuationToken: null,
      data: [
        {
          projectCode: 'P-A',
          name: 'North A',
          officeCode: 'NORTH-A',
          status: 'inProgress',
          jobCount: 0,
          workOrderCount: 0,
        },
        {
          projectCode: 'P-DONE',
          name: 'Finished',
          officeCode: 'NORTH',
          status: 'completed',
          jobCount: 1,
          workOrderCount: 1,
        },
        {
          projectCode: 'P-NORTH',
          name: 'North renovation',
          officeCode: 'NORTH',
          status: 'inProgress',
          jobCount: 7,
          workOrderCount: 2,
        },
      ],
    });
    const done = await t.api(listProjects, { query: { q: 'don' }, as: 'north' });
    expect(done.json().data.map((p: { projectCode: string }) => p.projectCode)).toEqual(['P-DONE']);
    expect((await t.api(listProjects, { query: { q: '%' } })).json().data).toEqual([]);
  });

  it('pages of 100 by code; a token is bound to its search', async () => {
    await runImport(t.db, {
      projects: Array.from({ length: 130 }, (_, i) => ({
        projectCode: `PX-${String(i).padStart(3, '0')}`,
        name: `Bulk ${i}`,
        officeCode: 'NORTH-A',
      })),
    });
    const first = (await t.api(listProjects, { query: { q: 'px-' } })).json();
    expect(first.data).toHaveLength(100);
    expect(first.data[0].projectCode).toBe('PX-000');
    const second = (
      await t.api(listProjects, { query: { q: 'px-', continuationToken: first.continuationToken } })
    ).json();
    expect(second.data.map((p: { projectCode: string }) => p.projectCode)).toEqual(
      Array.from({ length: 30 }, (_, i) => `PX-${100 + i}`),
    );
    expect(second.continuationToken).toBeNull();
    const other = await t.api(listProjects, {
      query: { q: 'p', continuationToken: first.continuationToken },
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().errors[0].code).toBe(C.continuationTokenInvalid);
    expect(
      (await t.api(listProjects, { query: { continuationToken: 'garbage' } })).json().errors[0].code,
    ).toBe(C.continuationTokenInvalid);
    // Outside the row's query: its path with a query of its own.
    expect((await t.call('GET', `${listProjects.path}?sort=code`)).json().errors[0].code).toBe(
      C.fieldUnknown,
    );
  });

  it('service orders: one list per kind, with the maximum and the count', async () => {
    const standard = (await t.api(listStandardServiceOrders, { as: 'north' })).json();
    expect(standard.data.map((s: { serviceOrderCode: string }) => s.serviceOrderCode)).toEqual([
      'SO-A',
      'SO-DONE',
      'SO-NORTH',
      'SO-SMALL',
      'SO-VALID',
    ]);
    expect(standard.data[3]).toEqual({
      serviceOrderCode: 'SO-SMALL',
      officeCode: 'NORTH',
      status: 'open',
      maxWorkOrders: 1,
      workOrderCount: 1,
    });
    const route = (await t.api(listRouteServiceOrders, { query: { q: 'north' } })).json();
    expect(route.data).toEqual([
      {
        serviceOrderCode: 'RT-NORTH',
        officeCode: 'NORTH',
        status: 'inProgress',
        maxWorkOrders: 20,
        workOrderCount: 2,
      },
    ]);
  });

  it('work orders with the project and service order holding each, for the linker search', async () => {
    const res = (await t.api(listLinkableWorkOrders, { query: { q: 'wo-n' }, as: 'north' })).json();
    const byCode = Object.fromEntries(
      res.data.map((w: { workOrderCode: string }) => [w.workOrderCode, w]),
    ) as Record<string, Record<string, unknown>>;
    expect(Object.keys(byCode)).toEqual([
      'WO-N1',
      'WO-N2',
      'WO-N3',
      'WO-N4',
      'WO-N5',
      'WO-N6',
      'WO-N7',
      'WO-N8',
    ]);
    expect(byCode['WO-N1']).toMatchObject({
      projectCode: 'P-NORTH',
      serviceOrderCode: null,
      serviceOrderKind: null,
    });
    expect(byCode['WO-N3']).toEqual({
      workOrderCode: 'WO-N3',
      uuid: await uuidOf('WO-N3'),
      status: 'NEW',
      officeCode: 'NORTH',
      plannedStart: null,
      plannedEnd: null,
      projectCode: null,
      serviceOrderCode: 'SO-NORTH',
      serviceOrderKind: 'standard',
    });
    expect(byCode['WO-N7']).toMatchObject({ serviceOrderCode: 'RT-NORTH', serviceOrderKind: 'route' });
    // Both WO-TWIN (validated and live), by code then uuid; the south ones are not listed.
    const twins = (await t.api(listLinkableWorkOrders, { query: { q: 'twin' }, as: 'north' })).json().data;
    expect(twins.map((w: { status: string }) => w.status)).toEqual(['VALIDATED', 'NEW']);
    expect((await t.api(listLinkableWorkOrders, { query: { q: 'wo-s1' }, as: 'north' })).json().data).toEqual(
      [],
    );
    expect(
      (await t.api(listLinkableWorkOrders, { query: { q: 'wo-s1' }, as: 'south' })).json().data,
    ).toHaveLength(1);
  });
});

describe('OpenAPI document', () => {
  it('lists every code of each link table on its endpoint, and marks the reads as extensions', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const codesOf = (path: string, method = 'post') =>
      doc.paths[path][method].responses['400']['x-error-codes'];
    for (const [e, table] of [
      [linkProject, PROJECT_LINK_CODES],
      [linkStandardServiceOrder, STANDARD_LINK_CODES],
      [linkRouteServiceOrder, ROUTE_LINK_CODES],
    ] as const) {
      expect(codesOf(e.path)).toEqual(expect.arrayContaining([...table]));
      expect(doc.paths[e.path].post['x-rate-limit-range']).toBe('high');
      expect(doc.paths[e.path].post['x-extension']).toBeUndefined();
    }
    for (const e of Object.values(projectManagementEndpoints).filter((x) => x.method !== 'POST'))
      expect(doc.paths[e.path][e.method.toLowerCase()]['x-extension'], e.id).toBe(true);
    // The link body is documented with its exact shape.
    const body = doc.components.schemas.ProjectLinkBody;
    expect(body.required).toEqual(['type', 'code']);
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(body.properties.insertion.anyOf[0].properties)).toEqual([
      'insertionMode',
      'position',
      'relativePosition',
      'jobType',
      'block',
      'isBlockedBy',
    ]);
    expect(doc.components.schemas.StandardServiceOrderLinkBody.properties.type).toBeUndefined();
  });
});
