/**
 * Rules of project management: linking a work order into a project (spec endpoint 19), a
 * standard service order (20) or a route service order (21), removing a dependency, and the
 * reads. A link runs in one transaction: the work order's row is locked, then the containers
 * it leaves and joins (in id order), then every rule is checked and every error found is
 * answered at once; a refusal writes nothing. A project link moving a work order last inside
 * its project, the usual call, is one statement instead (`q.moveWorkOrderLast`).
 */
import { CODE_PATTERN, type Page } from '../../../contract/common.ts';
import { isCompletedOrHigher, isLive } from '../../../contract/fieldService.ts';
import {
  ProjectManagementCodes as C,
  cycleMessage,
  isServiceOrderClosed,
  type JobRef,
  jobCode,
  jobRefText,
  keepsClosedWorkOrders,
  type LinkableServiceOrderKind,
  type LinkableWorkOrder,
  listLinkableWorkOrders,
  listProjects,
  type Overlap,
  overlapMessage,
  PROJECT_CODE_MAX,
  PROJECT_LINK_CODES,
  PROJECT_MANAGEMENT_PAGE_SIZE,
  type Project,
  type ProjectLinkRequest,
  type ProjectManagementListQuery,
  type ProjectSummary,
  SERVICE_ORDER_CODE_MAX,
  SERVICE_ORDER_KINDS,
  type ServiceOrder,
  type ServiceOrderLinkRequest,
  type ServiceOrderSummary,
} from '../../../contract/projectManagement.ts';
import type { Db } from '../../db/index.ts';
import type { Caller } from '../../platform/caller.ts';
import { notFound } from '../../platform/errors.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import { isString, type PageTokens, pageRequest } from '../../platform/pagination.ts';
import { rfc3339 } from '../../platform/time.ts';
import { writeTransaction } from '../../platform/transactions.ts';
import { scheduledEnd } from '../fieldService/index.ts';
import { cycleThrough, type Edge } from './graph.ts';
import { isPossibleCode, Problems } from './problems.ts';
import * as q from './queries.ts';
import { keyBetween, type Placement } from './ranking.ts';

/** A project code that could exist (1..50 characters of a code). */
const isPossibleProjectCode = (code: string) => code.length <= PROJECT_CODE_MAX && CODE_PATTERN.test(code);
/** The office path `path` is `container`'s office or below it (rule: container at or above). */
const atOrBelow = (path: string, containerPath: string) => path.startsWith(containerPath);
/** An office path is in the caller's tree or on its chain of parent offices. */
const linkableFrom = (scope: OfficeScope, path: string) =>
  path.startsWith(scope.path) || scope.path.startsWith(path);

/** The work order a link names, locked, with its office path as read under the lock. */
type LinkedWorkOrder = Omit<q.LinkedWorkOrderRow, 'locked_path'> & { office_path: string };

/**
 * The live work order a link body names, in the caller's tree (errors go to `p`), locked
 * until the end of the transaction: the container it sits in cannot change meanwhile. The
 * rule is `findWorkOrder`'s (the live one; several live: ambiguous; none live: the latest
 * validated one), read and locked in one statement.
 */
async function workOrderFor(
  trx: Db,
  scope: OfficeScope,
  code: string,
  p: Problems,
  codes: { unknown: string; ambiguous: string },
): Promise<LinkedWorkOrder | undefined> {
  const rows = isPossibleCode(code) ? await q.findAndLockWorkOrder(trx, scope, code) : [];
  if (rows.filter((r) => isLive(r.status)).length > 1) {
    p.add(codes.ambiguous, `Several live work orders carry the code ${code}`);
    return undefined;
  }
  const found = rows[0];
  if (!found || found.locked_path === null) {
    p.add(codes.unknown, `Work order ${code} does not exist in your office tree`);
    return undefined;
  }
  const { locked_path, ...row } = found;
  return { ...row, office_path: locked_path };
}

const iso = (d: Date | string | null) => (d === null ? null : rfc3339(d));

/* ---------------- project link (spec endpoint 19) ---------------- */

/** The job a reference names among a project's matches: live work orders first. */
function pick(matches: q.JobMatch[]): q.JobMatch | 'ambiguous' | undefined {
  const visible = matches.filter((m) => m.visible);
  if (visible.length === 0) return undefined;
  if (visible[0].job_type !== 'workOrder') return visible[0];
  const live = visible.filter((m) => m.work_order_status !== 'VALIDATED');
  if (live.length > 1) return 'ambiguous';
  return live[0] ?? visible[0];
}

