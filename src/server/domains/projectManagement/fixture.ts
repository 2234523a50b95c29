/**
 * The import file of the project management tests, on the harness's office tree
 *   ROOT ── NORTH ── NORTH-A
 *       └── SOUTH
 * Work orders WO-<office>-<n>; projects and service orders at every level, one completed.
 */
const wo = (code: string, officeCode: string, extra: Record<string, unknown> = {}) => ({
  workOrderCode: code,
  workOrderTypeCode: 'REPAIR',
  status: 'NEW',
  officeCode,
  ...extra,
});

export const BASE = '/eTech/rest/ws/projectManagement/v1';
const unlimited = { perMinute: 1e9, perHour: 1e9 };
/** Rate limits out of the way: a test file makes more than a minute's worth of High calls. */
export const UNLIMITED = { high: unlimited, standard: unlimited, low: unlimited };

export function projectFixture() {
  return {
    workOrderTypes: [{ workOrderTypeCode: 'REPAIR', name: 'Repair', durationMinutes: 120 }],
    workOrders: [
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => wo(`WO-N${n}`, 'NORTH')),
      ...[1, 2, 3].map((n) => wo(`WO-A${n}`, 'NORTH-A')),
      ...[1, 2].map((n) => wo(`WO-S${n}`, 'SOUTH')),
      wo('WO-R1', 'ROOT'),
      // Scheduled 2030-01-07 09:00-11:00 and 2030-01-08 09:00-11:00 (overlap rules).
      wo('WO-SCHED1', 'NORTH', { status: 'SCHEDULED', scheduledStart: '2030-01-07T09:00' }),
      wo('WO-SCHED2', 'NORTH', { status: 'SCHEDULED', scheduledStart: '2030-01-08T09:00' }),
      wo('WO-DONE1', 'NORTH', { status: 'COMPLETED' }),
      wo('WO-DONE2', 'NORTH', { status: 'COMPLETED' }),
      // A validated and a live work order share WO-TWIN; two live ones share WO-DUP.
      wo('WO-TWIN', 'NORTH', { uuid: '0b7c3f52-1d2e-4f60-9a7b-8c9d0e1f2a3b', status: 'VALIDATED' }),
      wo('WO-TWIN', 'NORTH', { uuid: '1c8d4063-2e3f-4071-8b8c-9d0e1f2a3b4c' }),
      wo('WO-DUP', 'NORTH', { uuid: '2d9e5174-3f40-4182-9c9d-0e1f2a3b4c5d' }),
      wo('WO-DUP', 'NORTH-A', { uuid: '3eaf6285-4051-4293-8dae-1f2a3b4c5d6e' }),
    ],
    projects: [
      {
        projectCode: 'P-NORTH',
        name: 'North renovation',
        officeCode: 'NORTH',
        jobs: [
          {
            jobType: 'phase',
            code: 'ph-1',
            name: 'Study',
            plannedStart: '2030-01-01T08:00',
            plannedEnd: '2030-01-05T17:00',
          },
          {
            jobType: 'task',
            code: 1,
            name: 'Survey',
            plannedStart: '2030-01-02T08:00',
            plannedEnd: '2030-01-07T10:00',
          },
          { jobType: 'workOrder', code: 'WO-N1' },
          { jobType: 'task', code: '2', name: 'Order parts' },
          { jobType: 'phase', code: 'PH-2', name: 'Works' },
          { jobType: 'workOrder', code: 'WO-N2' },
          { jobType: 'task', code: 3, name: 'Handover', plannedStart: '2030-02-01T08:00' },
        ],
        dependencies: [
          { blocking: { jobType: 'task', code: '1' }, blocked: { jobType: 'workOrder', code: 'WO-N1' } },
        ],
      },
      {
        projectCode: 'P-ROOT',
        name: 'Head office programme',
        officeCode: 'ROOT',
        jobs: [{ jobType: 'task', code: 1 }],
      },
      { projectCode: 'P-SOUTH', name: 'South', officeCode: 'SOUTH', jobs: [] },
      { projectCode: 'P-A', name: 'North A', officeCode: 'NORTH-A', jobs: [] },
      {
        projectCode: 'P-DONE',
        name: 'Finished',
        officeCode: 'NORTH',
        status: 'completed',
        jobs: [{ jobType: 'workOrder', code: 'WO-N8' }],
      },
    ],
    standardServiceOrders: [
      {
        serviceOrderCode: 'SO-NORTH',
        officeCode: 'NORTH',
        maxWorkOrders: 50,
        workOrders: ['WO-N3', 'WO-N4'],
      },
      { serviceOrderCode: 'SO-ROOT', officeCode: 'ROOT', workOrders: [] },
      { serviceOrderCode: 'SO-SOUTH', officeCode: 'SOUTH', workOrders: [] },
      { serviceOrderCode: 'SO-A', officeCode: 'NORTH-A', workOrders: [] },
      { serviceOrderCode: 'SO-SMALL', officeCode: 'NORTH', maxWorkOrders: 1, workOrders: ['WO-N5'] },
      { serviceOrderCode: 'SO-DONE', officeCode: 'NORTH', status: 'completed', workOrders: ['WO-N6'] },
      { serviceOrderCode: 'SO-VALID', officeCode: 'NORTH', status: 'validated', workOrders: [] },
    ],
    routeServiceOrders: [
      {
        serviceOrderCode: 'RT-NORTH',
        officeCode: 'NORTH',
        maxWorkOrders: 20,
        status: 'inProgress',
        workOrders: ['WO-DONE1', 'WO-N7'],
      },
      { serviceOrderCode: 'RT-EMPTY', officeCode: 'NORTH', workOrders: [] },
    ],
    multiEquipmentServiceOrders: [{ serviceOrderCode: 'ME-NORTH', officeCode: 'NORTH' }],
  };
}
