/**
 * Rules of the import keys `projects`, `standardServiceOrders`, `routeServiceOrders` and
 * `multiEquipmentServiceOrders`. An element is an upsert by code; a list it gives (jobs,
 * dependencies, work orders) is the container's whole list, in order, and one it leaves out
 * is kept as it is. The rules of the link calls hold here too (a container at or above its
 * work orders' offices, completed containers unchanged, no cycle, no overlap), so an import
 * cannot build what the API would refuse.
 */
import type { WorkOrderStatus } from '../../../contract/fieldService.ts';
import { isCompletedOrHigher } from '../../../contract/fieldService.ts';
import {
  ProjectManagementCodes as C,
  cycleMessage,
  type DependencyJobType,
  isServiceOrderClosed,
  type JobRef,
  jobRefText,
  keepsClosedWorkOrders,
  type LinkableServiceOrderKind,
  type Overlap,
  overlapMessage,
  type ProjectStatus,
  SERVICE_ORDER_KINDS,
  type ServiceOrderStatus,
} from '../../../contract/projectManagement.ts';
import type { Db } from '../../db/index.ts';
import { badRequest } from '../../platform/errors.ts';
import { importScope } from '../../platform/importer.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import { rfc3339 } from '../../platform/time.ts';
import { upsertRow, type WriteOutcome } from '../../platform/upsert.ts';
import { findWorkOrder, type WorkOrderRow } from '../fieldService/index.ts';
import { type Edge, findCycle } from './graph.ts';
import * as q from './queries.ts';
import { RANK_STEP } from './ranking.ts';
import type { ServiceOrderKind } from './tables.ts';

export type WorkOrderName = { code: string } | { uuid: string };

/** The work order an import element names: by uuid, or the live one of a code. */
async function importedWorkOrder(
  trx: Db,
  scope: OfficeScope,
  name: WorkOrderName,
  unknownCode: string,
): Promise<WorkOrderRow> {
  const found = await findWorkOrder(trx, scope, name);
  const label = 'uuid' in name ? `uuid ${name.uuid}` : name.code;
  if ('missing' in found) throw badRequest(unknownCode, `Work order ${label} does not exist`);
  if ('ambiguous' in found)
    throw badRequest(C.workOrderAmbiguous, `Several live work orders carry the code ${label}: give the uuid`);
  return found.found;
}

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/* ---------------- projects ---------------- */

export type ImportedJob =
  | {
      jobType: 'phase' | 'task';
      code: string;
      name?: string | null;
      plannedStart?: Date | null;
      plannedEnd?: Date | null;
    }
  | ({ jobType: 'workOrder' } & WorkOrderName);

export interface ImportedProject {
  projectCode: string;
  name: string;
  officeId: string;
  status?: ProjectStatus;
  jobs?: ImportedJob[];
  dependencies?: {
    blocking: JobRef & { jobType: DependencyJobType };
    blocked: JobRef & { jobType: DependencyJobType };
  }[];
}