/** The linked work order's node in the dependency graph while it is not in the project yet. */
const NEW_JOB = 'new';

export async function linkProject(
  db: Db,
  caller: Caller,
  projectCode: string,
  req: ProjectLinkRequest,
): Promise<void> {
  const scope = caller.scope;
  // The usual call, a work order moved last in the project holding it and no dependency: one
  // statement without a transaction. Anything else, or any refusal, takes the full path.
  if (
    req.problems.length === 0 &&
    req.code !== undefined &&
    req.insertion.mode === 'last' &&
    req.block.length + req.isBlockedBy.length === 0 &&
    isPossibleCode(req.code) &&
    isPossibleProjectCode(projectCode) &&
    (await q.moveWorkOrderLast(db, scope, projectCode, req.code))
  )
    return;
  await writeTransaction(db, async (trx) => {
    // The body's problems, and those of this attempt (the transaction may run again).
    const p = Problems.of(req.problems);
    const wo =
      req.code === undefined
        ? undefined
        : await workOrderFor(trx, scope, req.code, p, {
            unknown: C.jobCodeUnknown,
            ambiguous: C.workOrderAmbiguous,
          });
    // The project named and the one the work order sits in, locked (status as it stands then).
    const locked = await q.lockLinkProjects(
      trx,
      scope,
      isPossibleProjectCode(projectCode) ? projectCode : null,
      wo?.id ?? null,
    );
    const project = locked.find((r) => r.target);
    const holding = locked.find((r) => r.job_id !== null);
    const current = holding
      ? {
          job_id: holding.job_id as string,
          project_id: holding.id,
          code: holding.code,
          status: holding.status,
          office_path: holding.office_path,
        }
      : undefined;
    if (!project)
      p.add(
        C.projectUnknown,
        `Project ${projectCode} does not exist in your office tree or its parent offices`,
      );
    const movingInside = !!project && current?.project_id === project.id;

    // Jobs the call names: the relative one, then the dependencies (one statement).
    const declared = req.block.length + req.isBlockedBy.length > 0;
    const rel = req.insertion.relative;
    const dependencyRefs = project?.in_tree === false ? [] : [...req.block, ...req.isBlockedBy];
    const refs: JobRef[] = [...(rel ? [rel] : []), ...dependencyRefs];
    const matches = project ? await q.jobsByRef(trx, scope, project.id, refs) : [];
    const jobOf = (i: number) => pick(matches.filter((m) => m.i === i));

    let placement: Placement | undefined;
    const mode = req.insertion.mode;
    if (mode === 'first' || mode === 'last') placement = { mode };
    else if (mode === 'index' && req.insertion.position !== undefined)
      placement = { mode, position: req.insertion.position };
    else if ((mode === 'before' || mode === 'after') && rel && project) {
      const job = jobOf(0);
      if (job === 'ambiguous')
        p.add(C.workOrderAmbiguous, `Several live work orders of the project carry ${rel.code}`);
      else if (!job || (wo && job.work_order_id === wo.id))
        p.add(
          C.relativePositionUnknown,
          job
            ? `relativePosition ${jobRefText(rel)} is the work order being linked`
            : `relativePosition ${jobRefText(rel)} is not a job of project ${project.code}`,
        );
      else placement = { mode, rank: job.rank };
    }

    // Dependencies: the linked work order's node, and the edges the call adds.
    const self = movingInside ? (current?.job_id as string) : NEW_JOB;
    const newEdges: Edge[] = [];
    const dates = new Map<string, { start: Date | null; end: Date | null; ref: JobRef }>();
    if (wo)
      dates.set(self, {
        start: wo.scheduled_start,
        end: scheduledEnd(wo),
        ref: { jobType: 'workOrder', code: wo.code },
      });
    if (project && declared && !project.in_tree)
      p.add(
        C.blockOfficeConflict,
        `Project ${project.code} is filed at ${project.office_code}, above your office: dependencies are declared on projects of your office tree only`,
      );
    else if (project) {
      const offset = rel ? 1 : 0;
      const dependency = (ref: JobRef, i: number, field: 'block' | 'isBlockedBy') => {
        const isSelf = ref.jobType === 'workOrder' && wo !== undefined && ref.code === wo.code;
        const job = isSelf ? undefined : jobOf(offset + i);
        if (job === 'ambiguous') {
          p.add(C.workOrderAmbiguous, `Several live work orders of the project carry ${ref.code}`);
          return;
        }
        if (!isSelf && !job) {
          p.add(
            field === 'block' ? C.blockCodeUnknown : C.isBlockedByCodeUnknown,
            `${field}: ${jobRefText(ref)} is not a job of project ${project.code}`,
          );
          return;
        }
        const id = job ? job.id : self;
        if (job) dates.set(job.id, { start: job.planned_start, end: job.planned_end, ref });
        newEdges.push(field === 'block' ? { blocking: self, blocked: id } : { blocking: id, blocked: self });
      };
      for (const [i, ref] of req.block.entries()) dependency(ref, i, 'block');
      for (const [i, ref] of req.isBlockedBy.entries()) dependency(ref, req.block.length + i, 'isBlockedBy');
    }

    if (project && wo) {
      if (!atOrBelow(wo.office_path, project.office_path))
        p.add(
          C.projectOfficeConflict,
          `Project ${project.code} is filed at ${project.office_code}, not at or above the office of work order ${wo.code} (${wo.office_code})`,
        );
    }
    if (project?.status === 'completed')
      p.add(C.projectStatusConflict, `Project ${project.code} is completed`);
    if (current && !movingInside) {
      if (current.status === 'completed')
        p.add(
          C.currentProjectStatusConflict,
          `Work order ${wo?.code} belongs to project ${current.code}, which is completed`,
        );
      if (!linkableFrom(scope, current.office_path))
        p.add(
          C.ruleViolated,
          `Work order ${wo?.code} belongs to a project outside your office tree and its parent offices: it cannot be taken out of it from your office`,
        );
    }

    if (project && wo && newEdges.length > 0) {
      // A work order new to the project has no dependency there yet: a cycle needs both a job
      // it blocks and a job blocking it, joined by the project's graph.
      const needGraph = movingInside || (req.block.length > 0 && req.isBlockedBy.length > 0);
      const existing = needGraph ? await q.projectEdges(trx, project.id) : [];
      const known = new Set(existing.map((e) => `${e.blocking}>${e.blocked}`));
      const added = newEdges.filter((e) => !known.has(`${e.blocking}>${e.blocked}`));
      const cycle = cycleThrough(self, [...existing, ...added]);
      if (cycle) {
        const refsById = await q.jobRefsById(
          trx,
          cycle.filter((id) => id !== NEW_JOB && !dates.has(id)),
        );
        const refOf = (id: string) => dates.get(id)?.ref ?? (refsById.get(id) as JobRef);
        p.add(C.dependencyCycle, cycleMessage(cycle.map(refOf)));
      }
      const overlaps: Overlap[] = [];
      for (const e of added) {
        const blocking = dates.get(e.blocking);
        const blocked = dates.get(e.blocked);
        if (e.blocking !== e.blocked && blocking?.end && blocked?.start && blocked.start < blocking.end)
          overlaps.push({
            blocking: { ...blocking.ref, plannedEnd: rfc3339(blocking.end) },
            blocked: { ...blocked.ref, plannedStart: rfc3339(blocked.start) },
          });
      }
      if (overlaps.length > 0) p.add(C.dependencyOverlap, overlapMessage(overlaps));
      newEdges.splice(0, newEdges.length, ...added);
    }

    p.throwIfAny(PROJECT_LINK_CODES);
    if (!project || !wo || !placement)
      throw new Error('project link: a rule let an incomplete request through');

    // Written: the job moved or added at its place, then the dependencies it gains.
    // The key is computed by the write itself (one round trip under the project's lock);
    // when the neighbours touch, the project is renumbered and the key found again.
    const touched = current && !movingInside ? [project.id, current.project_id] : [project.id];
    const key = q.freeKeySql(q.PROJECT_ORDER, project.id, wo.id, placement);
    let jobId: string;
    if (movingInside) {
      jobId = current?.job_id as string;
      if (!(await q.moveJob(trx, jobId, key, touched)))
        await q.setJobRank(trx, jobId, await rankFor(trx, q.PROJECT_ORDER, project.id, wo.id, placement));
    } else {
      if (current) await q.deleteJob(trx, current.job_id);
      jobId =
        (await q.insertWorkOrderJobAt(trx, project.id, wo.id, key, touched)) ??
        (await q.insertWorkOrderJob(
          trx,
          project.id,
          wo.id,
          await rankFor(trx, q.PROJECT_ORDER, project.id, wo.id, placement),
        ));
    }
    const real = (id: string) => (id === NEW_JOB ? jobId : id);
    await q.insertEdges(
      trx,
      project.id,
      newEdges.map((e) => ({ blocking: real(e.blocking), blocked: real(e.blocked) })),
    );
  });
}

