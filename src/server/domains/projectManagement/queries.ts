import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { WorkOrderStatus } from '../../../contract/fieldService.ts';
import type {
  DependencyJobType,
  JobRef,
  JobType,
  LinkableServiceOrderKind,
  ProjectStatus,
  ServiceOrderStatus,
} from '../../../contract/projectManagement.ts';
import type { Db } from '../../db/index.ts';
import { inScope, type OfficeScope, pathAbove, pathUnder } from '../../platform/officeScope.ts';
import { likePattern } from '../../platform/sqlText.ts';
import { namedWorkOrdersSql } from '../fieldService/index.ts';
import type { Edge } from './graph.ts';
import { MAX_ENTRIES, type Placement, RANK_LIMIT, RANK_STEP } from './ranking.ts';
import type { ServiceOrderKind } from './tables.ts';

/** The office path column `column` is the caller's office or one of its parent offices. */
const onCallersChain = (scope: OfficeScope, column: string) => pathAbove(column, scope.path);
/** The office path column `column` is in the caller's tree. */
const inTree = (scope: OfficeScope, column: string) => pathUnder(column, scope.path);
/**
 * Containers a caller may link to (spec rules 1, 4 and 6 together): one filed in the caller's
 * tree, or on the caller's chain of parent offices; one of a sibling branch is unknown.
 */
const linkable = (scope: OfficeScope, column: string) =>
  sql<SqlBool>`(${inTree(scope, column)} OR ${onCallersChain(scope, column)})`;

/* ---------------- projects ---------------- */

export interface ContainerRow {
  id: string;
  code: string;
  office_path: string;
  office_code: string;
  /** In the caller's tree (false: on its chain of parent offices). */
  in_tree: boolean;
}
export type ProjectRow = ContainerRow & { status: ProjectStatus };
export type ServiceOrderRow = ContainerRow & {
  kind: ServiceOrderKind;
  status: ServiceOrderStatus | null;
  max_work_orders: number | null;
};

/** A project the caller may link to, by code (one statement). */
export async function linkableProject(
  db: Db,
  scope: OfficeScope,
  code: string,
): Promise<ProjectRow | undefined> {
  const { rows } = await sql<ProjectRow>`
    SELECT p.id, p.code, p.status, o.path AS office_path, o.code AS office_code,
           ${inTree(scope, 'o.path')} AS in_tree
    FROM projects p JOIN offices o ON o.id = p.office_id
    WHERE p.code = ${code} AND ${linkable(scope, 'o.path')}`.execute(db);
  return rows[0];
}

/** A service order of any kind the caller may link to, by code. */
export async function linkableServiceOrder(
  db: Db,
  scope: OfficeScope,
  code: string,
): Promise<ServiceOrderRow | undefined> {
  const { rows } = await sql<ServiceOrderRow>`
    SELECT s.id, s.code, s.kind, s.status, s.max_work_orders, o.path AS office_path, o.code AS office_code,
           ${inTree(scope, 'o.path')} AS in_tree
    FROM service_orders s JOIN offices o ON o.id = s.office_id
    WHERE s.code = ${code} AND ${linkable(scope, 'o.path')}`.execute(db);
  return rows[0];
}

/**
 * Locks container rows by id, in id order (every writer locks the work order first, then its
 * containers in that order: no deadlock), and answers their current status. FOR NO KEY UPDATE: writers of the container wait, the
 * foreign-key checks of its entries do not.
 */
export async function lockRows(
  db: Db,
  table: 'projects' | 'service_orders',
  ids: readonly string[],
): Promise<Map<string, string | null>> {
  const status = new Map<string, string | null>();
  for (const id of [...new Set(ids)].sort((a, b) => Number(a) - Number(b))) {
    const { rows } = await sql<{ status: string | null }>`
      SELECT status FROM ${sql.table(table)} WHERE id = ${id} FOR NO KEY UPDATE`.execute(db);
    if (rows[0]) status.set(id, rows[0].status);
  }
  return status;
}

/** The work order a link names, with what the rules need. */
export interface LinkedWorkOrderRow {
  id: string;
  code: string;
  status: WorkOrderStatus;
  scheduled_start: Date | null;
  duration_minutes: number;
  office_code: string;
  /** The office path read under the lock (null: not locked, or gone meanwhile). */
  locked_path: string | null;
}

/**
 * The work orders of the caller's tree carrying `code`, in the order of `findWorkOrder`
 * (fieldService's `namedWorkOrdersSql`: live ones first, then the most recently updated
 * validated ones; three rows tell "one live", "several live" and "validated only" apart),
 * and the one it names
 * locked in the same statement (FOR NO KEY UPDATE until the end of the transaction: the
 * container holding it cannot change meanwhile) with its office path read under the lock.
 * Several live ones: none is locked (the call is refused). One round trip instead of a
 * lookup and then a lock; the lock re-reads the row (a work order deleted meanwhile answers
 * no path).
 */
