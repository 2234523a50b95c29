import type { FastifyInstance } from 'fastify';
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
} from '../../../contract/projectManagement.ts';
import { buildApp } from '../../app.ts';
import { runImport } from '../../cli/importFile.ts';
import { codesOf, urlOf } from '../../testing/api.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { UNLIMITED } from './fixture.ts';

/**
 * 50 link calls at once on one project and on one service order, through two service
 * processes sharing the PostgreSQL database (20 connections): every call is answered as a
 * serial execution would answer it, and the order holds each work order once, with no gap.
 */
let t: TestApp;
let other: FastifyInstance;
let token: string;
const N = 50;
const codes = (prefix: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `${prefix}${from + i}`);

beforeAll(async () => {
  t = await createTestApp({ rateLimits: UNLIMITED });
  other = await buildApp(t.config, { logger: false });
  token = await t.token('root');
  const tasks = [1, 2, 3].map((n) => ({ jobType: 'task', code: n }));
  await runImport(t.db, {
    workOrderTypes: [{ workOrderTypeCode: 'REPAIR', name: 'Repair', durationMinutes: 60 }],
    workOrders: [
      ...[
        ...codes('W', 2 * N),
        ...codes('S', N + 10),
        ...codes('R', N),
        'RA',
        ...codes('L', 20),
        ...codes('I', 15),
        ...codes('F', 15),
      ].map((code) => ({
        workOrderCode: code,
        workOrderTypeCode: 'REPAIR',
        status: 'NEW',
        officeCode: 'NORTH',
      })),
      ...['RDONE1', 'RDONE2'].map((code) => ({
        workOrderCode: code,
        workOrderTypeCode: 'REPAIR',
        status: 'COMPLETED',
        officeCode: 'NORTH',
      })),
    ],
    projects: [
      // W25..W49 already sit at the end of P-ONE; W50..W99 are split between P-X and P-Y.
      {
        projectCode: 'P-ONE',
        name: 'One',
        officeCode: 'NORTH',
        jobs: [...tasks, ...codes('W', N / 2, N / 2).map((code) => ({ jobType: 'workOrder', code }))],
      },
      {
        projectCode: 'P-X',
        name: 'X',
        officeCode: 'NORTH',
        jobs: codes('W', N / 2, N).map((code) => ({ jobType: 'workOrder', code })),
      },
      // Moved last (one statement each), past the end (the full path) and first, all at once.
      {
        projectCode: 'P-LAST',
        name: 'Last',
        officeCode: 'NORTH',
        jobs: [...codes('L', 20), ...tasks, ...codes('F', 15), ...codes('I', 15)].map((code) =>
          typeof code === 'string' ? { jobType: 'workOrder', code } : code,
        ),
      },
      {
        projectCode: 'P-Y',
        name: 'Y',
        officeCode: 'NORTH',
        jobs: codes('W', N / 2, N + N / 2).map((code) => ({ jobType: 'workOrder', code })),
      },
    ],
    standardServiceOrders: [
      { serviceOrderCode: 'SO-CAP', officeCode: 'NORTH', maxWorkOrders: 40 },
      { serviceOrderCode: 'SO-L', officeCode: 'NORTH', workOrders: codes('S', 5, N) },
      { serviceOrderCode: 'SO-R', officeCode: 'NORTH', workOrders: codes('S', 5, N + 5) },
      // R35..R39 leave it for the route RT-ONE.
      { serviceOrderCode: 'SO-RT', officeCode: 'NORTH', workOrders: codes('R', 5, 35) },
    ],
    routeServiceOrders: [
      // RA stays in place (the anchor of before/after); R40..R47 and RDONE1 move along the route.
      {
        serviceOrderCode: 'RT-ONE',
        officeCode: 'NORTH',
        maxWorkOrders: 60,
        workOrders: ['RA', ...codes('R', 8, 40), 'RDONE1'],
      },
      // R25..R34 leave it for RT-ONE; RDONE2 (completed) cannot.
      { serviceOrderCode: 'RT-TWO', officeCode: 'NORTH', workOrders: [...codes('R', 10, 25), 'RDONE2'] },
    ],
  });
});
afterAll(async () => {
  await other.close();
  await t.close();
});

/** The URLs of the rows these calls use: a project's and a service order's link and read. */
const projectLinkUrl = (projectCode: string) => urlOf(linkProject, { params: { projectCode } });
const projectUrl = (projectCode: string) => urlOf(getProject, { params: { projectCode } });
const standardLinkUrl = (standardServiceOrderCode: string) =>
  urlOf(linkStandardServiceOrder, { params: { standardServiceOrderCode } });
