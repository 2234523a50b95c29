import { z } from 'zod';
import { Code, DateTimeInput } from '../../../contract/common.ts';
import {
  jobCode,
  type LinkableServiceOrderKind,
  PROJECT_CODE_MAX,
  ProjectStatus,
  SERVICE_ORDER_CODE_MAX,
  SERVICE_ORDER_KINDS,
  ServiceOrderStatus,
} from '../../../contract/projectManagement.ts';
import { CATALOG_CODE_MAX } from '../../../contract/staff.ts';
import { applyRows, type Importer, importer, importOffice } from '../../platform/importer.ts';
import { putMultiEquipmentServiceOrder, putProject, putServiceOrder } from './importService.ts';
import { parseServiceOrderMax } from './settings.ts';

/** A task's code is its number: a whole number, or its digits as a string. */
const TaskNumber = z
  .union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,15}$/, 'digits')])
  .transform((v) => jobCode('task', String(v)));

const planned = {
  name: z.string().max(10000).nullish(),
  plannedStart: DateTimeInput.nullish(),
  plannedEnd: DateTimeInput.nullish(),
};
const plannedInOrder = (j: { plannedStart?: Date | null; plannedEnd?: Date | null }) =>
  !j.plannedStart || !j.plannedEnd || j.plannedStart <= j.plannedEnd;
const endAfterStart = { message: 'plannedEnd must not precede plannedStart', path: ['plannedEnd'] };

const PhaseJob = z
  .strictObject({ jobType: z.literal('phase'), code: Code(CATALOG_CODE_MAX), ...planned })
  .refine(plannedInOrder, endAfterStart);
const TaskJob = z
  .strictObject({ jobType: z.literal('task'), code: TaskNumber, ...planned })
  .refine(plannedInOrder, endAfterStart);
const WorkOrderJob = z
  .strictObject({
    jobType: z.literal('workOrder'),
    code: Code(SERVICE_ORDER_CODE_MAX).optional(),
    uuid: z
      .uuid()
      .transform((u) => u.toLowerCase())
      .optional(),
  })
  .refine((j) => (j.code === undefined) !== (j.uuid === undefined), {
    message: 'a work order job holds its code or its uuid (one of them)',
  });
const Job = z.union([PhaseJob, TaskJob, WorkOrderJob]);

const DependencyEnd = z.union([
  z.strictObject({ jobType: z.literal('task'), code: TaskNumber }),
  z.strictObject({ jobType: z.literal('workOrder'), code: Code(SERVICE_ORDER_CODE_MAX) }),
]);

const ProjectRow = z.strictObject({
  projectCode: Code(PROJECT_CODE_MAX),
  name: z.string().min(1).max(10000),
  officeCode: Code(256),
  status: ProjectStatus.optional(),
  jobs: z.array(Job).max(20_000).optional(),
  dependencies: z
    .array(z.strictObject({ blocking: DependencyEnd, blocked: DependencyEnd }))
    .max(50_000)
    .optional(),
});

const ServiceOrderRow = z.strictObject({
  serviceOrderCode: Code(SERVICE_ORDER_CODE_MAX),
  officeCode: Code(256),
  status: ServiceOrderStatus.optional(),
  maxWorkOrders: z.number().int().min(0).max(1_000_000).nullish(),
  workOrders: z
    .array(
      z.union([
        Code(SERVICE_ORDER_CODE_MAX),
        z.strictObject({
          uuid: z.uuid().transform((u) => u.toLowerCase()),
        }),
      ]),
    )
    .max(1_000_000)
    .optional(),
});

const MultiEquipmentRow = z.strictObject({
  serviceOrderCode: Code(SERVICE_ORDER_CODE_MAX),
  officeCode: Code(256),
});

function serviceOrderImporter(kind: LinkableServiceOrderKind, order: number) {
  return importer({
    key: SERVICE_ORDER_KINDS[kind].importKey,
    order,
    schema: ServiceOrderRow,
    keyOf: (r) => r.serviceOrderCode,
    apply: (trx, rows) => {
      // FIELDWORK_SERVICE_ORDER_MAX of the command's environment, as the service reads it.
      const instanceMax = parseServiceOrderMax(process.env.FIELDWORK_SERVICE_ORDER_MAX);
      return applyRows(
        rows,
        (r) => `${kind} service order ${r.serviceOrderCode}`,
        async ({ officeCode, workOrders, ...r }) =>
          putServiceOrder(
            trx,
            kind,
            {
              ...r,
              officeId: await importOffice(trx, officeCode),
              workOrders: workOrders?.map((w) => (typeof w === 'string' ? { code: w } : w)),
            },
            instanceMax,
          ),
      );
    },
  });
}

/** Keys `projects`, `standardServiceOrders`, `routeServiceOrders`, `multiEquipmentServiceOrders` (after the work orders). */
export const projectManagementImporters: Importer[] = [
  importer({
    key: 'projects',
    order: 400,
    schema: ProjectRow,
    keyOf: (r) => r.projectCode,
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `project ${r.projectCode}`,
        async ({ officeCode, jobs, ...r }) =>
          putProject(trx, {
            ...r,
            officeId: await importOffice(trx, officeCode),
            jobs: jobs?.map((j) =>
              j.jobType === 'workOrder'
                ? j.uuid
                  ? { jobType: 'workOrder', uuid: j.uuid }
                  : { jobType: 'workOrder', code: j.code as string }
                : j,
            ),
          }),
      ),
  }),
  importer({
    key: 'multiEquipmentServiceOrders',
    order: 405,
    schema: MultiEquipmentRow,
    keyOf: (r) => r.serviceOrderCode,
    apply: (trx, rows) =>
      applyRows(
        rows,
        (r) => `multi-equipment service order ${r.serviceOrderCode}`,
        async ({ officeCode, ...r }) =>
          putMultiEquipmentServiceOrder(trx, { ...r, officeId: await importOffice(trx, officeCode) }),
      ),
  }),
  serviceOrderImporter('standard', 410),
  serviceOrderImporter('route', 420),
];