export async function putProject(trx: Db, row: ImportedProject): Promise<WriteOutcome> {
  const scope = await importScope(trx);
  const before = await q.projectForUpdate(trx, row.projectCode);
  const status = row.status ?? 'inProgress';
  if (before?.status === 'completed' && status !== 'completed')
    throw badRequest(C.projectStatusConflict, `Project ${row.projectCode} is completed: completed is final`);
  const written = await upsertRow(trx, 'projects', 'code', {
    code: row.projectCode,
    name: row.name,
    office_id: row.officeId,
    status,
  });
  let outcome = written;
  const project = await q.projectForUpdate(trx, row.projectCode);
  const projectPath = await q.officePath(trx, project.office_id);
  const frozen = before?.status === 'completed';
  const changed = () => {
    if (frozen)
      throw badRequest(
        C.projectStatusConflict,
        `Project ${row.projectCode} is completed: its jobs do not change`,
      );
    if (outcome === 'unchanged') outcome = 'updated';
  };

  const stored = await q.storedJobs(trx, project.id);
  // A project moved to another office keeps work orders of that office or below only.
  if (before && before.office_id !== project.office_id && !row.jobs) {
    for (const j of stored)
      if (j.work_order_id && !(await q.workOrderOfficePath(trx, j.work_order_id)).startsWith(projectPath))
        throw badRequest(
          C.projectOfficeConflict,
          `Project ${row.projectCode} would no longer be at or above the office of one of its work orders`,
        );
  }
  if (row.jobs) {
    // The whole list, in order: each job keyed by what it is (phase code, task number, work order).
    const desired: q.DesiredJob[] = [];
    const seen = new Set<string>();
    for (const [i, job] of row.jobs.entries()) {
      let d: q.DesiredJob;
      if (job.jobType === 'workOrder') {
        const wo = await importedWorkOrder(trx, scope, job, C.jobCodeUnknown);
        const woPath = await q.workOrderOfficePath(trx, wo.id);
        if (!woPath.startsWith(projectPath))
          throw badRequest(
            C.projectOfficeConflict,
            `Project ${row.projectCode} is not at or above the office of work order ${wo.code} (${wo.office_code})`,
          );
        d = {
          rank: String((i + 1) * RANK_STEP),
          job_type: 'workOrder',
          code: null,
          work_order_id: wo.id,
          name: null,
          planned_start: null,
          planned_end: null,
        };
      } else
        d = {
          rank: String((i + 1) * RANK_STEP),
          job_type: job.jobType,
          code: job.code,
          work_order_id: null,
          name: job.name ?? null,
          planned_start: job.plannedStart ?? null,
          planned_end: job.plannedEnd ?? null,
        };
      const key = d.work_order_id ? `w:${d.work_order_id}` : `${d.job_type}:${d.code}`;
      if (seen.has(key))
        throw badRequest(C.jobDuplicate, `jobs[${i}] is given twice in project ${row.projectCode}`);
      seen.add(key);
      desired.push(d);
    }
    const keyOf = (j: q.DesiredJob) => (j.work_order_id ? `w:${j.work_order_id}` : `${j.job_type}:${j.code}`);
    const storedByKey = new Map(stored.map((j) => [keyOf(j), j]));
    const remove = stored.filter((j) => !seen.has(keyOf(j))).map((j) => j.id);
    const update: (q.DesiredJob & { id: string })[] = [];
    const insert: q.DesiredJob[] = [];
    for (const d of desired) {
      const s = storedByKey.get(keyOf(d));
      if (!s) insert.push(d);
      else if (
        s.rank !== d.rank ||
        s.name !== d.name ||
        !sameTime(s.planned_start, d.planned_start) ||
        !sameTime(s.planned_end, d.planned_end)
      )
        update.push({ ...d, id: s.id });
    }
    if (remove.length + update.length + insert.length > 0) changed();
    // A work order taken from another project leaves it, unless that project is completed.
    for (const d of insert) {
      if (!d.work_order_id) continue;
      const other = await q.projectOfWorkOrder(trx, d.work_order_id);
      if (!other) continue;
      await q.lockRows(trx, 'projects', [other.project_id]);
      if (other.status === 'completed')
        throw badRequest(
          C.currentProjectStatusConflict,
          `A work order of the list belongs to project ${other.code}, which is completed`,
        );
      await q.deleteJob(trx, other.job_id);
      await q.touch(trx, 'projects', [other.project_id]);
    }
    await q.deleteJobs(trx, remove);
    await q.updateJobs(trx, update);
    await q.insertJobs(trx, project.id, insert);
  }

  if (row.dependencies) {
    const refs = row.dependencies.flatMap((d) => [d.blocking, d.blocked]);
    const matches = await q.jobsByRef(trx, scope, project.id, refs);
    const jobs = refs.map((ref, i) => {
      const found = matches.filter((m) => m.i === i);
      const live = found.filter((m) => m.work_order_status !== 'VALIDATED');
      if (live.length > 1)
        throw badRequest(
          C.workOrderAmbiguous,
          `Several live work orders of project ${row.projectCode} carry ${ref.code}`,
        );
      const job = live[0] ?? found[0];
      if (!job)
        throw badRequest(
          C.blockCodeUnknown,
          `dependencies: ${jobRefText(ref)} is not a job of project ${row.projectCode}`,
        );
      return job;
    });
    const byId = new Map(jobs.map((j, i) => [j.id, { job: j, ref: refs[i] }]));
    const desired = new Map<string, Edge>();
    row.dependencies.forEach((_, i) => {
      const e = { blocking: jobs[2 * i].id, blocked: jobs[2 * i + 1].id };
      desired.set(`${e.blocking}>${e.blocked}`, e);
    });
    const cycle = findCycle([...desired.values()]);
    if (cycle)
      throw badRequest(C.dependencyCycle, cycleMessage(cycle.map((id) => byId.get(id)?.ref as JobRef)));
    const existing = await q.projectEdges(trx, project.id);
    const existingKeys = new Set(existing.map((e) => `${e.blocking}>${e.blocked}`));
    const added = [...desired.entries()].filter(([k]) => !existingKeys.has(k)).map(([, e]) => e);
    const removed = existing.filter((e) => !desired.has(`${e.blocking}>${e.blocked}`));
    const overlaps: Overlap[] = [];
    for (const e of added) {
      const a = byId.get(e.blocking);
      const b = byId.get(e.blocked);
      if (a?.job.planned_end && b?.job.planned_start && b.job.planned_start < a.job.planned_end)
        overlaps.push({
          blocking: { ...a.ref, plannedEnd: rfc3339(a.job.planned_end) },
          blocked: { ...b.ref, plannedStart: rfc3339(b.job.planned_start) },
        });
    }
    if (overlaps.length > 0) throw badRequest(C.dependencyOverlap, overlapMessage(overlaps));
    if (added.length + removed.length > 0) changed();
    await q.deleteEdges(trx, project.id, removed);
    await q.insertEdges(trx, project.id, added);
  }
  // upsertRow sets last_update when it writes the row; a change of jobs only sets it here.
  if (written === 'unchanged' && outcome !== 'unchanged') await q.touch(trx, 'projects', [project.id]);
  return outcome;
}