export async function findAndLockWorkOrder(
  db: Db,
  scope: OfficeScope,
  code: string,
): Promise<LinkedWorkOrderRow[]> {
  const { rows } = await sql<LinkedWorkOrderRow>`
    WITH found AS MATERIALIZED (${namedWorkOrdersSql(
      scope,
      { code },
      sql`w.id, w.code, w.status, w.scheduled_start, o.code AS office_code, t.duration_minutes`,
    )}
    ), locked AS (
      SELECT o.path FROM work_orders w JOIN offices o ON o.id = w.office_id
      WHERE w.id = (SELECT f.id FROM found f WHERE f.n = 1)
        AND (SELECT count(*) FROM found f WHERE f.status <> 'VALIDATED') < 2
      FOR NO KEY UPDATE OF w
    )
    SELECT f.id, f.code, f.status, f.scheduled_start, f.office_code, f.duration_minutes,
           CASE WHEN f.n = 1 THEN (SELECT l.path FROM locked l) END AS locked_path
    FROM found f ORDER BY f.n`.execute(db);
  return rows;
}

/** The office path of a work order. */
export async function workOrderOfficePath(db: Db, workOrderId: string): Promise<string> {
  const { rows } = await sql<{ path: string }>`
    SELECT o.path FROM work_orders w JOIN offices o ON o.id = w.office_id WHERE w.id = ${workOrderId}`.execute(
    db,
  );
  return rows[0].path;
}

/** A project a link call names or leaves, locked. */
export type LockedProjectRow = ProjectRow & {
  /** The project named by the call (else: the one the work order leaves). */
  target: boolean;
  /** The work order's job when it sits in this project. */
  job_id: string | null;
};

/**
 * In one statement, after the work order's lock: the project the call names (by code,
 * linkable by the caller) and the project holding the work order (its job there), both
 * locked FOR NO KEY UPDATE in id order (every writer locks the work order first, then its
 * containers in id order: no deadlock), with their status as it stands under the lock.
 * What `projectOfWorkOrder`, `linkableProject` and `lockRows` did in three or four trips.
 */
export async function lockLinkProjects(
  db: Db,
  scope: OfficeScope,
  code: string | null,
  workOrderId: string | null,
): Promise<LockedProjectRow[]> {
  const { rows } = await sql<LockedProjectRow>`
    WITH job AS (SELECT j.id, j.project_id FROM project_jobs j WHERE j.work_order_id = ${workOrderId}::bigint)
    SELECT p.id, p.code, p.status, o.path AS office_path, o.code AS office_code,
           ${inTree(scope, 'o.path')} AS in_tree,
           coalesce(p.code = ${code}::text AND ${linkable(scope, 'o.path')}, false) AS target,
           (SELECT job.id FROM job WHERE job.project_id = p.id) AS job_id
    FROM projects p JOIN offices o ON o.id = p.office_id
    WHERE (p.code = ${code}::text AND ${linkable(scope, 'o.path')})
       OR p.id = (SELECT job.project_id FROM job)
    ORDER BY p.id
    FOR NO KEY UPDATE OF p`.execute(db);
  return rows;
}

/** The project holding a work order (its job there), if any. */
export async function projectOfWorkOrder(db: Db, workOrderId: string) {
  const { rows } = await sql<{
    job_id: string;
    project_id: string;
    code: string;
    status: ProjectStatus;
    office_path: string;
  }>`
    SELECT j.id AS job_id, p.id AS project_id, p.code, p.status, o.path AS office_path
    FROM project_jobs j JOIN projects p ON p.id = j.project_id JOIN offices o ON o.id = p.office_id
    WHERE j.work_order_id = ${workOrderId}`.execute(db);
  return rows[0];
}

/** The service order holding a work order, if any. */
export async function serviceOrderOfWorkOrder(db: Db, workOrderId: string) {
  const { rows } = await sql<{
    id: string;
    code: string;
    kind: ServiceOrderKind;
    status: ServiceOrderStatus;
    office_path: string;
  }>`
    SELECT s.id, s.code, s.kind, s.status, o.path AS office_path
    FROM service_order_work_orders e JOIN service_orders s ON s.id = e.service_order_id
    JOIN offices o ON o.id = s.office_id
    WHERE e.work_order_id = ${workOrderId}`.execute(db);
  return rows[0];
}

/** A job of a project found by reference, with what the rules need. */
export interface JobMatch {
  /** Index of the reference it answers in the list asked. */
  i: number;
  id: string;
  rank: string;
  job_type: JobType;
  code: string;
  work_order_id: string | null;
  work_order_status: WorkOrderStatus | null;
  /** Work orders: in the caller's tree. */
  visible: boolean;
  planned_start: Date | null;
  planned_end: Date | null;
}

/**
 * The jobs of a project named by references (type and canonical code), in one statement.
 * A work order reference may match several work orders of the project (a validated and a
 * live one share a code): every match is returned, live ones first.
 */
