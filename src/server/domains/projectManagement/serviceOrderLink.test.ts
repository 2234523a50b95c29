import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ProjectManagementCodes as C,
  getRouteServiceOrder,
  getStandardServiceOrder,
  linkRouteServiceOrder,
  linkStandardServiceOrder,
  ROUTE_LINK_CODES,
  STANDARD_LINK_CODES,
} from '../../../contract/projectManagement.ts';
import { runImport } from '../../cli/importFile.ts';
import { codesOf } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { projectFixture, UNLIMITED } from './fixture.ts';

let t: TestApp;
const fixture = projectFixture();
beforeAll(async () => {
  // FIELDWORK_SERVICE_ORDER_MAX of this service: 2 (service orders without their own maximum).
  t = await createTestApp({ rateLimits: UNLIMITED, serviceOrderMax: 2 });
  await runImport(t.db, fixture);
});
afterAll(() => t.close());
const reset = () =>
  runImport(t.db, {
    standardServiceOrders: fixture.standardServiceOrders,
    routeServiceOrders: fixture.routeServiceOrders,
  });

type Kind = 'standard' | 'route';
/** POST .../link of a service order of either kind; raw text instead of the body where given. */
const link = (kind: Kind, so: string, body: unknown, as: TestClient = 'root', raw?: string) =>
  kind === 'standard'
    ? t.api(linkStandardServiceOrder, { params: { standardServiceOrderCode: so }, body, raw, as })
    : t.api(linkRouteServiceOrder, { params: { routeServiceOrderCode: so }, body, raw, as });
const linkWo = (kind: Kind, so: string, code: string, insertion?: unknown, as: TestClient = 'root') =>
  link(kind, so, { code, ...(insertion === undefined ? {} : { insertion }) }, as);
