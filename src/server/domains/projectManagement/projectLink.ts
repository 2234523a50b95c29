/**
 * Spec endpoint 19: link a work order into a project at a place, with dependencies. One
 * transaction: the work order's row is locked, then the projects it leaves and joins (in id
 * order); each rule of the spec adds its errors, and a refusal answers every one at once and
 * writes nothing. The steps below are named after the rules they enforce. A work order moved
 * last inside its project without dependencies, the usual call, is one statement instead.
 */
import {
  ProjectManagementCodes as C,
  cycleMessage,
  type JobRef,
  jobRefText,
  type Overlap,
  overlapMessage,
  PROJECT_LINK_CODES,
  type ProjectLinkRequest,
} from '../../../contract/projectManagement.ts';
import type { Db } from '../../db/index.ts';
import type { Caller } from '../../platform/caller.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import { rfc3339 } from '../../platform/time.ts';
import { writeTransaction } from '../../platform/transactions.ts';
import { scheduledEnd } from '../fieldService/index.ts';
import { cycleThrough, type Edge } from './graph.ts';
import {
  atOrBelow,
  isPossibleProjectCode,
  type LinkedWorkOrder,
  linkableFrom,
  pick,
  rankFor,
  simplePlacement,
  workOrderFor,
} from './links.ts';
import { isPossibleCode, Problems } from './problems.ts';
import * as q from './queries.ts';
import type { Placement } from './ranking.ts';

/** The linked work order's node in the dependency graph while it is not in the project yet. */
const NEW_JOB = 'new';

/** What the call names, found and locked. */
interface Targets {
  wo: LinkedWorkOrder | undefined;
  /** The project named, linkable by the caller. */
  project: q.LockedProjectRow | undefined;
  /** The project the work order sits in, and its job there. */
  current:
    | { job_id: string; project_id: string; code: string; status: string; office_path: string }
    | undefined;
  movingInside: boolean;
  /** The linked work order's node: its job when it moves inside, else NEW_JOB. */
  self: string;
  /** The job the i-th reference names (the relative one first, then the dependencies). */
  jobOf: (i: number) => q.JobMatch | 'ambiguous' | undefined;
}

/** A job's planned dates and its name, for the overlap rule and the messages. */
type Dates = Map<string, { start: Date | null; end: Date | null; ref: JobRef }>;

export async function linkProject(
  db: Db,
  caller: Caller,
  projectCode: string,
  req: ProjectLinkRequest,
): Promise<void> {
  if (await moveLastInOneStatement(db, caller.scope, projectCode, req)) return;
  await writeTransaction(db, async (trx) => {
    // The body's problems, and those of this attempt (the transaction may run again).
    const p = Problems.of(req.problems);
    const t = await resolveTargets(trx, caller.scope, projectCode, req, p);
    const placement = placementRule(t, req, p);
    const { edges, dates } = dependencyEdges(t, req, p);
    officeAndStatusRules(t, caller.scope, p);
    const added = await graphRules(trx, t, req, edges, dates, p);
    p.throwIfAny(PROJECT_LINK_CODES);
    if (!t.project || !t.wo || !placement)
      throw new Error('project link: a rule let an incomplete request through');
    await write(trx, { ...t, project: t.project, wo: t.wo }, placement, added);
  });
}

/**
 * The usual call, a work order moved last in the project holding it and no dependency: one
 * statement without a transaction. Anything else, or any refusal, takes the full path.
 */
async function moveLastInOneStatement(
  db: Db,
  scope: OfficeScope,
  projectCode: string,
  req: ProjectLinkRequest,
) {
  return (
    req.problems.length === 0 &&
    req.code !== undefined &&
    req.insertion.mode === 'last' &&
    req.block.length + req.isBlockedBy.length === 0 &&
    isPossibleCode(req.code) &&
    isPossibleProjectCode(projectCode) &&
    (await q.moveWorkOrderLast(db, scope, projectCode, req.code))
  );
}

/**
 * Resolve targets: the work order (locked), the project named and the one the work order
 * sits in (locked, status as it stands then; an unknown project is `project.code.unknown`),
 * and the jobs the call names (the relative one, then the dependencies: one statement).
 */