export async function jobsByRef(
  db: Db,
  scope: OfficeScope,
  projectId: string,
  refs: readonly JobRef[],
): Promise<JobMatch[]> {
  if (refs.length === 0) return [];
  const types = refs.map((r) => r.jobType);
  const refCodes = refs.map((r) => r.code);
  const plannedEnd = sql`w.scheduled_start + make_interval(mins => t.duration_minutes)`;
  // Phases and tasks by their code, work orders by theirs: each through its own index.
  const { rows } = await sql<JobMatch & { i: string }>`
    SELECT * FROM (
      SELECT r.i, j.id, j.rank, j.job_type, j.code, NULL::bigint AS work_order_id,
             NULL::text AS work_order_status, true AS visible, j.planned_start, j.planned_end,
             false AS validated, NULL::timestamptz AS last_update
      FROM unnest(${types}::text[], ${refCodes}::text[]) WITH ORDINALITY AS r(job_type, code, i)
      JOIN project_jobs j ON j.project_id = ${projectId} AND j.job_type = r.job_type AND j.code = r.code
      WHERE r.job_type <> 'workOrder'
      UNION ALL
      SELECT r.i, j.id, j.rank, j.job_type, w.code, j.work_order_id, w.status,
             ${inScope(scope, 'w.office_id')}, w.scheduled_start, ${plannedEnd},
             w.status = 'VALIDATED', w.last_update
      FROM unnest(${types}::text[], ${refCodes}::text[]) WITH ORDINALITY AS r(job_type, code, i)
      JOIN work_orders w ON w.code = r.code
      JOIN project_jobs j ON j.work_order_id = w.id AND j.project_id = ${projectId}
      JOIN work_order_types t ON t.code = w.type_code
      WHERE r.job_type = 'workOrder'
    ) m
    ORDER BY m.i, m.validated, m.last_update DESC NULLS LAST`.execute(db);
  return rows.map((r) => ({ ...r, i: Number(r.i) - 1 }));
}

/** The job of a work order in a project, with its planned dates (its schedule). */
export async function workOrderJob(db: Db, projectId: string, workOrderId: string) {
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM project_jobs WHERE project_id = ${projectId} AND work_order_id = ${workOrderId}`.execute(
    db,
  );
  return rows[0]?.id;
}

/**
 * Every dependency of a project, as one text value (`blocking>blocked,...`): a thousand
 * edges cost one row to carry instead of a thousand (about 5 times faster on PGlite).
 */
export async function projectEdges(db: Db, projectId: string): Promise<Edge[]> {
  const { rows } = await sql<{ edges: string | null }>`
    SELECT string_agg(blocking_job_id || '>' || blocked_job_id, ',') AS edges
    FROM project_dependencies WHERE project_id = ${projectId}`.execute(db);
  if (!rows[0]?.edges) return [];
  return rows[0].edges.split(',').map((e) => {
    const at = e.indexOf('>');
    return { blocking: e.slice(0, at), blocked: e.slice(at + 1) };
  });
}

/** Job references of job ids (for a cycle's path). */
export async function jobRefsById(db: Db, ids: readonly string[]): Promise<Map<string, JobRef>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: string; job_type: JobType; code: string }>`
    SELECT j.id, j.job_type, coalesce(j.code, w.code) AS code
    FROM project_jobs j LEFT JOIN work_orders w ON w.id = j.work_order_id
    WHERE j.id = ANY(${[...ids]}::bigint[])`.execute(db);
  return new Map(rows.map((r) => [r.id, { jobType: r.job_type, code: r.code }]));
}

export async function deleteJob(db: Db, jobId: string) {
  await sql`DELETE FROM project_jobs WHERE id = ${jobId}`.execute(db);
}

export async function setJobRank(db: Db, jobId: string, rank: string) {
  await sql`UPDATE project_jobs SET rank = ${rank}::bigint WHERE id = ${jobId}`.execute(db);
}

/**
 * Moves a job to the key `key` (a `freeKeySql` query) and touches the projects, in one
 * statement; false when the key is NULL (the neighbours touch): nothing moved, the caller
 * renumbers.
 */
export async function moveJob(
  db: Db,
  jobId: string,
  key: RawBuilder<{ key: string | null }>,
  touched: readonly string[],
): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    WITH k AS (${key}),
    touched AS (UPDATE projects SET last_update = now() WHERE id = ANY(${[...touched]}::bigint[]))
    UPDATE project_jobs j SET rank = k.key FROM k
    WHERE j.id = ${jobId}::bigint AND k.key IS NOT NULL RETURNING j.id`.execute(db);
  return rows.length > 0;
}

/**
 * Adds a work order's job at the key `key` (a `freeKeySql` query) and touches the projects,
 * in one statement; undefined when the key is NULL (nothing added: the caller renumbers).
 */
export async function insertWorkOrderJobAt(
  db: Db,
  projectId: string,
  workOrderId: string,
  key: RawBuilder<{ key: string | null }>,
  touched: readonly string[],
): Promise<string | undefined> {
  const { rows } = await sql<{ id: string }>`
    WITH k AS (${key}),
    touched AS (UPDATE projects SET last_update = now() WHERE id = ANY(${[...touched]}::bigint[]))
    INSERT INTO project_jobs (project_id, rank, job_type, work_order_id)
    SELECT ${projectId}::bigint, k.key, 'workOrder', ${workOrderId}::bigint FROM k WHERE k.key IS NOT NULL
    RETURNING id`.execute(db);
  return rows[0]?.id;
}