type Answer = Awaited<ReturnType<typeof link>>;
async function refused(answer: Answer | Promise<Answer>, expected: string[]) {
  const res = await answer;
  expect(res.statusCode, res.body).toBe(400);
  expect(codesOf(res)).toEqual(expected);
}
async function ok(answer: Answer | Promise<Answer>) {
  const res = await answer;
  expect(res.statusCode, res.body).toBe(204);
}
const read = async (kind: Kind, so: string) => {
  const res =
    kind === 'standard'
      ? await t.api(getStandardServiceOrder, { params: { standardServiceOrderCode: so } })
      : await t.api(getRouteServiceOrder, { params: { routeServiceOrderCode: so } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const order = async (kind: Kind, so: string) =>
  ((await read(kind, so)).workOrders as { code: string }[]).map((w) => w.code);

describe('standard service order link (spec endpoint 20)', () => {
  beforeEach(reset);

  it('links last by default, then first, index and after; moves inside; takes from another', async () => {
    await ok(linkWo('standard', 'SO-NORTH', 'WO-N1'));
    await ok(linkWo('standard', 'so-north', 'wo-n2', { insertionMode: 'first' }));
    await ok(linkWo('standard', 'SO-NORTH', 'WO-A1', { insertionMode: 'index', position: 2 }));
    await ok(linkWo('standard', 'SO-NORTH', 'WO-A2', { insertionMode: 'after', relativePosition: 'wo-n2' }));
    expect(await order('standard', 'SO-NORTH')).toEqual([
      'WO-N2',
      'WO-A2',
      'WO-N3',
      'WO-A1',
      'WO-N4',
      'WO-N1',
    ]);
    await ok(linkWo('standard', 'SO-NORTH', 'WO-N1', { insertionMode: 'index', position: 0 }));
    await ok(linkWo('standard', 'SO-NORTH', 'WO-N2', { insertionMode: 'index', position: 99 }));
    expect(await order('standard', 'SO-NORTH')).toEqual([
      'WO-N1',
      'WO-A2',
      'WO-N3',
      'WO-A1',
      'WO-N4',
      'WO-N2',
    ]);
    // WO-N7 leaves the route service order for the standard one (it is not completed).
    await ok(linkWo('standard', 'SO-NORTH', 'WO-N7', { insertionMode: 'first' }));
    expect(await order('route', 'RT-NORTH')).toEqual(['WO-DONE1']);
    // A service order takes a work order at any status (tracking only): a completed one too.
    await ok(linkWo('standard', 'SO-NORTH', 'WO-DONE2'));
  });

  it('standardserviceorder.code.unknown: unknown, sibling office, route and multi-equipment codes (rule 4)', async () => {
    await refused(linkWo('standard', 'NOPE', 'WO-N1'), [C.standardUnknown]);
    await refused(linkWo('standard', 'SO-SOUTH', 'WO-N1', undefined, 'north'), [C.standardUnknown]);
    await refused(linkWo('standard', 'RT-NORTH', 'WO-N1'), [C.standardUnknown]);
    await refused(linkWo('standard', 'ME-NORTH', 'WO-N1'), [C.standardUnknown]);
    // One of the caller's parent offices is linkable (at or above the work order).
    await ok(linkWo('standard', 'SO-ROOT', 'WO-N1', undefined, 'north'));
  });

  it('serviceorder.code.mandatory: the code missing in the path', async () => {
    await refused(linkWo('standard', '', 'WO-N1'), [C.serviceOrderCodeMandatory]);
    await refused(linkWo('route', '', 'WO-N1'), [C.serviceOrderCodeMandatory]);
  });

  it('workorder.code.unknown and .mandatory', async () => {
    await refused(linkWo('standard', 'SO-NORTH', 'WO-NOPE'), [C.standardWorkOrderUnknown]);
    await refused(linkWo('standard', 'SO-NORTH', 'WO-S1', undefined, 'north'), [C.standardWorkOrderUnknown]);
    await refused(link('standard', 'SO-NORTH', {}), [C.standardWorkOrderMandatory]);
    await refused(link('standard', 'SO-NORTH', { code: null }), [C.standardWorkOrderMandatory]);
  });

  it('insertion codes: relativePosition.unknown and .mandatory, insertionMode.unknown, position.mandatory and .invalid', async () => {
    await refused(
      linkWo('standard', 'SO-NORTH', 'WO-N1', { insertionMode: 'after', relativePosition: 'WO-N9' }),
      [C.relativePositionUnknown],
    );
    await refused(
      linkWo('standard', 'SO-NORTH', 'WO-N3', { insertionMode: 'after', relativePosition: 'WO-N3' }),
      [C.relativePositionUnknown],
    );
    await refused(linkWo('standard', 'SO-NORTH', 'WO-N1', { insertionMode: 'after' }), [
      C.relativePositionMandatory,
    ]);
    // before is not a mode of the standard link.
    await refused(
      linkWo('standard', 'SO-NORTH', 'WO-N1', { insertionMode: 'before', relativePosition: 'WO-N3' }),
      [C.insertionModeUnknown],
    );
    await refused(linkWo('standard', 'SO-NORTH', 'WO-N1', { insertionMode: 'index' }), [C.positionMandatory]);
    await refused(linkWo('standard', 'SO-NORTH', 'WO-N1', { insertionMode: 'index', position: -3 }), [
      C.positionInvalid,
    ]);
  });

  it('invalid.json and field.unknown (type is not a field of this body)', async () => {
    const raw = await link('standard', 'SO-NORTH', undefined, 'root', '{"code": ');
    await refused(raw, [C.invalidJson]);
    await refused(link('standard', 'SO-NORTH', { code: ['WO-N1'] }), [C.invalidJson]);
    await refused(link('standard', 'SO-NORTH', { type: 'workOrder', code: 'WO-N1' }), [C.fieldUnknown]);
    await refused(linkWo('standard', 'SO-NORTH', 'WO-N1', { jobType: 'workOrder' }), [C.fieldUnknown]);
  });

  it('office.conflict, status.conflict (completed or validated) and full', async () => {
    await refused(linkWo('standard', 'SO-NORTH', 'WO-R1'), [C.standardOfficeConflict]);
    await refused(linkWo('standard', 'SO-DONE', 'WO-N1'), [C.standardStatusConflict]);
    await refused(linkWo('standard', 'SO-VALID', 'WO-N1'), [C.standardStatusConflict]);
    await refused(linkWo('standard', 'SO-SMALL', 'WO-N1'), [C.standardFull]);
    // Moving inside a full one is fine.
    await ok(linkWo('standard', 'SO-SMALL', 'WO-N5', { insertionMode: 'first' }));
  });

  it('full at the instance maximum (FIELDWORK_SERVICE_ORDER_MAX) when it has none of its own', async () => {
    expect((await read('standard', 'SO-A')).maxWorkOrders).toBe(2);
    expect((await read('standard', 'SO-NORTH')).maxWorkOrders).toBe(50);
    await ok(linkWo('standard', 'SO-A', 'WO-A1'));
    await ok(linkWo('standard', 'SO-A', 'WO-A2'));
    await refused(linkWo('standard', 'SO-A', 'WO-A3'), [C.standardFull]);
  });

  it('the service order left must let the work order go', async () => {
    // WO-N6 sits in the completed SO-DONE.
    await refused(linkWo('standard', 'SO-NORTH', 'WO-N6'), [C.currentServiceOrderConflict]);
    // WO-DONE1 is completed and sits on the route RT-NORTH.
    await refused(linkWo('standard', 'SO-NORTH', 'WO-DONE1'), [C.currentServiceOrderStatusConflict]);
  });

  it('currentserviceorder.notlinked: the work order sits in a service order the caller cannot see', async () => {
    const mover = (officeCode: string) => ({
      workOrders: [{ workOrderCode: 'WO-MOVER', workOrderTypeCode: 'REPAIR', status: 'NEW', officeCode }],
    });
    await runImport(t.db, mover('NORTH-A'));
    await ok(linkWo('standard', 'SO-A', 'WO-MOVER'));
    await runImport(t.db, mover('SOUTH'));
    await refused(linkWo('standard', 'SO-SOUTH', 'WO-MOVER', undefined, 'south'), [
      C.currentServiceOrderNotLinked,
    ]);
    await ok(linkWo('standard', 'SO-SOUTH', 'WO-MOVER', undefined, 'root'));
  });

  it('rule.violated: several live work orders carry the code (no ambiguity code in this table)', async () => {
    await refused(linkWo('standard', 'SO-NORTH', 'WO-DUP', undefined, 'north'), [C.ruleViolated]);
    // The live one of a validated and a live pair is linked.
    await ok(linkWo('standard', 'SO-NORTH', 'WO-TWIN'));
    const twin = (await read('standard', 'SO-NORTH')).workOrders.find(
      (w: { code: string }) => w.code === 'WO-TWIN',
    );
    expect(twin).toEqual({ code: 'WO-TWIN', uuid: '1c8d4063-2e3f-4071-8b8c-9d0e1f2a3b4c', status: 'NEW' });
  });

  it('lists every error in the table order; a refusal changes nothing', async () => {
    const before = await read('standard', 'SO-DONE');
    const res = await link('standard', 'SO-DONE', {
      code: 'WO-R1',
      type: 'workOrder',
      insertion: { insertionMode: 'index', position: -1 },
    });
    expect(codesOf(res)).toEqual([
      C.positionInvalid,
      C.fieldUnknown,
      C.standardOfficeConflict,
      C.standardStatusConflict,
    ]);
    const ranks = codesOf(res).map((c) => STANDARD_LINK_CODES.indexOf(c));
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    const all = await link('standard', 'SO-SMALL', { code: 'WO-N6' });
    expect(codesOf(all)).toEqual([C.standardFull, C.currentServiceOrderConflict]);
    expect(await read('standard', 'SO-DONE')).toEqual(before);
    expect(await order('standard', 'SO-SMALL')).toEqual(['WO-N5']);
  });
});

describe('route service order link (spec endpoint 21, designed in the same style)', () => {
  beforeEach(reset);

  it('places work orders on the route: first, last, index, before and after', async () => {
    await ok(linkWo('route', 'RT-NORTH', 'WO-N1', { insertionMode: 'before', relativePosition: 'WO-N7' }));
    await ok(linkWo('route', 'RT-NORTH', 'WO-N2', { insertionMode: 'first' }));
    await ok(linkWo('route', 'RT-NORTH', 'WO-N3', { insertionMode: 'after', relativePosition: 'WO-DONE1' }));
    await ok(linkWo('route', 'RT-NORTH', 'WO-N4', { insertionMode: 'index', position: 1 }));
    await ok(linkWo('route', 'RT-NORTH', 'WO-A1'));
    expect(await order('route', 'RT-NORTH')).toEqual([
      'WO-N2',
      'WO-N4',
      'WO-DONE1',
      'WO-N3',
      'WO-N1',
      'WO-N7',
      'WO-A1',
    ]);
  });

  it('a completed work order moves along its route but does not leave it', async () => {
    await ok(linkWo('route', 'RT-NORTH', 'WO-DONE1', { insertionMode: 'last' }));
    expect(await order('route', 'RT-NORTH')).toEqual(['WO-N7', 'WO-DONE1']);
    await refused(linkWo('route', 'RT-EMPTY', 'WO-DONE1'), [C.currentServiceOrderStatusConflict]);
    // A completed work order joins a route from a standard service order.
    await ok(linkWo('standard', 'SO-NORTH', 'WO-DONE2'));
    await ok(linkWo('route', 'RT-EMPTY', 'WO-DONE2'));
  });

  it('each refusal has its code', async () => {
    await refused(linkWo('route', 'SO-NORTH', 'WO-N1'), [C.routeUnknown]);
    await refused(linkWo('route', 'ME-NORTH', 'WO-N1'), [C.routeUnknown]);
    await refused(linkWo('route', 'RT-NORTH', 'WO-NOPE'), [C.routeWorkOrderUnknown]);
    await refused(link('route', 'RT-NORTH', {}), [C.routeWorkOrderMandatory]);
    await refused(linkWo('route', 'RT-NORTH', 'WO-R1'), [C.routeOfficeConflict]);
    await refused(linkWo('route', 'RT-NORTH', 'WO-N1', { insertionMode: 'sideways' }), [
      C.insertionModeUnknown,
    ]);
    await refused(linkWo('route', 'RT-NORTH', 'WO-N1', { insertionMode: 'before' }), [
      C.relativePositionMandatory,
    ]);
    await refused(
      linkWo('route', 'RT-NORTH', 'WO-N1', { insertionMode: 'before', relativePosition: 'WO-N9' }),
      [C.relativePositionUnknown],
    );
    await refused(linkWo('route', 'RT-NORTH', 'WO-N6'), [C.currentServiceOrderConflict]);
    await refused(linkWo('route', 'RT-NORTH', 'WO-DUP', undefined, 'north'), [C.ruleViolated]);
    await runImport(t.db, {
      routeServiceOrders: [
        { serviceOrderCode: 'RT-DONE', officeCode: 'NORTH', status: 'completed' },
        { serviceOrderCode: 'RT-ONE', officeCode: 'NORTH', maxWorkOrders: 0 },
      ],
    });
    await refused(linkWo('route', 'RT-DONE', 'WO-N1'), [C.routeStatusConflict]);
    await refused(linkWo('route', 'RT-ONE', 'WO-N1'), [C.routeFull]);
    const res = await link('route', 'RT-DONE', { code: 'WO-R1', insertion: { insertionMode: 'index' } });
    expect(codesOf(res)).toEqual([C.positionMandatory, C.routeOfficeConflict, C.routeStatusConflict]);
    const ranks = codesOf(res).map((c) => ROUTE_LINK_CODES.indexOf(c));
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
  });

  it('serviceorder.code.mandatory on the route path: the code missing or blank', async () => {
    await refused(linkWo('route', '', 'WO-N1'), [C.serviceOrderCodeMandatory]);
    await refused(linkWo('route', '%20%20', 'WO-N1'), [C.serviceOrderCodeMandatory]);
    await refused(linkWo('route', '%09', 'WO-N1'), [C.serviceOrderCodeMandatory]);
    // Even with a body that has its own problems: the path is read first.
    await refused(link('route', '', { type: 'workOrder' }), [C.serviceOrderCodeMandatory]);
    expect(await order('route', 'RT-NORTH')).toEqual(['WO-DONE1', 'WO-N7']);
  });

  it('insertion.position.invalid on the route: negative or fractional', async () => {
    await refused(linkWo('route', 'RT-NORTH', 'WO-N1', { insertionMode: 'index', position: -1 }), [
      C.positionInvalid,
    ]);
    await refused(linkWo('route', 'RT-NORTH', 'WO-N1', { insertionMode: 'index', position: 1.5 }), [
      C.positionInvalid,
    ]);
    // A move inside the route is checked the same way.
    await refused(linkWo('route', 'RT-NORTH', 'WO-N7', { insertionMode: 'index', position: -3 }), [
      C.positionInvalid,
    ]);
    expect(await order('route', 'RT-NORTH')).toEqual(['WO-DONE1', 'WO-N7']);
  });

  it('invalid.json and field.unknown on the route (type is not a field of this body)', async () => {
    const raw = await link('route', 'RT-NORTH', undefined, 'root', '{"code": ');
    await refused(raw, [C.invalidJson]);
    await refused(link('route', 'RT-NORTH', { code: ['WO-N1'] }), [C.invalidJson]);
    await refused(linkWo('route', 'RT-NORTH', 'WO-N1', { insertionMode: 'index', position: '1' }), [
      C.invalidJson,
    ]);
    await refused(link('route', 'RT-NORTH', { code: 'WO-N1', insertion: 'first' }), [C.invalidJson]);
    await refused(link('route', 'RT-NORTH', { type: 'workOrder', code: 'WO-N1' }), [C.fieldUnknown]);
    // jobType is a field of the project link's insertion only.
    await refused(
      linkWo('route', 'RT-NORTH', 'WO-N1', {
        insertionMode: 'before',
        relativePosition: 'WO-N7',
        jobType: 'workOrder',
      }),
      [C.fieldUnknown],
    );
    expect(await order('route', 'RT-NORTH')).toEqual(['WO-DONE1', 'WO-N7']);
  });

  it('currentserviceorder.notlinked on the route: the work order sits in a service order the caller cannot see', async () => {
    await runImport(t.db, {
      routeServiceOrders: [
        { serviceOrderCode: 'RT-A', officeCode: 'NORTH-A' },
        { serviceOrderCode: 'RT-SOUTH', officeCode: 'SOUTH' },
      ],
    });
    const mover = (workOrderCode: string, officeCode: string) => ({
      workOrders: [{ workOrderCode, workOrderTypeCode: 'REPAIR', status: 'NEW', officeCode }],
    });
    // Left on a route of NORTH-A, then filed at SOUTH: SOUTH cannot take it off that route.
    await runImport(t.db, mover('WO-ROVER', 'NORTH-A'));
    await ok(linkWo('route', 'RT-A', 'WO-ROVER'));
    await runImport(t.db, mover('WO-ROVER', 'SOUTH'));
    await refused(linkWo('route', 'RT-SOUTH', 'WO-ROVER', undefined, 'south'), [
      C.currentServiceOrderNotLinked,
    ]);
    expect(await order('route', 'RT-A')).toEqual(['WO-ROVER']);
    // Left in a standard service order of NORTH-A: the same on the route link.
    await runImport(t.db, mover('WO-STAYER', 'NORTH-A'));
    await ok(linkWo('standard', 'SO-A', 'WO-STAYER'));
    await runImport(t.db, mover('WO-STAYER', 'SOUTH'));
    await refused(linkWo('route', 'RT-SOUTH', 'WO-STAYER', undefined, 'south'), [
      C.currentServiceOrderNotLinked,
    ]);
    expect(await order('route', 'RT-SOUTH')).toEqual([]);
    // ROOT sees both offices: it moves them.
    await ok(linkWo('route', 'RT-SOUTH', 'WO-ROVER', undefined, 'root'));
    await ok(linkWo('route', 'RT-SOUTH', 'WO-STAYER', { insertionMode: 'first' }, 'root'));
    expect(await order('route', 'RT-SOUTH')).toEqual(['WO-STAYER', 'WO-ROVER']);
    expect(await order('route', 'RT-A')).toEqual([]);
  });
});