async function resolveTargets(
  trx: Db,
  scope: OfficeScope,
  projectCode: string,
  req: ProjectLinkRequest,
  p: Problems,
): Promise<Targets> {
  const wo =
    req.code === undefined
      ? undefined
      : await workOrderFor(trx, scope, req.code, p, {
          unknown: C.jobCodeUnknown,
          ambiguous: C.workOrderAmbiguous,
        });
  const locked = await q.lockLinkProjects(
    trx,
    scope,
    isPossibleProjectCode(projectCode) ? projectCode : null,
    wo?.id ?? null,
  );
  const project = locked.find((r) => r.target);
  const holding = locked.find((r) => r.job_id !== null);
  const current =
    holding?.job_id != null
      ? {
          job_id: holding.job_id,
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

  const rel = req.insertion.relative;
  const dependencyRefs = project?.in_tree === false ? [] : [...req.block, ...req.isBlockedBy];
  const refs: JobRef[] = [...(rel ? [rel] : []), ...dependencyRefs];
  const matches = project ? await q.jobsByRef(trx, scope, project.id, refs) : [];
  return {
    wo,
    project,
    current,
    movingInside,
    self: movingInside && current ? current.job_id : NEW_JOB,
    jobOf: (i) => pick(matches.filter((m) => m.i === i)),
  };
}

/**
 * Placement: first, last, an index, or before/after a job of the project
 * (`insertion.relativePosition.unknown` for one that is not, or the work order itself).
 */
function placementRule(t: Targets, req: ProjectLinkRequest, p: Problems): Placement | undefined {
  const { mode, relative: rel } = req.insertion;
  const simple = simplePlacement(req.insertion);
  if (simple || !((mode === 'before' || mode === 'after') && rel && t.project)) return simple;
  const job = t.jobOf(0);
  if (job === 'ambiguous')
    p.add(C.workOrderAmbiguous, `Several live work orders of the project carry ${rel.code}`);
  else if (!job || (t.wo && job.work_order_id === t.wo.id))
    p.add(
      C.relativePositionUnknown,
      job
        ? `relativePosition ${jobRefText(rel)} is the work order being linked`
        : `relativePosition ${jobRefText(rel)} is not a job of project ${t.project.code}`,
    );
  else return { mode, rank: job.rank };
  return undefined;
}

/**
 * Dependency edges: each job of `block` and `isBlockedBy` named in the project
 * (`block.code.unknown`, `isBlockedBy.code.unknown`), on a project of the caller's tree only
 * (`block.office.conflict`); with the planned dates of the jobs they join.
 */
function dependencyEdges(t: Targets, req: ProjectLinkRequest, p: Problems): { edges: Edge[]; dates: Dates } {
  const { wo, project, self } = t;
  const edges: Edge[] = [];
  const dates: Dates = new Map();
  if (wo)
    dates.set(self, {
      start: wo.scheduled_start,
      end: scheduledEnd(wo),
      ref: { jobType: 'workOrder', code: wo.code },
    });
  if (!project) return { edges, dates };
  if (req.block.length + req.isBlockedBy.length > 0 && !project.in_tree) {
    p.add(
      C.blockOfficeConflict,
      `Project ${project.code} is filed at ${project.office_code}, above your office: dependencies are declared on projects of your office tree only`,
    );
    return { edges, dates };
  }
  const offset = req.insertion.relative ? 1 : 0;
  const dependency = (ref: JobRef, i: number, field: 'block' | 'isBlockedBy') => {
    const isSelf = ref.jobType === 'workOrder' && wo !== undefined && ref.code === wo.code;
    const job = isSelf ? undefined : t.jobOf(offset + i);
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
    edges.push(field === 'block' ? { blocking: self, blocked: id } : { blocking: id, blocked: self });
  };
  for (const [i, ref] of req.block.entries()) dependency(ref, i, 'block');
  for (const [i, ref] of req.isBlockedBy.entries()) dependency(ref, req.block.length + i, 'isBlockedBy');
  return { edges, dates };
}

/**
 * Office and status rules: the project filed at or above the work order's office
 * (`project.office.conflict`) and not completed; the project the work order leaves not
 * completed, and one the caller may take it out of (`rule.violated`).
 */
function officeAndStatusRules(t: Targets, scope: OfficeScope, p: Problems) {
  const { wo, project, current } = t;
  if (project && wo && !atOrBelow(wo.office_path, project.office_path))
    p.add(
      C.projectOfficeConflict,
      `Project ${project.code} is filed at ${project.office_code}, not at or above the office of work order ${wo.code} (${wo.office_code})`,
    );
  if (project?.status === 'completed') p.add(C.projectStatusConflict, `Project ${project.code} is completed`);
  if (current && !t.movingInside) {
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
}

/**
 * Graph rules: the edges the call adds (those already there change nothing) close no cycle
 * in the project's graph (`block.dependency.cycle`, its path in the message), and none makes
 * a blocked job start before its blocking job ends (`block.dependency.overlap`). Answers the
 * edges to add.
 */
async function graphRules(
  trx: Db,
  t: Targets,
  req: ProjectLinkRequest,
  edges: Edge[],
  dates: Dates,
  p: Problems,
): Promise<Edge[]> {
  if (!t.project || !t.wo || edges.length === 0) return edges;
  // A work order new to the project has no dependency there yet: a cycle needs both a job
  // it blocks and a job blocking it, joined by the project's graph.
  const needGraph = t.movingInside || (req.block.length > 0 && req.isBlockedBy.length > 0);
  const existing = needGraph ? await q.projectEdges(trx, t.project.id) : [];
  const known = new Set(existing.map((e) => `${e.blocking}>${e.blocked}`));
  const added = edges.filter((e) => !known.has(`${e.blocking}>${e.blocked}`));
  const cycle = cycleThrough(t.self, [...existing, ...added]);
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
  return added;
}

/**
 * Write: the job moved or added at its place, then the dependencies it gains. The key is
 * computed by the write itself (one round trip under the project's lock); when the
 * neighbours touch, the project is renumbered and the key found again.
 */
async function write(
  trx: Db,
  t: Targets & { project: q.LockedProjectRow; wo: LinkedWorkOrder },
  placement: Placement,
  edges: Edge[],
) {
  const { project, wo, current, movingInside } = t;
  const touched = current && !movingInside ? [project.id, current.project_id] : [project.id];
  const key = q.freeKeySql(q.PROJECT_ORDER, project.id, wo.id, placement);
  const rank = () => rankFor(trx, q.PROJECT_ORDER, project.id, wo.id, placement);
  let jobId: string;
  if (movingInside && current) {
    jobId = current.job_id;
    if (!(await q.moveJob(trx, jobId, key, touched))) await q.setJobRank(trx, jobId, await rank());
  } else {
    if (current) await q.deleteJob(trx, current.job_id);
    jobId =
      (await q.insertWorkOrderJobAt(trx, project.id, wo.id, key, touched)) ??
      (await q.insertWorkOrderJob(trx, project.id, wo.id, await rank()));
  }
  const real = (id: string) => (id === NEW_JOB ? jobId : id);
  await q.insertEdges(
    trx,
    project.id,
    edges.map((e) => ({ blocking: real(e.blocking), blocked: real(e.blocked) })),
  );
}