const standardUrl = (standardServiceOrderCode: string) =>
  urlOf(getStandardServiceOrder, { params: { standardServiceOrderCode } });
const routeLinkUrl = (routeServiceOrderCode: string) =>
  urlOf(linkRouteServiceOrder, { params: { routeServiceOrderCode } });
const routeUrl = (routeServiceOrderCode: string) =>
  urlOf(getRouteServiceOrder, { params: { routeServiceOrderCode } });

/** A link call, sent alternately to each of the two processes. */
let turn = 0;
function post(url: string, body: unknown) {
  const app = turn++ % 2 === 0 ? t.app : other;
  return app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}
const read = async (url: string) => (await t.call('GET', url)).json();
const jobCodes = async (project: string) =>
  ((await read(projectUrl(project))).jobs as { code: string }[]).map((j) => j.code);

describe('50 parallel link calls (PostgreSQL, two service processes)', () => {
  it('on one project: every call applied, each work order once, no gap', async () => {
    // 25 new work orders and the 25 already at the end all go right after task 1.
    const answers = await Promise.all(
      codes('W', N).map((code) =>
        post(projectLinkUrl('P-ONE'), {
          type: 'workOrder',
          code,
          insertion: { insertionMode: 'after', relativePosition: '1', jobType: 'task' },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(N).fill(204));
    const order = await jobCodes('P-ONE');
    expect(order).toHaveLength(N + 3);
    expect(order[0]).toBe('1');
    expect(order.slice(N + 1)).toEqual(['2', '3']);
    expect(new Set(order.slice(1, N + 1))).toEqual(new Set(codes('W', N)));
    const { rows } = await sql<{ n: string }>`
      SELECT count(DISTINCT rank)::text AS n FROM project_jobs j JOIN projects p ON p.id = j.project_id
      WHERE p.code = 'P-ONE'`.execute(t.db);
    expect(Number(rows[0].n)).toBe(N + 3);
  });

  it('on one project, moves last beside moves past the end and first: the keys stay unique and in place', async () => {
    const last = codes('L', 20);
    const pastEnd = codes('I', 15);
    const first = codes('F', 15);
    const insertion = (code: string) =>
      code.startsWith('L')
        ? undefined
        : code.startsWith('I')
          ? { insertionMode: 'index', position: 1e9 }
          : { insertionMode: 'first' };
    const all = [...last, ...pastEnd, ...first].sort(() => Math.random() - 0.5);
    const answers = await Promise.all(
      all.map((code) =>
        post(projectLinkUrl('P-LAST'), { type: 'workOrder', code, insertion: insertion(code) }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(N).fill(204));
    const order = await jobCodes('P-LAST');
    expect(order).toHaveLength(N + 3);
    expect(new Set(order.slice(0, 15))).toEqual(new Set(first));
    expect(order.slice(15, 18)).toEqual(['1', '2', '3']);
    expect(new Set(order.slice(18))).toEqual(new Set([...last, ...pastEnd]));
    const { rows } = await sql<{ n: string }>`
      SELECT count(DISTINCT j.rank)::text AS n
      FROM project_jobs j JOIN projects p ON p.id = j.project_id WHERE p.code = 'P-LAST'`.execute(t.db);
    expect(Number(rows[0].n)).toBe(N + 3);
    // Then, one at a time, each path places after the keys the other wrote.
    for (const [code, how] of [
      ['F0', undefined],
      ['F1', { insertionMode: 'index', position: 1e9 }],
      ['F2', undefined],
    ] as const) {
      expect(
        (await post(projectLinkUrl('P-LAST'), { type: 'workOrder', code, insertion: how })).statusCode,
      ).toBe(204);
      expect((await jobCodes('P-LAST')).at(-1)).toBe(code);
    }
  });

  it('between two projects both ways at once: no lost move, no deadlock', async () => {
    const x = codes('W', N / 2, N);
    const y = codes('W', N / 2, N + N / 2);
    const answers = await Promise.all(
      x.flatMap((code, i) => [
        post(projectLinkUrl('P-Y'), { type: 'workOrder', code, insertion: { insertionMode: 'first' } }),
        post(projectLinkUrl('P-X'), {
          type: 'workOrder',
          code: y[i],
          insertion: { insertionMode: 'last' },
        }),
      ]),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(N).fill(204));
    expect(new Set(await jobCodes('P-X'))).toEqual(new Set(y));
    expect(new Set(await jobCodes('P-Y'))).toEqual(new Set(x));
    expect(await jobCodes('P-X')).toHaveLength(N / 2);
    expect(await jobCodes('P-Y')).toHaveLength(N / 2);
  });

  it('on one service order of 40 at most: exactly 40 taken, 10 refused as full', async () => {
    const answers = await Promise.all(
      codes('S', N).map((code, i) =>
        post(standardLinkUrl('SO-CAP'), {
          code,
          insertion: i % 2 === 0 ? { insertionMode: 'first' } : { insertionMode: 'index', position: i },
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 204)).toHaveLength(40);
    const refused = answers.filter((a) => a.statusCode !== 204);
    expect(refused.map(codesOf)).toEqual(Array(10).fill([C.standardFull]));
    const carried = ((await read(standardUrl('SO-CAP'))).workOrders as { code: string }[]).map((w) => w.code);
    expect(carried).toHaveLength(40);
    expect(new Set(carried).size).toBe(40);
  });

  it('service orders swapping work orders both ways at once', async () => {
    const l = codes('S', 5, N);
    const r = codes('S', 5, N + 5);
    const answers = await Promise.all(
      l.flatMap((code, i) => [
        post(standardLinkUrl('SO-R'), { code }),
        post(standardLinkUrl('SO-L'), { code: r[i], insertion: { insertionMode: 'first' } }),
      ]),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(204));
    const codesOf = async (so: string) =>
      new Set(((await read(standardUrl(so))).workOrders as { code: string }[]).map((w) => w.code));
    expect(await codesOf('SO-L')).toEqual(new Set(r));
    expect(await codesOf('SO-R')).toEqual(new Set(l));
  });

  it('on one route service order: joins, moves along it and from other service orders, no gap, no duplicate, no lost move', async () => {
    // 25 new work orders, 10 from another route, 5 from a standard service order, 9 moving
    // along the route (one completed), and a completed one that cannot leave its route.
    const movers = [...codes('R', 48), 'RDONE1'];
    const modes = (i: number) =>
      [
        { insertionMode: 'first' },
        { insertionMode: 'last' },
        { insertionMode: 'index', position: i },
        { insertionMode: 'after', relativePosition: 'RA' },
        { insertionMode: 'before', relativePosition: 'RA' },
      ][i % 5];
    const answers = await Promise.all([
      ...movers.map((code, i) => post(routeLinkUrl('RT-ONE'), { code, insertion: modes(i) })),
      post(routeLinkUrl('RT-ONE'), { code: 'RDONE2', insertion: { insertionMode: 'first' } }),
    ]);
    expect(answers).toHaveLength(N);
    expect(answers.slice(0, N - 1).map((a) => a.statusCode)).toEqual(Array(N - 1).fill(204));
    const last = answers[N - 1];
    expect(last.statusCode, last.body).toBe(400);
    expect(codesOf(last)).toEqual([C.currentServiceOrderStatusConflict]);
    const carried = async (url: string) =>
      ((await read(url)).workOrders as { code: string }[]).map((w) => w.code);
    const route = await carried(routeUrl('RT-ONE'));
    expect(route).toHaveLength(N);
    expect(new Set(route)).toEqual(new Set(['RA', ...movers]));
    expect(await carried(routeUrl('RT-TWO'))).toEqual(['RDONE2']);
    expect(await carried(standardUrl('SO-RT'))).toEqual([]);
    // Each work order in one service order only, one order key each on the route.
    const { rows } = await sql<{ n: string; ranks: string; wos: string }>`
      SELECT count(*)::text AS n, count(DISTINCT e.rank)::text AS ranks,
        count(DISTINCT e.work_order_id)::text AS wos
      FROM service_order_work_orders e JOIN service_orders s ON s.id = e.service_order_id
      WHERE s.code = 'RT-ONE'`.execute(t.db);
    expect(rows[0]).toEqual({ n: String(N), ranks: String(N), wos: String(N) });
    const { rows: twice } = await sql<{ n: string }>`
      SELECT count(*)::text AS n FROM (
        SELECT work_order_id FROM service_order_work_orders GROUP BY work_order_id HAVING count(*) > 1
      ) d`.execute(t.db);
    expect(twice[0].n).toBe('0');
  });
});
