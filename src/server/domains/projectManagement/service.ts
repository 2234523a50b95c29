/**
 * Rules of project management besides the links (projectLink.ts: spec endpoint 19;
 * serviceOrderLink.ts: 20 and 21): removing a dependency, and the reads and lists the
 * console needs.
 */
import { CODE_PATTERN, type Page } from '../../../contract/common.ts';
import {
  ProjectManagementCodes as C,
  type JobRef,
  jobCode,
  jobRefText,
  type LinkableServiceOrderKind,
  type LinkableWorkOrder,
  listLinkableWorkOrders,
  listProjects,
  PROJECT_MANAGEMENT_PAGE_SIZE,
  type Project,
  type ProjectManagementListQuery,
  type ProjectSummary,
  SERVICE_ORDER_CODE_MAX,
  SERVICE_ORDER_KINDS,
  type ServiceOrder,
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
import { isPossibleProjectCode, pick } from './links.ts';
import { Problems } from './problems.ts';
import * as q from './queries.ts';

const iso = (d: Date | string | null) => (d === null ? null : rfc3339(d));

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
