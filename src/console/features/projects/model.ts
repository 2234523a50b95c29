/**
 * The linker's pure logic, without React: jobs grouped under their phases, a drop turned
 * into the link call that reproduces it, a dependency drawn on the graph turned into the
 * link call that declares it, a refused cycle's path turned into what the graph
 * highlights, the rules a service order states before the user tries, and the input of
 * the graph's layered layout (elkjs). Unit-tested in model.test.ts.
 */
import type {
  DependencyJobType,
  JobRef,
  JobType,
  LinkableWorkOrder,
  Overlap,
  ProjectJob,
  ServiceOrder,
  ServiceOrderStatus,
} from '../../../contract/projectManagement.ts';
import type { ServiceOrderKind } from './paths.ts';

/* ---------------- jobs ---------------- */

/** How the messages, dependencies and graph name a job: `task:3`, `workOrder:WO-7`, `phase:PH-A`. */
export const refText = (j: JobRef): string => `${j.jobType}:${j.code}`;

/**
 * A job's identity in the list (React keys, drag ids): work orders by uuid (a validated
 * and a live work order may share a code), the others by type and code.
 */
export const jobKey = (j: ProjectJob): string =>
  j.jobType === 'workOrder' && j.uuid ? `workOrder#${j.uuid}` : refText(j);

/** Phases take no part in dependencies. */
export const isDependencyJob = (j: { jobType: JobType }): j is { jobType: DependencyJobType } =>
  j.jobType !== 'phase';

/** A run of jobs under a phase; the first group may have no phase (jobs before the first phase). */
export interface PhaseGroup<J> {
  phase: J | null;
  /** The jobs that follow the phase, up to the next phase, in project order. */
  jobs: { job: J; index: number }[];
}

/** The jobs in project order, grouped under their phases (`index` is the job's place in the project). */
export function groupJobs<J extends { jobType: JobType }>(jobs: readonly J[]): PhaseGroup<J>[] {
  const groups: PhaseGroup<J>[] = [];
  jobs.forEach((job, index) => {
    if (job.jobType === 'phase') groups.push({ phase: job, jobs: [] });
    else {
      if (groups.length === 0) groups.push({ phase: null, jobs: [] });
      groups[groups.length - 1].jobs.push({ job, index });
    }
  });
  return groups;
}

/** The code of the phase the job at `index` sits under, or null. */
export function phaseAt(jobs: readonly { jobType: JobType; code: string }[], index: number): string | null {
  for (let i = index; i >= 0; i--) if (jobs[i].jobType === 'phase') return i === index ? null : jobs[i].code;
  return null;
}

/** `list` with the element at `from` moved to `to` (the place it has in the result). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const out = list.slice();
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}

/* ---------------- drop -> link call ---------------- */

export type ProjectInsertion =
  | { insertionMode: 'first' | 'last' }
  | { insertionMode: 'index'; position: number }
  | { insertionMode: 'before' | 'after'; relativePosition: string; jobType: JobType };

/** A job named twice in the project (e.g. a validated and a live work order of one code) cannot be a reference. */
function nameable(jobs: readonly JobRef[], job: JobRef): boolean {
  return jobs.filter((j) => j.jobType === job.jobType && j.code === job.code).length === 1;
}

/**
 * The project link's insertion that puts the work order dragged from `from` at `to` (its
 * place in the resulting order): `after` the job it now follows (a phase: first of that
 * phase; a task or work order: right after it), `before` the job it now precedes when it
 * becomes first, `index` when that neighbour cannot be named unambiguously. Null when
 * nothing moves. Naming the neighbour keeps the user's intent if the list changed meanwhile.
 */
export function projectDropInsertion(
  jobs: readonly JobRef[],
  from: number,
  to: number,
): ProjectInsertion | null {
  if (from === to || from < 0 || to < 0 || from >= jobs.length || to >= jobs.length) return null;
  const after = moveItem(jobs, from, to);
  const neighbour = to > 0 ? after[to - 1] : after[1];
  if (!neighbour || !nameable(jobs, neighbour)) return { insertionMode: 'index', position: to };
  return {
    insertionMode: to > 0 ? 'after' : 'before',
    relativePosition: neighbour.code,
    jobType: neighbour.jobType,
  };
}

export type ServiceOrderInsertion =
  | { insertionMode: 'first' | 'last' }
  | { insertionMode: 'index'; position: number }
  | { insertionMode: 'after'; relativePosition: string };

/**
 * The service order link's insertion for a drop (standard and route alike: `first`,
 * `after` the work order it now follows, `index` when that code is carried twice).
 */
