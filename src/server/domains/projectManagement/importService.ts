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

/**
 * An element of `projects`: the project's row, then its jobs and its dependencies when the
 * element gives them (each list the whole one). A completed project keeps its jobs.
 */
export async function putProject(trx: Db, row: ImportedProject): Promise<WriteOutcome> {
  const scope = await importScope(trx);
  const { before, written, project, projectPath } = await writeProjectRow(trx, row);
  let outcome = written;
  /** Rule: a completed project's jobs and dependencies do not change. */
  const changed = () => {
    if (before?.status === 'completed')
      throw badRequest(
        C.projectStatusConflict,
        `Project ${row.projectCode} is completed: its jobs do not change`,
      );
    if (outcome === 'unchanged') outcome = 'updated';
  };
  const stored = await q.storedJobs(trx, project.id);
  if (before && before.office_id !== project.office_id && !row.jobs)
    await workOrdersStayBelow(trx, row.projectCode, stored, projectPath);
  if (row.jobs)
    await replaceJobs(
      trx,
      project.id,
      stored,
      await desiredJobs(trx, scope, row.projectCode, row.jobs, projectPath),
      changed,
    );
  if (row.dependencies)
    await replaceDependencies(trx, scope, row.projectCode, row.dependencies, project.id, changed);
  // upsertRow sets last_update when it writes the row; a change of jobs only sets it here.
  if (written === 'unchanged' && outcome !== 'unchanged') await q.touch(trx, 'projects', [project.id]);
  return outcome;
}

/** The project's row (code, name, office, status): completed is final. */
async function writeProjectRow(trx: Db, row: ImportedProject) {
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
  const project = await q.projectForUpdate(trx, row.projectCode);
  return { before, written, project, projectPath: await q.officePath(trx, project.office_id) };
}

/** A project moved to another office keeps work orders of that office or below only. */
async function workOrdersStayBelow(trx: Db, projectCode: string, stored: q.StoredJob[], projectPath: string) {
  for (const j of stored)
    if (j.work_order_id && !(await q.workOrderOfficePath(trx, j.work_order_id)).startsWith(projectPath))
      throw badRequest(
        C.projectOfficeConflict,
        `Project ${projectCode} would no longer be at or above the office of one of its work orders`,
      );
}

/** A job's identity in a project: its phase code, its task number, or its work order. */
const jobKey = (j: q.DesiredJob) => (j.work_order_id ? `w:${j.work_order_id}` : `${j.job_type}:${j.code}`);

/**
 * The whole list of jobs, in order: each work order at or below the project's office
 * (`project.office.conflict`), no job twice (`project.job.duplicate`).
 */
async function desiredJobs(
  trx: Db,
  scope: OfficeScope,
  projectCode: string,
  jobs: ImportedJob[],
  projectPath: string,
): Promise<q.DesiredJob[]> {
  const desired: q.DesiredJob[] = [];
  const seen = new Set<string>();
  for (const [i, job] of jobs.entries()) {
    const rank = String((i + 1) * RANK_STEP);
    let d: q.DesiredJob;
    if (job.jobType === 'workOrder') {
      const wo = await importedWorkOrder(trx, scope, job, C.jobCodeUnknown);
      const woPath = await q.workOrderOfficePath(trx, wo.id);
      if (!woPath.startsWith(projectPath))
        throw badRequest(
          C.projectOfficeConflict,
          `Project ${projectCode} is not at or above the office of work order ${wo.code} (${wo.office_code})`,
        );
      d = {
        rank,
        job_type: 'workOrder',
        code: null,
        work_order_id: wo.id,
        name: null,
        planned_start: null,
        planned_end: null,
      };
    } else
      d = {
        rank,
        job_type: job.jobType,
        code: job.code,
        work_order_id: null,
        name: job.name ?? null,
        planned_start: job.plannedStart ?? null,
        planned_end: job.plannedEnd ?? null,
      };
    if (seen.has(jobKey(d)))
      throw badRequest(C.jobDuplicate, `jobs[${i}] is given twice in project ${projectCode}`);
    seen.add(jobKey(d));
    desired.push(d);
  }
  return desired;
}

/**
 * The project's jobs become `desired`: the jobs it no longer lists removed, the others
 * placed; a work order taken from another project leaves it, unless that project is completed
 * (`workorder.currentproject.status.conflict`).
 */