/** Extension: removes one dependency of a project (the link call only adds them). */
export async function removeDependency(
  db: Db,
  caller: Caller,
  projectCode: string,
  body: {
    blocking: { jobType: string; code: string | number };
    blocked: { jobType: string; code: string | number };
  },
): Promise<void> {
  const table = [
    C.projectUnknown,
    C.workOrderAmbiguous,
    C.projectStatusConflict,
    C.blockOfficeConflict,
    C.dependencyUnknown,
  ];
  const ref = (e: { jobType: string; code: string | number }): JobRef => {
    const jobType = e.jobType.toLowerCase() === 'task' ? 'task' : 'workOrder';
    return { jobType, code: jobCode(jobType, String(e.code)) };
  };
  const blocking = ref(body.blocking);
  const blocked = ref(body.blocked);
  await writeTransaction(db, async (trx) => {
    const p = new Problems();
    const project = isPossibleProjectCode(projectCode)
      ? await q.linkableProject(trx, caller.scope, projectCode)
      : undefined;
    if (!project) {
      p.add(
        C.projectUnknown,
        `Project ${projectCode} does not exist in your office tree or its parent offices`,
      );
      return p.throwIfAny(table);
    }
    const status = await q.lockRows(trx, 'projects', [project.id]);
    if (status.get(project.id) === 'completed')
      p.add(C.projectStatusConflict, `Project ${project.code} is completed`);
    if (!project.in_tree) {
      p.add(
        C.blockOfficeConflict,
        `Project ${project.code} is filed at ${project.office_code}, above your office: its dependencies are changed from its office tree only`,
      );
      return p.throwIfAny(table);
    }
    const matches = await q.jobsByRef(trx, caller.scope, project.id, [blocking, blocked]);
    const [a, b] = [0, 1].map((i) => pick(matches.filter((m) => m.i === i)));
    if (a === 'ambiguous' || b === 'ambiguous')
      p.add(C.workOrderAmbiguous, `Several live work orders of project ${project.code} carry the code`);
    else if (!a || !b || !(await q.deleteEdge(trx, project.id, { blocking: a.id, blocked: b.id })))
      p.add(
        C.dependencyUnknown,
        `Project ${project.code} has no dependency ${jobRefText(blocking)} blocks ${jobRefText(blocked)}`,
      );
    p.throwIfAny(table);
    await q.touch(trx, 'projects', [project.id]);
  });
}