export function serviceOrderDropInsertion(
  codes: readonly string[],
  from: number,
  to: number,
): ServiceOrderInsertion | null {
  if (from === to || from < 0 || to < 0 || from >= codes.length || to >= codes.length) return null;
  if (to === 0) return { insertionMode: 'first' };
  const previous = moveItem(codes, from, to)[to - 1];
  if (codes.filter((c) => c === previous).length > 1) return { insertionMode: 'index', position: to };
  return { insertionMode: 'after', relativePosition: previous };
}

/**
 * Where "Add" puts a work order in a project: first, last, or at the end of a phase
 * (`before` the next phase, `last` when the phase is the last one).
 */
export type ProjectPlace = { at: 'first' } | { at: 'last' } | { at: 'endOfPhase'; phase: string };
export function projectPlaceInsertion(jobs: readonly JobRef[], place: ProjectPlace): ProjectInsertion {
  if (place.at !== 'endOfPhase') return { insertionMode: place.at };
  const start = jobs.findIndex((j) => j.jobType === 'phase' && j.code === place.phase);
  const next = start < 0 ? undefined : jobs.slice(start + 1).find((j) => j.jobType === 'phase');
  return next
    ? { insertionMode: 'before', relativePosition: next.code, jobType: 'phase' }
    : { insertionMode: 'last' };
}

/* ---------------- dependencies ---------------- */

export interface DependencyRef {
  blocking: JobRef;
  blocked: JobRef;
}

/** The id of a dependency's edge on the graph. */
export const edgeId = (blocking: JobRef, blocked: JobRef): string =>
  `${refText(blocking)}->${refText(blocked)}`;

/** Why a dependency cannot be declared from the console, or the link call that declares it. */
export type DependencyCall =
  | {
      ok: true;
      /** The work order sent: the blocking one when it is a work order, else the blocked one. */
      code: string;
      insertion: {
        insertionMode: 'index';
        position: number;
        block?: { jobType: DependencyJobType; code: string }[];
        isBlockedBy?: { jobType: DependencyJobType; code: string }[];
      };
    }
  | { ok: false; reason: 'self' | 'phase' | 'tasksOnly' | 'exists' | 'notInProject' };

const sameJob = (a: JobRef, b: JobRef) => a.jobType === b.jobType && a.code === b.code;

/**
 * The link call declaring "`blocking` blocks `blocked`" (`blocked` cannot start before
 * `blocking` ends). The spec's link declares the dependencies of the work order it links, so
 * one of the two jobs must be a work order: it is sent again at its own place (`index` of
 * its position: a move counts the place among the other jobs), with the other job in `block`
 * or `isBlockedBy`. Two tasks cannot be joined through the link call.
 */
export function dependencyCall(
  jobs: readonly JobRef[],
  dependencies: readonly DependencyRef[],
  blocking: JobRef,
  blocked: JobRef,
): DependencyCall {
  if (sameJob(blocking, blocked)) return { ok: false, reason: 'self' };
  if (blocking.jobType === 'phase' || blocked.jobType === 'phase') return { ok: false, reason: 'phase' };
  if (dependencies.some((d) => sameJob(d.blocking, blocking) && sameJob(d.blocked, blocked)))
    return { ok: false, reason: 'exists' };
  const indexOf = (j: JobRef) => jobs.findIndex((x) => sameJob(x, j));
  if (indexOf(blocking) < 0 || indexOf(blocked) < 0) return { ok: false, reason: 'notInProject' };
  const other = (j: JobRef) => ({ jobType: j.jobType as DependencyJobType, code: j.code });
  if (blocking.jobType === 'workOrder')
    return {
      ok: true,
      code: blocking.code,
      insertion: { insertionMode: 'index', position: indexOf(blocking), block: [other(blocked)] },
    };
  if (blocked.jobType === 'workOrder')
    return {
      ok: true,
      code: blocked.code,
      insertion: { insertionMode: 'index', position: indexOf(blocked), isBlockedBy: [other(blocking)] },
    };
  return { ok: false, reason: 'tasksOnly' };
}

/** What the graph highlights for a refused cycle: its jobs and its edges (the refused one included). */
export interface CycleHighlight {
  nodes: Set<string>;
  edges: { id: string; blocking: JobRef; blocked: JobRef }[];
}

/**
 * The cycle path of a refusal (`parseCyclePath`: first job repeated last, each job
 * blocking the next) as graph elements: every job on it, and each consecutive pair as an
 * edge from the blocking job to the blocked one.
 */
export function cycleHighlight(path: readonly JobRef[] | undefined): CycleHighlight {
  const nodes = new Set<string>();
  const edges: CycleHighlight['edges'] = [];
  if (!path || path.length < 2) return { nodes, edges };
  for (const j of path) nodes.add(refText(j));
  for (let i = 0; i + 1 < path.length; i++)
    edges.push({ id: edgeId(path[i], path[i + 1]), blocking: path[i], blocked: path[i + 1] });
  return { nodes, edges };
}

