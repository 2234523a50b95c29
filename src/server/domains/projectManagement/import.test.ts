import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ProjectManagementCodes as C,
  getProject,
  getRouteServiceOrder,
  getStandardServiceOrder,
} from '../../../contract/projectManagement.ts';
import { runImport } from '../../cli/importFile.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { projectFixture, UNLIMITED } from './fixture.ts';

let t: TestApp;
const fixture = projectFixture();
beforeAll(async () => {
  t = await createTestApp({ rateLimits: UNLIMITED });
  await runImport(t.db, fixture);
});
afterAll(() => t.close());

const readProject = (projectCode: string) => t.api(getProject, { params: { projectCode } });
const jobs = async (code: string) =>
  ((await readProject(code)).json().jobs as { jobType: string; code: string }[]).map(
    (j) => `${j.jobType}:${j.code}`,
  );
const workOrders = async (kind: 'standard' | 'route', code: string) =>
  (
    (kind === 'standard'
      ? await t.api(getStandardServiceOrder, { params: { standardServiceOrderCode: code } })
      : await t.api(getRouteServiceOrder, { params: { routeServiceOrderCode: code } })
    ).json().workOrders as { code: string }[]
  ).map((w) => w.code);
const project = (extra: Record<string, unknown>) => ({
  projectCode: 'P-IMP',
  name: 'Imported',
  officeCode: 'NORTH',
  ...extra,
});
/** The import is refused with this code (and writes nothing: it is one transaction). */
const refusedWith = (document: unknown, code: string) =>
  expect(runImport(t.db, document)).rejects.toThrow(new RegExp(code.replaceAll('.', '\\.')));