/* ---------------- service order links (spec endpoints 20 and 21) ---------------- */

export async function linkServiceOrder(
  db: Db,
  caller: Caller,
  kind: LinkableServiceOrderKind,
  serviceOrderCode: string,
  req: ServiceOrderLinkRequest,
  instanceMax: number,
): Promise<void> {
  const { codes, table } = SERVICE_ORDER_KINDS[kind];
  const scope = caller.scope;
  const label = `${SERVICE_ORDER_KINDS[kind].title} service order`;
  await writeTransaction(db, async (trx) => {
    const p = Problems.of(req.problems);
    // A code of several live work orders: the spec's service order table has no ambiguity code.
    const wo =
      req.code === undefined
        ? undefined
        : await workOrderFor(trx, scope, req.code, p, {
            unknown: codes.workOrderUnknown,
            ambiguous: C.ruleViolated,
          });
    const current = wo ? await q.serviceOrderOfWorkOrder(trx, wo.id) : undefined;
    const found =
      serviceOrderCode.length <= SERVICE_ORDER_CODE_MAX && CODE_PATTERN.test(serviceOrderCode)
        ? await q.linkableServiceOrder(trx, scope, serviceOrderCode)
        : undefined;
    const so = found?.kind === kind ? found : undefined;
    if (!so)
      p.add(
        codes.unknown,
        `${label} ${serviceOrderCode} does not exist in your office tree or its parent offices`,
      );
    const status = await q.lockRows(
      trx,
      'service_orders',
      [so?.id, current?.id].filter((id): id is string => id !== undefined),
    );
    if (so) so.status = (status.get(so.id) as typeof so.status) ?? so.status;
    if (current) current.status = (status.get(current.id) as typeof current.status) ?? current.status;
    const movingInside = !!so && current?.id === so.id;

    let placement: Placement | undefined;
    const mode = req.insertion.mode;
    if (mode === 'first' || mode === 'last') placement = { mode };
    else if (mode === 'index' && req.insertion.position !== undefined)
      placement = { mode, position: req.insertion.position };
    else if ((mode === 'before' || mode === 'after') && req.insertion.relative && so) {
      const code = req.insertion.relative.code;
      const entries = isPossibleCode(code) ? await q.serviceOrderEntriesByCode(trx, scope, so.id, code) : [];
      const live = entries.filter((e) => e.status !== 'VALIDATED');
      const entry = live[0] ?? entries[0];
      if (live.length > 1)
        p.add(C.ruleViolated, `Several live work orders of ${so.code} carry the code ${code}`);
      else if (!entry || (wo && entry.work_order_id === wo.id))
        p.add(
          C.relativePositionUnknown,
          entry
            ? `relativePosition ${code} is the work order being linked`
            : `relativePosition ${code} is not a work order of ${so.code}`,
        );
      else placement = { mode, rank: entry.rank };
    }

    if (so && wo && !atOrBelow(wo.office_path, so.office_path))
      p.add(
        codes.officeConflict,
        `${label} ${so.code} is filed at ${so.office_code}, not at or above the office of work order ${wo.code} (${wo.office_code})`,
      );
    if (so?.status && isServiceOrderClosed(so.status))
      p.add(codes.statusConflict, `${label} ${so.code} is ${so.status}`);
    if (so && !movingInside) {
      const max = so.max_work_orders ?? instanceMax;
      if ((await q.serviceOrderCount(trx, so.id)) >= max)
        p.add(codes.full, `${label} ${so.code} already carries its maximum of ${max} work orders`);
    }
    if (current && !movingInside && wo) {
      if (!linkableFrom(scope, current.office_path))
        p.add(
          C.currentServiceOrderNotLinked,
          `Work order ${wo.code} is carried by a service order outside your office tree and its parent offices: you cannot take it out of it`,
        );
      else {
        if (isServiceOrderClosed(current.status))
          p.add(
            C.currentServiceOrderConflict,
            `Work order ${wo.code} is carried by service order ${current.code}, which is ${current.status}`,
          );
        if (keepsClosedWorkOrders(current.kind) && isCompletedOrHigher(wo.status))
          p.add(
            C.currentServiceOrderStatusConflict,
            `Work order ${wo.code} is ${wo.status}: route service order ${current.code} does not let it go`,
          );
      }
    }

    p.throwIfAny(table);
    if (!so || !wo || !placement)
      throw new Error('service order link: a rule let an incomplete request through');
    if (current && !movingInside) await q.removeFromServiceOrder(trx, wo.id);
    const rank = await rankFor(trx, q.SERVICE_ORDER_ORDER, so.id, wo.id, placement);
    await q.placeInServiceOrder(trx, so.id, wo.id, rank);
    await q.touch(trx, 'service_orders', current && !movingInside ? [so.id, current.id] : [so.id]);
  });
}