/** The jobs an overlap refusal names, with the dates that collide. */
export function overlapJobs(overlaps: readonly Overlap[]): Map<string, { start?: string; end?: string }> {
  const out = new Map<string, { start?: string; end?: string }>();
  for (const o of overlaps) {
    const a = refText(o.blocking);
    const b = refText(o.blocked);
    out.set(a, { ...out.get(a), end: o.blocking.plannedEnd });
    out.set(b, { ...out.get(b), start: o.blocked.plannedStart });
  }
  return out;
}

/* ---------------- service orders ---------------- */

const CLOSED: readonly ServiceOrderStatus[] = ['completed', 'validated'];
const WORK_ORDER_DONE = ['COMPLETED', 'VALIDATED', 'CANCELLED'];

/** A work order status that is "completed or higher" (spec: a route will not let it go). */
export const isWorkOrderDone = (status: string) => WORK_ORDER_DONE.includes(status.toUpperCase());

/** What the service order accepts, stated before the user tries (spec 20 and 21, docs/api/projectManagement.md). */
export interface ServiceOrderRules {
  count: number;
  max: number;
  /** Completed or validated: takes no work order and lets none go; its order is frozen. */
  closed: boolean;
  /** Carries its maximum: no work order can join (moves inside are never refused as full). */
  full: boolean;
  /** Work orders can be dragged (the service order is not closed). */
  canReorder: boolean;
  /** A work order can be added (not closed, not full). */
  canAdd: boolean;
}
export function serviceOrderRules(
  so: Pick<ServiceOrder, 'status' | 'maxWorkOrders' | 'workOrders'>,
): ServiceOrderRules {
  const count = so.workOrders.length;
  const closed = CLOSED.includes(so.status);
  const full = count >= so.maxWorkOrders;
  return {
    count,
    max: so.maxWorkOrders,
    closed,
    full,
    canReorder: !closed,
    canAdd: !closed && !full,
  };
}

/**
 * Why a work order found by the search cannot join this service order, told before the
 * user tries: it is already here, or it is completed or higher and held by a route service
 * order (which will not let it go). Null when the service decides.
 */
export function serviceOrderCandidateBlock(
  wo: Pick<LinkableWorkOrder, 'status' | 'serviceOrderCode' | 'serviceOrderKind'>,
  here: { kind: ServiceOrderKind; code: string },
): 'alreadyHere' | 'doneOnRoute' | null {
  if (wo.serviceOrderCode === here.code && wo.serviceOrderKind === here.kind) return 'alreadyHere';
  if (wo.serviceOrderKind === 'route' && isWorkOrderDone(wo.status)) return 'doneOnRoute';
  return null;
}

/* ---------------- graph layout (elkjs) ---------------- */

export const NODE_WIDTH = 176;
/** Above this many nodes the layout takes its faster options. */
export const LARGE_GRAPH = 200;
/** Three lines at the graph's line height (graph.css), none cut. */
export const NODE_HEIGHT = 64;

export interface LayoutGraph {
  id: string;
  layoutOptions: Record<string, string>;
  children: { id: string; width: number; height: number }[];
  edges: { id: string; sources: string[]; targets: string[] }[];
}

/**
 * The input of the layered layout: one node per task and work order (phases take no part in
 * dependencies), in project order, and one edge per dependency from the blocking job to the
 * blocked one; in the reading direction (left to right, right to left in a right-to-left
 * language), the model order kept where the dependencies allow, so jobs without
 * dependencies stay in project order. `onlyLinked`: the jobs without dependency are
 * left out (large projects).
 */
export function layoutInput(
  jobs: readonly JobRef[],
  dependencies: readonly DependencyRef[],
  opts: { onlyLinked?: boolean; direction?: 'ltr' | 'rtl' } = {},
): LayoutGraph {
  const linked = new Set(dependencies.flatMap((d) => [refText(d.blocking), refText(d.blocked)]));
  const ids = new Set<string>();
  const children: LayoutGraph['children'] = [];
  for (const j of jobs) {
    const id = refText(j);
    if (!isDependencyJob(j) || ids.has(id) || (opts.onlyLinked && !linked.has(id))) continue;
    ids.add(id);
    children.push({ id, width: NODE_WIDTH, height: NODE_HEIGHT });
  }
  const edges = dependencies
    .map((d) => ({ id: edgeId(d.blocking, d.blocked), a: refText(d.blocking), b: refText(d.blocked) }))
    .filter((e) => ids.has(e.a) && ids.has(e.b))
    .map((e) => ({ id: e.id, sources: [e.a], targets: [e.b] }));
  // Large graphs trade the model order and curved arrows for time: about 4 s instead of 17 s
  // for 1,400 jobs and 1,000 dependencies.
  const large = children.length > LARGE_GRAPH;
  return {
    id: 'project',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': opts.direction === 'rtl' ? 'LEFT' : 'RIGHT',
      'elk.edgeRouting': large ? 'POLYLINE' : 'SPLINES',
      'elk.spacing.nodeNode': '18',
      'elk.layered.spacing.nodeNodeBetweenLayers': '56',
      'elk.layered.considerModelOrder.strategy': large ? 'NONE' : 'NODES_AND_EDGES',
      'elk.separateConnectedComponents': 'false',
    },
    children,
    edges,
  };
}