/* ---------------- service orders ---------------- */

export interface ImportedServiceOrder {
  serviceOrderCode: string;
  officeId: string;
  status?: ServiceOrderStatus;
  maxWorkOrders?: number | null;
  workOrders?: WorkOrderName[];
}

const KIND_LABEL: Record<ServiceOrderKind, string> = {
  standard: 'a standard',
  route: 'a route',
  multiEquipment: 'a multi-equipment',
};

/** An element of `standardServiceOrders` or `routeServiceOrders`; `instanceMax` when it gives no maximum. */
export async function putServiceOrder(
  trx: Db,
  kind: LinkableServiceOrderKind,
  row: ImportedServiceOrder,
  instanceMax: number,
): Promise<WriteOutcome> {
  const {
    workOrderUnknown,
    officeConflict: office,
    statusConflict: status,
    full,
  } = SERVICE_ORDER_KINDS[kind].codes;
  const codes = { workOrderUnknown, office, status, full };
  const scope = await importScope(trx);
  const before = await q.serviceOrderForUpdate(trx, row.serviceOrderCode);
  if (before && before.kind !== kind)
    throw badRequest(
      C.serviceOrderCodeConflict,
      `${row.serviceOrderCode} is ${KIND_LABEL[before.kind]} service order (one namespace of codes)`,
    );
  let outcome = await upsertRow(trx, 'service_orders', 'code', {
    code: row.serviceOrderCode,
    kind,
    office_id: row.officeId,
    status: row.status ?? 'open',
    max_work_orders: row.maxWorkOrders ?? null,
  });
  const so = await q.serviceOrderForUpdate(trx, row.serviceOrderCode);
  const max = row.maxWorkOrders ?? instanceMax;
  const count = row.workOrders ? row.workOrders.length : await q.serviceOrderCount(trx, so.id);
  if (count > max)
    throw badRequest(
      codes.full,
      `Service order ${row.serviceOrderCode} would carry ${count} work orders, over its maximum of ${max}`,
    );
  if (!row.workOrders) return outcome;
  const soPath = await q.officePath(trx, so.office_id);
  const desired: { work_order_id: string; rank: string; status: WorkOrderStatus; code: string }[] = [];
  const seen = new Set<string>();
  for (const [i, name] of row.workOrders.entries()) {
    const wo = await importedWorkOrder(trx, scope, name, codes.workOrderUnknown);
    if (!(await q.workOrderOfficePath(trx, wo.id)).startsWith(soPath))
      throw badRequest(
        codes.office,
        `Service order ${row.serviceOrderCode} is not at or above the office of work order ${wo.code} (${wo.office_code})`,
      );
    if (seen.has(wo.id))
      throw badRequest(
        C.serviceOrderWorkOrderDuplicate,
        `workOrders[${i}] is given twice in ${row.serviceOrderCode}`,
      );
    seen.add(wo.id);
    desired.push({
      work_order_id: wo.id,
      rank: String((i + 1) * RANK_STEP),
      status: wo.status,
      code: wo.code,
    });
  }
  const stored = await q.serviceOrderEntries(trx, so.id);
  const storedRank = new Map(stored.map((e) => [e.work_order_id, e.rank]));
  const remove = stored.filter((e) => !seen.has(e.work_order_id)).map((e) => e.work_order_id);
  const upsert = desired.filter((d) => storedRank.get(d.work_order_id) !== d.rank);
  if (remove.length + upsert.length === 0) return outcome;
  if (before?.status && isServiceOrderClosed(before.status))
    throw badRequest(
      codes.status,
      `Service order ${row.serviceOrderCode} is ${before.status}: its work orders do not change`,
    );
  // Work orders taken from another service order: that one must let them go.
  for (const d of desired) {
    if (storedRank.has(d.work_order_id)) continue;
    const other = await q.serviceOrderOfWorkOrder(trx, d.work_order_id);
    if (!other) continue;
    await q.lockRows(trx, 'service_orders', [other.id]);
    if (isServiceOrderClosed(other.status))
      throw badRequest(
        C.currentServiceOrderConflict,
        `Work order ${d.code} is carried by ${other.code}, which is ${other.status}`,
      );
    if (keepsClosedWorkOrders(other.kind) && isCompletedOrHigher(d.status))
      throw badRequest(
        C.currentServiceOrderStatusConflict,
        `Work order ${d.code} is ${d.status}: route service order ${other.code} does not let it go`,
      );
    await q.removeFromServiceOrder(trx, d.work_order_id);
    await q.touch(trx, 'service_orders', [other.id]);
  }
  await q.writeServiceOrderEntries(trx, so.id, remove, upsert);
  if (outcome === 'unchanged') {
    outcome = 'updated';
    await q.touch(trx, 'service_orders', [so.id]);
  }
  return outcome;
}

/** An element of `multiEquipmentServiceOrders`: its code and office, nothing to link. */
export async function putMultiEquipmentServiceOrder(
  trx: Db,
  row: { serviceOrderCode: string; officeId: string },
): Promise<WriteOutcome> {
  const before = await q.serviceOrderForUpdate(trx, row.serviceOrderCode);
  if (before && before.kind !== 'multiEquipment')
    throw badRequest(
      C.serviceOrderCodeConflict,
      `${row.serviceOrderCode} is ${KIND_LABEL[before.kind]} service order (one namespace of codes)`,
    );
  return upsertRow(trx, 'service_orders', 'code', {
    code: row.serviceOrderCode,
    kind: 'multiEquipment',
    office_id: row.officeId,
    status: null,
    max_work_orders: null,
  });
}