/* ---------------- reads (extensions) ---------------- */

export async function getProject(db: Db, scope: OfficeScope, code: string): Promise<Project> {
  const row = isPossibleProjectCode(code) ? await q.projectInTree(db, scope, code) : undefined;
  if (!row) throw notFound(C.projectUnknown, `Project ${code} does not exist in your office tree`);
  return {
    projectCode: row.code,
    name: row.name,
    officeCode: row.office_code,
    status: row.status,
    jobs: row.jobs.map((j) =>
      j.jobType === 'workOrder'
        ? {
            jobType: j.jobType,
            code: j.code,
            uuid: j.uuid ?? undefined,
            plannedStart: iso(j.plannedStart),
            plannedEnd: iso(j.plannedEnd),
          }
        : {
            jobType: j.jobType,
            code: j.code,
            name: j.name,
            plannedStart: iso(j.plannedStart),
            plannedEnd: iso(j.plannedEnd),
          },
    ),
    dependencies: row.dependencies.map((d) => ({
      blocking: { jobType: d.blockingType, code: d.blockingCode },
      blocked: { jobType: d.blockedType, code: d.blockedCode },
    })),
  };
}

export async function getServiceOrder(
  db: Db,
  scope: OfficeScope,
  kind: LinkableServiceOrderKind,
  code: string,
  instanceMax: number,
): Promise<ServiceOrder> {
  const row =
    code.length <= SERVICE_ORDER_CODE_MAX && CODE_PATTERN.test(code)
      ? await q.serviceOrderInTree(db, scope, kind, code)
      : undefined;
  if (!row)
    throw notFound(
      SERVICE_ORDER_KINDS[kind].codes.unknown,
      `${SERVICE_ORDER_KINDS[kind].title} service order ${code} does not exist in your office tree`,
    );
  return {
    serviceOrderCode: row.code,
    officeCode: row.office_code,
    status: row.status,
    maxWorkOrders: row.max_work_orders ?? instanceMax,
    workOrders: row.work_orders,
  };
}