/**
 * The usual project link in one statement, without a transaction: the work order `code` names
 * (one live at most, as `findAndLockWorkOrder`), locked, moved last in the project
 * `projectCode` when it already sits there, the project being linkable by the caller, not
 * completed, and filed at or above the work order's office. Locks in the order of the full
 * link: the work order, the project, then the job. The project is locked FOR SHARE, and its
 * row is not touched: such moves on one project do not wait for each other (nor for each
 * other's COMMIT), only for a full link or a change of the project. The key is a fresh one
 * from the sequence of last keys (`lastKeySql`), above every key of the project whatever the
 * statement's snapshot saw. False: nothing moved (another case, a refusal, a concurrent
 * change of the work order's project, or the last keys used up): the caller takes the full
 * path.
 */
export async function moveWorkOrderLast(
  db: Db,
  scope: OfficeScope,
  projectCode: string,
  code: string,
): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    WITH found AS MATERIALIZED (${namedWorkOrdersSql(scope, { code }, sql`w.id, w.status`)}
    ), wo AS MATERIALIZED (
      SELECT w.id, o.path FROM work_orders w JOIN offices o ON o.id = w.office_id
      WHERE w.id = (SELECT f.id FROM found f WHERE f.n = 1)
        AND (SELECT count(*) FROM found f WHERE f.status <> 'VALIDATED') < 2
      FOR NO KEY UPDATE OF w
    ), project AS MATERIALIZED (
      SELECT p.id, j.id AS job_id
      FROM wo JOIN project_jobs j ON j.work_order_id = wo.id
      JOIN projects p ON p.id = j.project_id JOIN offices o ON o.id = p.office_id
      WHERE p.code = ${projectCode} AND ${linkable(scope, 'o.path')} AND starts_with(wo.path, o.path)
        AND p.status <> 'completed'
      FOR SHARE OF p
    ), k AS MATERIALIZED (SELECT project.id, project.job_id, ${lastKeySql} AS key FROM project)
    UPDATE project_jobs j SET rank = k.key FROM k
    WHERE j.id = k.job_id AND j.project_id = k.id AND k.key < ${RANK_LIMIT}
    RETURNING j.id`.execute(db);
  return rows.length > 0;
}

export async function insertWorkOrderJob(db: Db, projectId: string, workOrderId: string, rank: string) {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO project_jobs (project_id, rank, job_type, work_order_id)
    VALUES (${projectId}, ${rank}::bigint, 'workOrder', ${workOrderId}) RETURNING id`.execute(db);
  return rows[0].id;
}

export async function insertEdges(db: Db, projectId: string, edges: readonly Edge[]) {
  if (edges.length === 0) return;
  await sql`
    INSERT INTO project_dependencies (project_id, blocking_job_id, blocked_job_id)
    SELECT ${projectId}, e.blocking, e.blocked
    FROM unnest(${edges.map((e) => e.blocking)}::bigint[], ${edges.map((e) => e.blocked)}::bigint[]) AS e(blocking, blocked)
    ON CONFLICT DO NOTHING`.execute(db);
}

export async function deleteEdge(db: Db, projectId: string, edge: Edge): Promise<boolean> {
  const { numAffectedRows } = await sql`
    DELETE FROM project_dependencies
    WHERE project_id = ${projectId} AND blocking_job_id = ${edge.blocking} AND blocked_job_id = ${edge.blocked}`.execute(
    db,
  );
  return Number(numAffectedRows ?? 0) > 0;
}

export async function touch(db: Db, table: 'projects' | 'service_orders', ids: readonly string[]) {
  if (ids.length === 0) return;
  await sql`UPDATE ${sql.table(table)} SET last_update = now() WHERE id = ANY(${[...ids]}::bigint[])`.execute(
    db,
  );
}

/* ---------------- service orders ---------------- */