describe('import keys projects, standardServiceOrders, routeServiceOrders, multiEquipmentServiceOrders', () => {
  it('replaying the same file creates and changes nothing', async () => {
    const again = await runImport(t.db, fixture);
    expect(again.every((k) => k.created === 0 && k.updated === 0)).toBe(true);
  });

  it('refuses malformed elements by JSON path, before writing', async () => {
    await expect(
      runImport(t.db, {
        projects: [
          project({
            jobs: [
              { jobType: 'task', code: 'abc' },
              { jobType: 'milestone', code: 'M' },
              { jobType: 'workOrder', code: 'WO-N1', uuid: '0b7c3f52-1d2e-4f60-9a7b-8c9d0e1f2a3b' },
              {
                jobType: 'phase',
                code: 'P',
                plannedStart: '2030-01-02T00:00',
                plannedEnd: '2030-01-01T00:00',
              },
            ],
            dependencies: [
              { blocking: { jobType: 'phase', code: 'P' }, blocked: { jobType: 'task', code: 1 } },
            ],
          }),
        ],
        standardServiceOrders: [{ serviceOrderCode: 'X', officeCode: 'NORTH', status: 'closed' }],
      }),
    ).rejects.toThrow(
      /projects\[0\]\.jobs\[0\][\s\S]*projects\[0\]\.jobs\[1\][\s\S]*projects\[0\]\.jobs\[2\][\s\S]*projects\[0\]\.jobs\[3\][\s\S]*projects\[0\]\.dependencies\[0\][\s\S]*standardServiceOrders\[0\]\.status/,
    );
    await expect(runImport(t.db, { projects: [project({ projectCode: 'P'.repeat(51) })] })).rejects.toThrow(
      /projects\[0\]\.projectCode/,
    );
  });

  it('a project: jobs in order (a task code is its number), dependencies; absent lists are kept', async () => {
    await runImport(t.db, {
      projects: [
        project({
          jobs: [
            { jobType: 'task', code: '007' },
            { jobType: 'workOrder', uuid: '1C8D4063-2E3F-4071-8B8C-9D0E1F2A3B4C' },
            { jobType: 'phase', code: 'end' },
          ],
          dependencies: [
            { blocking: { jobType: 'task', code: 7 }, blocked: { jobType: 'workOrder', code: 'WO-TWIN' } },
          ],
        }),
      ],
    });
    expect(await jobs('P-IMP')).toEqual(['task:7', 'workOrder:WO-TWIN', 'phase:END']);
    const [{ updated }] = await runImport(t.db, { projects: [project({ name: 'Renamed' })] });
    expect(updated).toBe(1);
    const read = (await readProject('P-IMP')).json();
    expect(read.name).toBe('Renamed');
    expect(read.dependencies).toHaveLength(1);
    expect(await jobs('P-IMP')).toEqual(['task:7', 'workOrder:WO-TWIN', 'phase:END']);
  });

  it('takes a work order from another project, and refuses what the link refuses', async () => {
    await runImport(t.db, { projects: [project({ jobs: [{ jobType: 'workOrder', code: 'WO-N2' }] })] });
    expect(await jobs('P-IMP')).toEqual(['workOrder:WO-N2']);
    expect(await jobs('P-NORTH')).not.toContain('workOrder:WO-N2');
    const wo = (code: string) => project({ jobs: [{ jobType: 'workOrder', code }] });
    await refusedWith({ projects: [wo('WO-NOPE')] }, C.jobCodeUnknown);
    await refusedWith({ projects: [wo('WO-DUP')] }, C.workOrderAmbiguous);
    await refusedWith({ projects: [wo('WO-R1')] }, C.projectOfficeConflict);
    await refusedWith({ projects: [wo('WO-N8')] }, C.currentProjectStatusConflict);
    await refusedWith(
      {
        projects: [
          project({
            jobs: [
              { jobType: 'task', code: 1 },
              { jobType: 'task', code: '01' },
            ],
          }),
        ],
      },
      C.jobDuplicate,
    );
    const two = [
      { jobType: 'task', code: 1, plannedEnd: '2030-01-10T00:00' },
      { jobType: 'task', code: 2, plannedStart: '2030-01-09T00:00' },
    ];
    const dependency = (a: number, b: number) => ({
      blocking: { jobType: 'task', code: a },
      blocked: { jobType: 'task', code: b },
    });
    await refusedWith(
      { projects: [project({ jobs: two, dependencies: [dependency(1, 3)] })] },
      C.blockCodeUnknown,
    );
    await refusedWith(
      { projects: [project({ jobs: two, dependencies: [dependency(2, 1), dependency(1, 2)] })] },
      C.dependencyCycle,
    );
    await refusedWith(
      { projects: [project({ jobs: two, dependencies: [dependency(1, 2)] })] },
      C.dependencyOverlap,
    );
    // Nothing of the refused files was written.
    expect(await jobs('P-IMP')).toEqual(['workOrder:WO-N2']);
  });

  it('a completed project stays completed and keeps its jobs', async () => {
    const done = fixture.projects.find((p) => p.projectCode === 'P-DONE') as Record<string, unknown>;
    await refusedWith({ projects: [{ ...done, status: 'inProgress' }] }, C.projectStatusConflict);
    await refusedWith({ projects: [{ ...done, jobs: [] }] }, C.projectStatusConflict);
    // Its name may change.
    const [{ updated }] = await runImport(t.db, { projects: [{ ...done, name: 'Finished (2029)' }] });
    expect(updated).toBe(1);
  });

  it('service orders: the list in order, moves between them, and the link rules', async () => {
    const so = (extra: Record<string, unknown>) => ({
      serviceOrderCode: 'SO-IMP',
      officeCode: 'NORTH',
      ...extra,
    });
    await runImport(t.db, {
      standardServiceOrders: [
        so({ workOrders: ['WO-N4', { uuid: '1c8d4063-2e3f-4071-8b8c-9d0e1f2a3b4c' }] }),
      ],
    });
    expect(await workOrders('standard', 'SO-IMP')).toEqual(['WO-N4', 'WO-TWIN']);
    expect(await workOrders('standard', 'SO-NORTH')).toEqual(['WO-N3']);
    await refusedWith(
      { standardServiceOrders: [so({ workOrders: ['WO-NOPE'] })] },
      C.standardWorkOrderUnknown,
    );
    await refusedWith({ routeServiceOrders: [so({ workOrders: [] })] }, C.serviceOrderCodeConflict);
    await refusedWith(
      { multiEquipmentServiceOrders: [{ serviceOrderCode: 'SO-IMP', officeCode: 'NORTH' }] },
      C.serviceOrderCodeConflict,
    );
    await refusedWith({ standardServiceOrders: [so({ maxWorkOrders: 1 })] }, C.standardFull);
    await refusedWith({ standardServiceOrders: [so({ workOrders: ['WO-R1'] })] }, C.standardOfficeConflict);
    await refusedWith(
      { standardServiceOrders: [so({ workOrders: ['WO-N4', 'wo-n4'] })] },
      C.serviceOrderWorkOrderDuplicate,
    );
    await refusedWith(
      { standardServiceOrders: [so({ workOrders: ['WO-N6'] })] },
      C.currentServiceOrderConflict,
    );
    await refusedWith(
      { standardServiceOrders: [so({ workOrders: ['WO-DONE1'] })] },
      C.currentServiceOrderStatusConflict,
    );
    await refusedWith(
      { routeServiceOrders: [{ serviceOrderCode: 'RT-EMPTY', officeCode: 'NORTH', workOrders: ['WO-R1'] }] },
      C.routeOfficeConflict,
    );
    const done = fixture.standardServiceOrders.find((s) => s.serviceOrderCode === 'SO-DONE') as Record<
      string,
      unknown
    >;
    await refusedWith({ standardServiceOrders: [{ ...done, workOrders: [] }] }, C.standardStatusConflict);
    // Its status may change (no transitions are shown by the spec).
    await runImport(t.db, { standardServiceOrders: [{ ...done, status: 'validated' }] });
    const read = await t.api(getStandardServiceOrder, { params: { standardServiceOrderCode: 'SO-DONE' } });
    expect(read.json().status).toBe('validated');
  });
});