const listRequest = (tokens: PageTokens, id: string, query: ProjectManagementListQuery) =>
  pageRequest(
    tokens,
    {
      id,
      filters: { q: query.q ?? '' },
      invalidCode: C.continuationTokenInvalid,
      isKey: isString,
    },
    query.continuationToken,
  );

export async function listProjectsPage(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  query: ProjectManagementListQuery,
): Promise<Page<ProjectSummary>> {
  const request = listRequest(tokens, listProjects.id, query);
  const rows = await q.projectsPage(db, scope, query.q, request.after, PROJECT_MANAGEMENT_PAGE_SIZE + 1);
  return request.page(
    rows,
    PROJECT_MANAGEMENT_PAGE_SIZE,
    (r) => ({
      projectCode: r.code,
      name: r.name,
      officeCode: r.office_code,
      status: r.status,
      jobCount: Number(r.job_count),
      workOrderCount: Number(r.work_order_count),
    }),
    (r) => r.code,
  );
}

export async function listServiceOrdersPage(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  kind: LinkableServiceOrderKind,
  query: ProjectManagementListQuery,
  instanceMax: number,
): Promise<Page<ServiceOrderSummary>> {
  const request = listRequest(tokens, SERVICE_ORDER_KINDS[kind].listId, query);
  const rows = await q.serviceOrdersPage(
    db,
    scope,
    kind,
    query.q,
    request.after,
    PROJECT_MANAGEMENT_PAGE_SIZE + 1,
  );
  return request.page(
    rows,
    PROJECT_MANAGEMENT_PAGE_SIZE,
    (r) => ({
      serviceOrderCode: r.code,
      officeCode: r.office_code,
      status: r.status,
      maxWorkOrders: r.max_work_orders ?? instanceMax,
      workOrderCount: Number(r.work_order_count),
    }),
    (r) => r.code,
  );
}

const isCodeAndUuid = (k: unknown): k is [string, string] =>
  Array.isArray(k) && k.length === 2 && typeof k[0] === 'string' && typeof k[1] === 'string';

export async function listWorkOrdersPage(
  db: Db,
  scope: OfficeScope,
  tokens: PageTokens,
  query: ProjectManagementListQuery,
): Promise<Page<LinkableWorkOrder>> {
  const request = pageRequest(
    tokens,
    {
      id: listLinkableWorkOrders.id,
      filters: { q: query.q ?? '' },
      invalidCode: C.continuationTokenInvalid,
      isKey: isCodeAndUuid,
    },
    query.continuationToken,
  );
  const rows = await q.workOrdersPage(db, scope, query.q, request.after, PROJECT_MANAGEMENT_PAGE_SIZE + 1);
  return request.page(
    rows,
    PROJECT_MANAGEMENT_PAGE_SIZE,
    (r) => {
      const end = scheduledEnd(r);
      return {
        workOrderCode: r.code,
        uuid: r.uuid,
        status: r.status,
        officeCode: r.office_code,
        plannedStart: iso(r.scheduled_start),
        plannedEnd: iso(end),
        projectCode: r.project_code,
        serviceOrderCode: r.service_order_code,
        serviceOrderKind: r.service_order_kind,
      };
    },
    (r) => [r.code, r.uuid] as [string, string],
  );
}

/**
 * The order key for the work order `workOrderId` placed in the container: a free key at the
 * requested place, ignoring the work order's own current entry (a move).
 */
async function rankFor(
  db: Db,
  t: q.OrderedTable,
  containerId: string,
  workOrderId: string,
  placement: Placement,
): Promise<string> {
  const [prev, next] = await q.neighbourRanks(db, t, containerId, workOrderId, placement);
  const key = keyBetween(prev, next);
  if (key !== undefined) return String(key);
  const moved = await q.renumber(db, t, containerId);
  const again: Placement =
    placement.mode === 'before' || placement.mode === 'after'
      ? { ...placement, rank: moved.get(placement.rank) ?? placement.rank }
      : placement;
  const [p2, n2] = await q.neighbourRanks(db, t, containerId, workOrderId, again);
  const key2 = keyBetween(p2, n2);
  if (key2 === undefined) throw new Error(`no free order key in ${t.table} ${containerId} after renumbering`);
  return String(key2);
}