export async function serviceOrderCount(db: Db, serviceOrderId: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    SELECT count(*)::text AS n FROM service_order_work_orders WHERE service_order_id = ${serviceOrderId}`.execute(
    db,
  );
  return Number(rows[0].n);
}

/**
 * The entries of a service order carrying a work order of this code in the caller's tree,
 * live ones first (for `relativePosition`).
 */
export async function serviceOrderEntriesByCode(
  db: Db,
  scope: OfficeScope,
  serviceOrderId: string,
  code: string,
) {
  const { rows } = await sql<{ work_order_id: string; rank: string; status: WorkOrderStatus }>`
    SELECT e.work_order_id, e.rank, w.status
    FROM service_order_work_orders e JOIN work_orders w ON w.id = e.work_order_id
    WHERE e.service_order_id = ${serviceOrderId} AND w.code = ${code} AND ${inScope(scope, 'w.office_id')}
    ORDER BY (w.status = 'VALIDATED'), w.last_update DESC`.execute(db);
  return rows;
}

export async function removeFromServiceOrder(db: Db, workOrderId: string) {
  await sql`DELETE FROM service_order_work_orders WHERE work_order_id = ${workOrderId}`.execute(db);
}

export async function placeInServiceOrder(db: Db, serviceOrderId: string, workOrderId: string, rank: string) {
  await sql`
    INSERT INTO service_order_work_orders (service_order_id, work_order_id, rank)
    VALUES (${serviceOrderId}, ${workOrderId}, ${rank}::bigint)
    ON CONFLICT (service_order_id, work_order_id) DO UPDATE SET rank = excluded.rank`.execute(db);
}

/* ---------------- reads ---------------- */

interface JsonJob {
  jobType: JobType;
  code: string;
  uuid: string | null;
  name: string | null;
  plannedStart: string | null;
  plannedEnd: string | null;
}
interface JsonDependency {
  blockingType: DependencyJobType;
  blockingCode: string;
  blockedType: DependencyJobType;
  blockedCode: string;
}

/** A project of the caller's tree with its jobs and dependencies, in one statement. */
export async function projectInTree(db: Db, scope: OfficeScope, code: string) {
  const { rows } = await sql<{
    code: string;
    name: string;
    office_code: string;
    status: ProjectStatus;
    jobs: JsonJob[];
    dependencies: JsonDependency[];
  }>`
    SELECT p.code, p.name, o.code AS office_code, p.status,
      coalesce((
        SELECT json_agg(json_build_object(
          'jobType', j.job_type, 'code', coalesce(j.code, w.code), 'uuid', w.uuid, 'name', j.name,
          'plannedStart', CASE WHEN j.job_type = 'workOrder' THEN w.scheduled_start ELSE j.planned_start END,
          'plannedEnd', CASE WHEN j.job_type = 'workOrder'
                             THEN w.scheduled_start + make_interval(mins => t.duration_minutes)
                             ELSE j.planned_end END) ORDER BY j.rank)
        FROM project_jobs j LEFT JOIN work_orders w ON w.id = j.work_order_id
        LEFT JOIN work_order_types t ON t.code = w.type_code
        WHERE j.project_id = p.id), '[]'::json) AS jobs,
      coalesce((
        SELECT json_agg(json_build_object(
          'blockingType', bj.job_type, 'blockingCode', coalesce(bj.code, bw.code),
          'blockedType', dj.job_type, 'blockedCode', coalesce(dj.code, dw.code)) ORDER BY bj.rank, dj.rank)
        FROM project_dependencies d
        JOIN project_jobs bj ON bj.id = d.blocking_job_id LEFT JOIN work_orders bw ON bw.id = bj.work_order_id
        JOIN project_jobs dj ON dj.id = d.blocked_job_id LEFT JOIN work_orders dw ON dw.id = dj.work_order_id
        WHERE d.project_id = p.id), '[]'::json) AS dependencies
    FROM projects p JOIN offices o ON o.id = p.office_id
    WHERE p.code = ${code} AND ${inScope(scope, 'p.office_id')}`.execute(db);
  return rows[0];
}

/** A service order of this kind in the caller's tree with its work orders, in one statement. */
export async function serviceOrderInTree(db: Db, scope: OfficeScope, kind: ServiceOrderKind, code: string) {
  const { rows } = await sql<{
    code: string;
    office_code: string;
    status: ServiceOrderStatus;
    max_work_orders: number | null;
    work_orders: { code: string; uuid: string; status: WorkOrderStatus }[];
  }>`
    SELECT s.code, o.code AS office_code, s.status, s.max_work_orders,
      coalesce((
        SELECT json_agg(json_build_object('code', w.code, 'uuid', w.uuid, 'status', w.status) ORDER BY e.rank)
        FROM service_order_work_orders e JOIN work_orders w ON w.id = e.work_order_id
        WHERE e.service_order_id = s.id), '[]'::json) AS work_orders
    FROM service_orders s JOIN offices o ON o.id = s.office_id
    WHERE s.code = ${code} AND s.kind = ${kind} AND ${inScope(scope, 's.office_id')}`.execute(db);
  return rows[0];
}

/** The code column holds `q` (codes are uppercase). */
const containsCode = (column: string, q: string | undefined) =>
  q ? sql`AND ${sql.ref(column)} LIKE ${likePattern(q.toUpperCase())}` : sql``;

export async function projectsPage(
  db: Db,
  scope: OfficeScope,
  q: string | undefined,
  after: string | undefined,
  limit: number,
) {
  const { rows } = await sql<{
    code: string;
    name: string;
    office_code: string;
    status: ProjectStatus;
    job_count: string;
    work_order_count: string;
  }>`
    SELECT p.code, p.name, o.code AS office_code, p.status,
      (SELECT count(*) FROM project_jobs j WHERE j.project_id = p.id)::text AS job_count,
      (SELECT count(*) FROM project_jobs j WHERE j.project_id = p.id AND j.job_type = 'workOrder')::text
        AS work_order_count
    FROM projects p JOIN offices o ON o.id = p.office_id
    WHERE ${inScope(scope, 'p.office_id')} ${containsCode('p.code', q)}
      ${after === undefined ? sql`` : sql`AND p.code > ${after}`}
    ORDER BY p.code LIMIT ${limit}`.execute(db);
  return rows;
}

export async function serviceOrdersPage(
  db: Db,
  scope: OfficeScope,
  kind: ServiceOrderKind,
  q: string | undefined,
  after: string | undefined,
  limit: number,
) {
  const { rows } = await sql<{
    code: string;
    office_code: string;
    status: ServiceOrderStatus;
    max_work_orders: number | null;
    work_order_count: string;
  }>`
    SELECT s.code, o.code AS office_code, s.status, s.max_work_orders,
      (SELECT count(*) FROM service_order_work_orders e WHERE e.service_order_id = s.id)::text AS work_order_count
    FROM service_orders s JOIN offices o ON o.id = s.office_id
    WHERE s.kind = ${kind} AND ${inScope(scope, 's.office_id')} ${containsCode('s.code', q)}
      ${after === undefined ? sql`` : sql`AND s.code > ${after}`}
    ORDER BY s.code LIMIT ${limit}`.execute(db);
  return rows;
}

/** Work orders of the caller's tree with the containers holding them (visible ones only). */
export async function workOrdersPage(
  db: Db,
  scope: OfficeScope,
  q: string | undefined,
  after: [string, string] | undefined,
  limit: number,
) {
  const { rows } = await sql<{
    code: string;
    uuid: string;
    status: WorkOrderStatus;
    office_code: string;
    scheduled_start: Date | null;
    duration_minutes: number;
    project_code: string | null;
    service_order_code: string | null;
    service_order_kind: LinkableServiceOrderKind | null;
  }>`
    SELECT w.code, w.uuid::text AS uuid, w.status, o.code AS office_code, w.scheduled_start, t.duration_minutes,
      CASE WHEN ${linkable(scope, 'po.path')} THEN p.code END AS project_code,
      CASE WHEN ${linkable(scope, 'so.path')} THEN s.code END AS service_order_code,
      CASE WHEN ${linkable(scope, 'so.path')} THEN s.kind END AS service_order_kind
    FROM work_orders w JOIN offices o ON o.id = w.office_id
    JOIN work_order_types t ON t.code = w.type_code
    LEFT JOIN project_jobs j ON j.work_order_id = w.id
    LEFT JOIN projects p ON p.id = j.project_id LEFT JOIN offices po ON po.id = p.office_id
    LEFT JOIN service_order_work_orders e ON e.work_order_id = w.id
    LEFT JOIN service_orders s ON s.id = e.service_order_id LEFT JOIN offices so ON so.id = s.office_id
    WHERE ${inScope(scope, 'w.office_id')} ${containsCode('w.code', q)}
      ${after === undefined ? sql`` : sql`AND (w.code, w.uuid) > (${after[0]}, ${after[1]}::uuid)`}
    ORDER BY w.code, w.uuid LIMIT ${limit}`.execute(db);
  return rows;
}

/* ---------------- import: whole lists ---------------- */

export interface StoredJob {
  id: string;
  rank: string;
  job_type: JobType;
  code: string | null;
  work_order_id: string | null;
  name: string | null;
  planned_start: Date | null;
  planned_end: Date | null;
}
export type DesiredJob = Omit<StoredJob, 'id'>;

export async function projectForUpdate(db: Db, code: string) {
  const { rows } = await sql<{ id: string; status: ProjectStatus; office_id: string }>`
    SELECT id, status, office_id FROM projects WHERE code = ${code} FOR NO KEY UPDATE`.execute(db);
  return rows[0];
}

export async function officePath(db: Db, officeId: string): Promise<string> {
  const { rows } = await sql<{ path: string }>`SELECT path FROM offices WHERE id = ${officeId}`.execute(db);
  return rows[0].path;
}

export async function storedJobs(db: Db, projectId: string): Promise<StoredJob[]> {
  const { rows } = await sql<StoredJob>`
    SELECT id, rank, job_type, code, work_order_id, name, planned_start, planned_end
    FROM project_jobs WHERE project_id = ${projectId} ORDER BY rank`.execute(db);
  return rows;
}

/** Jobs whose order key or fields change, in one statement (keys checked at its end). */
export async function updateJobs(db: Db, jobs: readonly (DesiredJob & { id: string })[]) {
  if (jobs.length === 0) return;
  await sql`
    UPDATE project_jobs j SET rank = v.rank, name = v.name, planned_start = v.planned_start, planned_end = v.planned_end
    FROM unnest(${jobs.map((j) => j.id)}::bigint[], ${jobs.map((j) => j.rank)}::bigint[],
                ${jobs.map((j) => j.name)}::text[], ${jobs.map((j) => j.planned_start)}::timestamptz[],
                ${jobs.map((j) => j.planned_end)}::timestamptz[])
         AS v(id, rank, name, planned_start, planned_end)
    WHERE j.id = v.id`.execute(db);
}

export async function insertJobs(db: Db, projectId: string, jobs: readonly DesiredJob[]) {
  if (jobs.length === 0) return;
  await sql`
    INSERT INTO project_jobs (project_id, rank, job_type, code, work_order_id, name, planned_start, planned_end)
    SELECT ${projectId}, v.rank, v.job_type, v.code, v.work_order_id, v.name, v.planned_start, v.planned_end
    FROM unnest(${jobs.map((j) => j.rank)}::bigint[], ${jobs.map((j) => j.job_type)}::text[],
                ${jobs.map((j) => j.code)}::text[], ${jobs.map((j) => j.work_order_id)}::bigint[],
                ${jobs.map((j) => j.name)}::text[], ${jobs.map((j) => j.planned_start)}::timestamptz[],
                ${jobs.map((j) => j.planned_end)}::timestamptz[])
         AS v(rank, job_type, code, work_order_id, name, planned_start, planned_end)`.execute(db);
}

export async function deleteJobs(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return;
  await sql`DELETE FROM project_jobs WHERE id = ANY(${[...ids]}::bigint[])`.execute(db);
}

export async function deleteEdges(db: Db, projectId: string, edges: readonly Edge[]) {
  if (edges.length === 0) return;
  await sql`
    DELETE FROM project_dependencies d
    USING unnest(${edges.map((e) => e.blocking)}::bigint[], ${edges.map((e) => e.blocked)}::bigint[]) AS e(blocking, blocked)
    WHERE d.project_id = ${projectId} AND d.blocking_job_id = e.blocking AND d.blocked_job_id = e.blocked`.execute(
    db,
  );
}

export async function serviceOrderForUpdate(db: Db, code: string) {
  const { rows } = await sql<{
    id: string;
    kind: ServiceOrderKind;
    status: ServiceOrderStatus | null;
    office_id: string;
  }>`SELECT id, kind, status, office_id FROM service_orders WHERE code = ${code} FOR NO KEY UPDATE`.execute(
    db,
  );
  return rows[0];
}

export async function serviceOrderEntries(db: Db, serviceOrderId: string) {
  const { rows } = await sql<{ work_order_id: string; rank: string }>`
    SELECT work_order_id, rank FROM service_order_work_orders
    WHERE service_order_id = ${serviceOrderId} ORDER BY rank`.execute(db);
  return rows;
}

/** Replaces the entries of a service order whose membership or order key changes. */
export async function writeServiceOrderEntries(
  db: Db,
  serviceOrderId: string,
  remove: readonly string[],
  upsert: readonly { work_order_id: string; rank: string }[],
) {
  if (remove.length > 0)
    await sql`
      DELETE FROM service_order_work_orders
      WHERE service_order_id = ${serviceOrderId} AND work_order_id = ANY(${[...remove]}::bigint[])`.execute(
      db,
    );
  if (upsert.length === 0) return;
  await sql`
    INSERT INTO service_order_work_orders (service_order_id, work_order_id, rank)
    SELECT ${serviceOrderId}, v.work_order_id, v.rank
    FROM unnest(${upsert.map((e) => e.work_order_id)}::bigint[], ${upsert.map((e) => e.rank)}::bigint[])
         AS v(work_order_id, rank)
    ON CONFLICT (service_order_id, work_order_id) DO UPDATE SET rank = excluded.rank`.execute(db);
}

/* ---------------- order keys (ranking.ts) ---------------- */

/**
 * A fresh key for a project's job placed after every other (051_project_last_keys.sql):
 * above every key renumbered or imported (below 2^40), and above every key drawn before.
 */
export const lastKeySql = sql<string>`(${2 ** 40}::bigint + nextval('project_job_last_keys') * 4096)`;

/** The two tables that hold ordered entries, by container. */
export interface OrderedTable {
  table: 'project_jobs' | 'service_order_work_orders';
  container: 'project_id' | 'service_order_id';
  /** A column naming one entry (for the renumbering). */
  key: 'id' | 'work_order_id';
  /** The key of an entry placed after every other, when not the highest key plus a step. */
  lastKey?: typeof lastKeySql;
}
export const PROJECT_ORDER: OrderedTable = {
  table: 'project_jobs',
  container: 'project_id',
  key: 'id',
  lastKey: lastKeySql,
};
export const SERVICE_ORDER_ORDER: OrderedTable = {
  table: 'service_order_work_orders',
  container: 'service_order_id',
  key: 'work_order_id',
};

/** The order keys around a placement, among the container's entries other than the work order placed. */
export async function neighbourRanks(
  db: Db,
  t: OrderedTable,
  containerId: string,
  workOrderId: string,
  placement: Placement,
): Promise<[number | undefined, number | undefined]> {
  const others = sql`${sql.ref(t.container)} = ${containerId} AND work_order_id IS DISTINCT FROM ${workOrderId}::bigint`;
  const table = sql.table(t.table);
  const one = async (query: ReturnType<typeof sql<{ rank: string | null }>>) => {
    const { rows } = await query.execute(db);
    return rows[0]?.rank == null ? undefined : Number(rows[0].rank);
  };
  switch (placement.mode) {
    case 'first':
      return [undefined, await one(sql`SELECT min(rank)::text AS rank FROM ${table} WHERE ${others}`)];
    case 'last':
      return [await one(sql`SELECT max(rank)::text AS rank FROM ${table} WHERE ${others}`), undefined];
    case 'index': {
      if (placement.position === 0) return neighbourRanks(db, t, containerId, workOrderId, { mode: 'first' });
      // Past any container's size (and beyond what OFFSET takes): last.
      if (placement.position > MAX_ENTRIES)
        return neighbourRanks(db, t, containerId, workOrderId, { mode: 'last' });
      // Positions are what the caller means: a place among the entries, hence OFFSET here.
      const { rows } = await sql<{ rank: string }>`
        SELECT rank FROM ${table} WHERE ${others}
        ORDER BY rank OFFSET ${placement.position - 1} LIMIT 2`.execute(db);
      if (rows.length === 0) return neighbourRanks(db, t, containerId, workOrderId, { mode: 'last' });
      return [Number(rows[0].rank), rows[1] ? Number(rows[1].rank) : undefined];
    }
    case 'before':
      return [
        await one(
          sql`SELECT max(rank)::text AS rank FROM ${table} WHERE ${others} AND rank < ${placement.rank}::bigint`,
        ),
        Number(placement.rank),
      ];
    case 'after':
      return [
        Number(placement.rank),
        await one(
          sql`SELECT min(rank)::text AS rank FROM ${table} WHERE ${others} AND rank > ${placement.rank}::bigint`,
        ),
      ];
  }
}

/**
 * The same free key as `keyBetween` over the same neighbours as `neighbours`, computed in
 * the database: a one-row query of `key`, NULL when the neighbours touch (the caller then
 * falls back to `rankFor`, which renumbers). A write statement takes it as a subquery, so
 * a placement reads its neighbours and writes in one round trip while the container's lock
 * is held, instead of two.
 */
export function freeKeySql(t: OrderedTable, containerId: string, workOrderId: string, placement: Placement) {
  const others = sql`${sql.ref(t.container)} = ${containerId}::bigint AND work_order_id IS DISTINCT FROM ${workOrderId}::bigint`;
  const table = sql.table(t.table);
  const max = sql`(SELECT max(rank) FROM ${table} WHERE ${others})`;
  const min = sql`(SELECT min(rank) FROM ${table} WHERE ${others})`;
  let p = placement;
  if (p.mode === 'index' && p.position === 0) p = { mode: 'first' };
  if (p.mode === 'index' && p.position > MAX_ENTRIES) p = { mode: 'last' };
  let neighbours: ReturnType<typeof sql>;
  switch (p.mode) {
    case 'first':
      neighbours = sql`SELECT NULL::bigint AS prev, ${min} AS next`;
      break;
    case 'last':
      neighbours = sql`SELECT ${max} AS prev, NULL::bigint AS next`;
      break;
    case 'index': {
      // The entry at position - 1 and the one after it; none there: last.
      const at = (offset: number) =>
        sql`(SELECT rank FROM ${table} WHERE ${others} ORDER BY rank OFFSET ${offset} LIMIT 1)`;
      neighbours = sql`SELECT coalesce(a.prev, ${max}) AS prev, CASE WHEN a.prev IS NULL THEN NULL ELSE a.next END AS next
        FROM (SELECT ${at(p.position - 1)} AS prev, ${at(p.position)} AS next) a`;
      break;
    }
    case 'before':
      neighbours = sql`SELECT (SELECT max(rank) FROM ${table} WHERE ${others} AND rank < ${p.rank}::bigint) AS prev,
        ${p.rank}::bigint AS next`;
      break;
    case 'after':
      neighbours = sql`SELECT ${p.rank}::bigint AS prev,
        (SELECT min(rank) FROM ${table} WHERE ${others} AND rank > ${p.rank}::bigint) AS next`;
      break;
  }
  return sql<{ key: string | null }>`SELECT CASE WHEN abs(k.key) < ${RANK_LIMIT}::bigint THEN k.key END AS key
    FROM (SELECT CASE
      WHEN n.prev IS NULL AND n.next IS NULL THEN 0::bigint
      WHEN n.prev IS NULL THEN n.next - ${RANK_STEP}
      WHEN n.next IS NULL THEN ${t.lastKey ?? sql`n.prev + ${RANK_STEP}`}
      WHEN n.next - n.prev >= 2 THEN n.prev + (n.next - n.prev) / 2
    END AS key FROM (${neighbours}) n) k`;
}

/** Renumbers a container's keys 65,536 apart, in their order; returns the old-to-new key map. */
export async function renumber(db: Db, t: OrderedTable, containerId: string): Promise<Map<string, string>> {
  const { rows } = await sql<{ old: string; new: string }>`
    WITH numbered AS (
      SELECT ${sql.ref(t.key)} AS k, rank AS old, row_number() OVER (ORDER BY rank) * ${RANK_STEP} AS new
      FROM ${sql.table(t.table)} WHERE ${sql.ref(t.container)} = ${containerId}
    )
    UPDATE ${sql.table(t.table)} AS e SET rank = n.new FROM numbered n
    WHERE e.${sql.ref(t.key)} = n.k AND e.${sql.ref(t.container)} = ${containerId}
    RETURNING n.old::text AS old, n.new::text AS new`.execute(db);
  return new Map(rows.map((r) => [r.old, r.new]));
}