/** Node positions out of a layout result (`x`, `y` of each child). */
export function positionsOf(result: {
  children?: { id: string; x?: number; y?: number }[];
}): Map<string, { x: number; y: number }> {
  return new Map((result.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }]));
}

/**
 * The smallest text on a node is 12 px (Mantine's xs): at this zoom it reads at 11 px on
 * the screen (11.04: 11/12 rounded up, so that no rounding takes it under), the least a
 * planner can read without leaning in.
 */
export const READABLE_ZOOM = 0.92;
/** No larger than this when a small graph fits (its nodes would look swollen). */
const FIT_MAX_ZOOM = 1.1;
const VIEW_PADDING = 16;

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/**
 * Where the graph opens in a pane of `width` x `height`: the whole graph centered when it
 * fits at a readable zoom; else at the readable zoom, from where reading starts (the top
 * left corner, top right in a right-to-left language), the rest reached by scrolling or
 * the minimap. `fits` says which.
 */
export function openingViewport(
  positions: ReadonlyMap<string, { x: number; y: number }>,
  pane: { width: number; height: number },
  direction: 'ltr' | 'rtl' = 'ltr',
): Viewport & { fits: boolean } {
  const all = [...positions.values()];
  if (all.length === 0) return { x: 0, y: 0, zoom: 1, fits: true };
  const minX = Math.min(...all.map((p) => p.x));
  const minY = Math.min(...all.map((p) => p.y));
  const maxX = Math.max(...all.map((p) => p.x)) + NODE_WIDTH;
  const maxY = Math.max(...all.map((p) => p.y)) + NODE_HEIGHT;
  const inner = { width: pane.width - 2 * VIEW_PADDING, height: pane.height - 2 * VIEW_PADDING };
  const fit = Math.min(inner.width / (maxX - minX), inner.height / (maxY - minY), FIT_MAX_ZOOM);
  if (fit >= READABLE_ZOOM)
    return {
      x: (pane.width - (maxX - minX) * fit) / 2 - minX * fit,
      y: (pane.height - (maxY - minY) * fit) / 2 - minY * fit,
      zoom: fit,
      fits: true,
    };
  const zoom = READABLE_ZOOM;
  return {
    x: direction === 'rtl' ? pane.width - VIEW_PADDING - maxX * zoom : VIEW_PADDING - minX * zoom,
    y: VIEW_PADDING - minY * zoom,
    zoom,
    fits: false,
  };
}

/* ---------------- dates ---------------- */

/** A planned date-time (RFC 3339, UTC) as the linker shows it: `Jan 14, 2030, 09:00 UTC` (en). */
export function formatPlanned(iso: string | null | undefined, lang: string): string | null {
  const d = parseDate(iso);
  if (!d) return iso ?? null;
  const text = new Intl.DateTimeFormat(lang, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'UTC',
  }).format(d);
  return `${text} UTC`;
}

const parseDate = (v: string | null | undefined) => {
  const d = v ? new Date(v) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
};
const dayFormat = (lang: string) =>
  new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', timeZone: 'UTC' });
const timeFormat = (lang: string) =>
  new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });

/** A date-time in short (`Jan 14 09:00`), in UTC; null when absent. */
export function formatPlannedShort(iso: string | null | undefined, lang: string): string | null {
  const d = parseDate(iso);
  return d ? `${dayFormat(lang).format(d)} ${timeFormat(lang).format(d)}` : null;
}

/**
 * A job's planned dates in short (`Jan 6 08:00 → Jan 7 17:00`; the end's day left out when
 * it is the start's day), or null when neither is known. Times in UTC.
 */
export function formatPlannedRange(
  start: string | null | undefined,
  end: string | null | undefined,
  lang: string,
): string | null {
  const s = parseDate(start);
  const e = parseDate(end);
  if (!s && !e) return null;
  const full = (d: Date) => `${dayFormat(lang).format(d)} ${timeFormat(lang).format(d)}`;
  if (s && e)
    return `${full(s)} → ${s.toISOString().slice(0, 10) === e.toISOString().slice(0, 10) ? timeFormat(lang).format(e) : full(e)}`;
  return s ? `${full(s)} →` : `→ ${full(e as Date)}`;
}