async function replaceJobs(
  trx: Db,
  projectId: string,
  stored: q.StoredJob[],
  desired: q.DesiredJob[],
  changed: () => void,
) {
  const kept = new Set(desired.map(jobKey));
  const storedByKey = new Map(stored.map((j) => [jobKey(j), j]));
  const remove = stored.filter((j) => !kept.has(jobKey(j))).map((j) => j.id);
  const update: (q.DesiredJob & { id: string })[] = [];
  const insert: q.DesiredJob[] = [];
  for (const d of desired) {
    const s = storedByKey.get(jobKey(d));
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
  await q.insertJobs(trx, projectId, insert);
}

/**
 * The project's dependencies become the element's: each job named in the project (live work
 * orders first; `workorder.code.ambiguous`, `block.code.unknown`), no cycle, no overlap among
 * those added.
 */
async function replaceDependencies(
  trx: Db,
  scope: OfficeScope,
  projectCode: string,
  dependencies: NonNullable<ImportedProject['dependencies']>,
  projectId: string,
  changed: () => void,
) {
  const refs = dependencies.flatMap((d) => [d.blocking, d.blocked]);
  const matches = await q.jobsByRef(trx, scope, projectId, refs);
  const jobs = refs.map((ref, i) => {
    const found = matches.filter((m) => m.i === i);
    const live = found.filter((m) => m.work_order_status !== 'VALIDATED');
    if (live.length > 1)
      throw badRequest(
        C.workOrderAmbiguous,
        `Several live work orders of project ${projectCode} carry ${ref.code}`,
      );
    const job = live[0] ?? found[0];
    if (!job)
      throw badRequest(
        C.blockCodeUnknown,
        `dependencies: ${jobRefText(ref)} is not a job of project ${projectCode}`,
      );
    return job;
  });
  const byId = new Map(jobs.map((j, i) => [j.id, { job: j, ref: refs[i] }]));
  const desired = new Map<string, Edge>();
  dependencies.forEach((_, i) => {
    const e = { blocking: jobs[2 * i].id, blocked: jobs[2 * i + 1].id };
    desired.set(`${e.blocking}>${e.blocked}`, e);
  });
  const cycle = findCycle([...desired.values()]);
  if (cycle)
    throw badRequest(C.dependencyCycle, cycleMessage(cycle.map((id) => byId.get(id)?.ref as JobRef)));
  const existing = await q.projectEdges(trx, projectId);
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
  await q.deleteEdges(trx, projectId, removed);
  await q.insertEdges(trx, projectId, added);
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
  const codes = SERVICE_ORDER_KINDS[kind].codes;
  const scope = await importScope(trx);
  const { before, outcome, so } = await writeServiceOrderRow(trx, kind, row);
  const max = row.maxWorkOrders ?? instanceMax;
  const count = row.workOrders ? row.workOrders.length : await q.serviceOrderCount(trx, so.id);
  if (count > max)
    throw badRequest(
      codes.full,
      `Service order ${row.serviceOrderCode} would carry ${count} work orders, over its maximum of ${max}`,
    );
  if (!row.workOrders) return outcome;
  const desired = await desiredEntries(trx, scope, codes, row.serviceOrderCode, row.workOrders, so.office_id);
  const stored = await q.serviceOrderEntries(trx, so.id);
  const storedRank = new Map(stored.map((e) => [e.work_order_id, e.rank]));
  const kept = new Set(desired.map((d) => d.work_order_id));
  const remove = stored.filter((e) => !kept.has(e.work_order_id)).map((e) => e.work_order_id);
  const upsert = desired.filter((d) => storedRank.get(d.work_order_id) !== d.rank);
  if (remove.length + upsert.length === 0) return outcome;
  if (before?.status && isServiceOrderClosed(before.status))
    throw badRequest(
      codes.statusConflict,
      `Service order ${row.serviceOrderCode} is ${before.status}: its work orders do not change`,
    );
  await takeFromOtherServiceOrders(
    trx,
    desired.filter((d) => !storedRank.has(d.work_order_id)),
  );
  await q.writeServiceOrderEntries(trx, so.id, remove, upsert);
  if (outcome === 'unchanged') await q.touch(trx, 'service_orders', [so.id]);
  return outcome === 'unchanged' ? 'updated' : outcome;
}

/** The service order's row; its code may not be another kind's (one namespace of codes). */
async function writeServiceOrderRow(trx: Db, kind: LinkableServiceOrderKind, row: ImportedServiceOrder) {
  const before = await q.serviceOrderForUpdate(trx, row.serviceOrderCode);
  if (before && before.kind !== kind)
    throw badRequest(
      C.serviceOrderCodeConflict,
      `${row.serviceOrderCode} is ${KIND_LABEL[before.kind]} service order (one namespace of codes)`,
    );
  const outcome = await upsertRow(trx, 'service_orders', 'code', {
    code: row.serviceOrderCode,
    kind,
    office_id: row.officeId,
    status: row.status ?? 'open',
    max_work_orders: row.maxWorkOrders ?? null,
  });
  return { before, outcome, so: await q.serviceOrderForUpdate(trx, row.serviceOrderCode) };
}

interface DesiredEntry {
  work_order_id: string;
  rank: string;
  status: WorkOrderStatus;
  code: string;
}

/**
 * The whole list of work orders, in order: each at or below the service order's office
 * (`office.conflict`), none twice (`serviceorder.workorder.duplicate`).
 */
async function desiredEntries(
  trx: Db,
  scope: OfficeScope,
  codes: { workOrderUnknown: string; officeConflict: string },
  serviceOrderCode: string,
  workOrders: WorkOrderName[],
  officeId: string,
): Promise<DesiredEntry[]> {
  const soPath = await q.officePath(trx, officeId);
  const desired: DesiredEntry[] = [];
  const seen = new Set<string>();
  for (const [i, name] of workOrders.entries()) {
    const wo = await importedWorkOrder(trx, scope, name, codes.workOrderUnknown);
    if (!(await q.workOrderOfficePath(trx, wo.id)).startsWith(soPath))
      throw badRequest(
        codes.officeConflict,
        `Service order ${serviceOrderCode} is not at or above the office of work order ${wo.code} (${wo.office_code})`,
      );
    if (seen.has(wo.id))
      throw badRequest(
        C.serviceOrderWorkOrderDuplicate,
        `workOrders[${i}] is given twice in ${serviceOrderCode}`,
      );
    seen.add(wo.id);
    desired.push({
      work_order_id: wo.id,
      rank: String((i + 1) * RANK_STEP),
      status: wo.status,
      code: wo.code,
    });
  }
  return desired;
}

/** Work orders taken from another service order: that one must let them go (as the link's leaving rules). */
async function takeFromOtherServiceOrders(trx: Db, joining: DesiredEntry[]) {
  for (const d of joining) {
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
