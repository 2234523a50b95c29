/**
 * Project management (spec endpoints 19, 20 and 21; issue 11): link a work order into a
 * project, a standard service order or a route service order at a chosen position, and the
 * reads the console needs (a project's jobs and dependencies, a service order's work orders,
 * the lists, where a work order sits).
 *
 * The three link bodies answer business codes, and a refusal lists every error found in the
 * order of the spec's table, body and rules together. So each body is read here into a typed
 * request holding its problems (`linkBody`, `readProjectLink`, `readServiceOrderLink`), and
 * the service adds those of the rules; the OpenAPI document shows the exact shape.
 */
import { z } from 'zod';
import { historyEndpoint } from './changes.ts';
import { foldCode, Page } from './common.ts';
import { endpoint } from './endpoint.ts';
import { derivedCode } from './errors.ts';
import { WorkOrderStatus } from './fieldService.ts';

const BASE = '/eTech/rest/ws/projectManagement/v1';
export const PROJECT_MANAGEMENT = 'projectmanagement';
const PM = PROJECT_MANAGEMENT;

/** Spec: Other limits, projectCode 50 characters. */
export const PROJECT_CODE_MAX = 50;
export const SERVICE_ORDER_CODE_MAX = 200;
/** Default of `FIELDWORK_SERVICE_ORDER_MAX`: the work orders a service order may carry. */
export const SERVICE_ORDER_MAX_DEFAULT = 100;
export const PROJECT_MANAGEMENT_PAGE_SIZE = 100;

export const PROJECT_STATUSES = ['inProgress', 'completed'] as const;
export const ProjectStatus = z.enum(PROJECT_STATUSES).meta({ id: 'ProjectStatus' });
export type ProjectStatus = z.infer<typeof ProjectStatus>;
/** `completed` and `validated` are "completed or higher" (spec: States). */
export const SERVICE_ORDER_STATUSES = ['open', 'inProgress', 'completed', 'validated'] as const;
export const ServiceOrderStatus = z.enum(SERVICE_ORDER_STATUSES).meta({ id: 'ServiceOrderStatus' });
export type ServiceOrderStatus = z.infer<typeof ServiceOrderStatus>;
export const isServiceOrderClosed = (s: ServiceOrderStatus) => s === 'completed' || s === 'validated';

export const JOB_TYPES = ['phase', 'task', 'workOrder'] as const;
export type JobType = (typeof JOB_TYPES)[number];
/** Phases take no part in dependencies. */
export type DependencyJobType = Exclude<JobType, 'phase'>;

/**
 * Every code of the domain. Each is produced by one rule (docs/api/projectManagement.md). The
 * keys of a link's table below are in the spec's order: a refusal lists its errors in it.
 */
export const ProjectManagementCodes = {
  projectUnknown: `${PM}.project.code.unknown`,
  projectCodeMandatory: `${PM}.project.code.mandatory`,
  jobCodeUnknown: `${PM}.project.job.code.unknown`,
  jobCodeMandatory: `${PM}.project.job.code.mandatory`,
  jobTypeMandatory: `${PM}.project.job.type.mandatory`,
  jobTypeUnknown: `${PM}.project.job.type.unknown`,
  workOrderAmbiguous: `${PM}.workorder.code.ambiguous`,
  relativePositionUnknown: `${PM}.insertion.relativePosition.unknown`,
  relativePositionMandatory: `${PM}.insertion.relativePosition.mandatory`,
  insertionModeUnknown: `${PM}.insertion.insertionMode.unknown`,
  positionMandatory: `${PM}.insertion.position.mandatory`,
  positionInvalid: `${PM}.insertion.position.invalid`,
  insertionJobTypeUnknown: `${PM}.insertion.jobType.unknown`,
  blockCodeUnknown: `${PM}.project.block.code.unknown`,
  isBlockedByCodeUnknown: `${PM}.project.isBlockedBy.code.unknown`,
  blockCodeMandatory: `${PM}.project.block.code.mandatory`,
  isBlockedByCodeMandatory: `${PM}.project.isBlockedBy.code.mandatory`,
  blockJobTypeMandatory: `${PM}.project.block.jobType.mandatory`,
  isBlockedByJobTypeMandatory: `${PM}.project.isBlockedBy.jobType.mandatory`,
  blockJobTypeUnknown: `${PM}.project.block.jobType.unknown`,
  isBlockedByJobTypeUnknown: `${PM}.project.isBlockedBy.jobType.unknown`,
  invalidJson: derivedCode.invalidJson(PM),
  fieldUnknown: derivedCode.fieldUnknown(PM),
  projectOfficeConflict: `${PM}.project.office.conflict`,
  projectStatusConflict: `${PM}.project.status.conflict`,
  currentProjectStatusConflict: `${PM}.workorder.currentproject.status.conflict`,
  blockOfficeConflict: `${PM}.project.block.office.conflict`,
  dependencyCycle: `${PM}.project.block.dependency.cycle`,
  dependencyOverlap: `${PM}.project.block.dependency.overlap`,
  ruleViolated: `${PM}.rule.violated`,

  standardUnknown: `${PM}.standardserviceorder.code.unknown`,
  serviceOrderCodeMandatory: `${PM}.serviceorder.code.mandatory`,
  standardWorkOrderUnknown: `${PM}.standardserviceorder.workorder.code.unknown`,
  standardWorkOrderMandatory: `${PM}.standardserviceorder.workorder.code.mandatory`,
  standardOfficeConflict: `${PM}.standardserviceorder.office.conflict`,
  standardStatusConflict: `${PM}.standardserviceorder.status.conflict`,
  standardFull: `${PM}.standardserviceorder.full`,
  currentServiceOrderConflict: `${PM}.workorder.currentserviceorder.conflict`,
  currentServiceOrderStatusConflict: `${PM}.workorder.currentserviceorder.status.conflict`,
  currentServiceOrderNotLinked: `${PM}.workorder.currentserviceorder.notlinked`,

  /** Route service order link (spec endpoint 21: designed here, in the standard link's style). */
  routeUnknown: `${PM}.routeserviceorder.code.unknown`,
  routeWorkOrderUnknown: `${PM}.routeserviceorder.workorder.code.unknown`,
  routeWorkOrderMandatory: `${PM}.routeserviceorder.workorder.code.mandatory`,
  routeOfficeConflict: `${PM}.routeserviceorder.office.conflict`,
  routeStatusConflict: `${PM}.routeserviceorder.status.conflict`,
  routeFull: `${PM}.routeserviceorder.full`,

  /** Import: a job or work order given twice in one project's or service order's list. */
  jobDuplicate: `${PM}.project.job.duplicate`,
  serviceOrderWorkOrderDuplicate: `${PM}.serviceorder.workorder.duplicate`,
  /** Import: the code is already a service order of another kind (one namespace of codes). */
  serviceOrderCodeConflict: `${PM}.serviceorder.code.conflict`,

  /** Extension (DELETE .../dependencies): the dependency to remove does not exist. */
  dependencyUnknown: `${PM}.dependency.unknown`,
  /** Lists (extensions): a malformed continuation token, or one issued for another search. */
  continuationTokenInvalid: derivedCode.continuationTokenInvalid(PM),
} as const;
const C = ProjectManagementCodes;

/** Codes of the project link in the order of the spec's table (refusals list them in this order). */
export const PROJECT_LINK_CODES: readonly string[] = [
  C.projectUnknown,
  C.projectCodeMandatory,
  C.jobCodeUnknown,
  C.jobCodeMandatory,
  C.jobTypeMandatory,
  C.jobTypeUnknown,
  C.workOrderAmbiguous,
  C.relativePositionUnknown,
  C.relativePositionMandatory,
  C.insertionModeUnknown,
  C.positionMandatory,
  C.positionInvalid,
  C.insertionJobTypeUnknown,
  C.blockCodeUnknown,
  C.isBlockedByCodeUnknown,
  C.blockCodeMandatory,
  C.isBlockedByCodeMandatory,
  C.blockJobTypeMandatory,
  C.isBlockedByJobTypeMandatory,
  C.blockJobTypeUnknown,
  C.isBlockedByJobTypeUnknown,
  C.invalidJson,
  C.fieldUnknown,
  C.projectOfficeConflict,
  C.projectStatusConflict,
  C.currentProjectStatusConflict,
  C.blockOfficeConflict,
  C.dependencyCycle,
  C.dependencyOverlap,
  C.ruleViolated,
];

/**
 * Codes of the standard service order link in the order of the spec's table. The spec's
 * table has no code for a negative position: `insertion.position.invalid` ("as for
 * projects") follows `position.mandatory`.
 */
export const STANDARD_LINK_CODES: readonly string[] = [
  C.standardUnknown,
  C.serviceOrderCodeMandatory,
  C.standardWorkOrderUnknown,
  C.standardWorkOrderMandatory,
  C.relativePositionUnknown,
  C.relativePositionMandatory,
  C.insertionModeUnknown,
  C.positionMandatory,
  C.positionInvalid,
  C.invalidJson,
  C.fieldUnknown,
  C.standardOfficeConflict,
  C.standardStatusConflict,
  C.standardFull,
  C.currentServiceOrderConflict,
  C.currentServiceOrderStatusConflict,
  C.currentServiceOrderNotLinked,
  C.ruleViolated,
];

/** Codes of the route service order link, in the same order as the standard one's. */
export const ROUTE_LINK_CODES: readonly string[] = [
  C.routeUnknown,
  C.serviceOrderCodeMandatory,
  C.routeWorkOrderUnknown,
  C.routeWorkOrderMandatory,
  C.relativePositionUnknown,
  C.relativePositionMandatory,
  C.insertionModeUnknown,
  C.positionMandatory,
  C.positionInvalid,
  C.invalidJson,
  C.fieldUnknown,
  C.routeOfficeConflict,
  C.routeStatusConflict,
  C.routeFull,
  C.currentServiceOrderConflict,
  C.currentServiceOrderStatusConflict,
  C.currentServiceOrderNotLinked,
  C.ruleViolated,
];

/**
 * The two kinds of service order a work order is linked to, and what differs between them:
 * one table instead of a branch per kind (multi-equipment ones only exist to be unknown to
 * the links). One namespace of codes for the three kinds.
 */
export const SERVICE_ORDER_KINDS = {
  standard: {
    title: 'Standard',
    listId: 'projectManagement.standardServiceOrders.list',
    importKey: 'standardServiceOrders',
    /** Spec endpoint 20's modes (no `before`). */
    modes: ['first', 'last', 'index', 'after'],
    codes: {
      unknown: C.standardUnknown,
      workOrderUnknown: C.standardWorkOrderUnknown,
      workOrderMandatory: C.standardWorkOrderMandatory,
      officeConflict: C.standardOfficeConflict,
      statusConflict: C.standardStatusConflict,
      full: C.standardFull,
    },
    table: STANDARD_LINK_CODES,
    /** A work order completed or higher may leave it. */
    keepsClosedWorkOrders: false,
  },
  route: {
    title: 'Route',
    listId: 'projectManagement.routeServiceOrders.list',
    importKey: 'routeServiceOrders',
    modes: ['first', 'last', 'index', 'before', 'after'],
    codes: {
      unknown: C.routeUnknown,
      workOrderUnknown: C.routeWorkOrderUnknown,
      workOrderMandatory: C.routeWorkOrderMandatory,
      officeConflict: C.routeOfficeConflict,
      statusConflict: C.routeStatusConflict,
      full: C.routeFull,
    },
    table: ROUTE_LINK_CODES,
    /** A work order completed or higher moves along its route but cannot leave it. */
    keepsClosedWorkOrders: true,
  },
} as const satisfies Record<
  string,
  { title: string; modes: readonly InsertionMode[] } & Record<string, unknown>
>;
export type LinkableServiceOrderKind = keyof typeof SERVICE_ORDER_KINDS;
/** Whether a service order of this kind (any, multi-equipment included) keeps its work orders completed or higher. */
export const keepsClosedWorkOrders = (kind: string) =>
  Object.hasOwn(SERVICE_ORDER_KINDS, kind) &&
  SERVICE_ORDER_KINDS[kind as LinkableServiceOrderKind].keepsClosedWorkOrders;
export const LINKABLE_SERVICE_ORDER_KINDS = Object.keys(SERVICE_ORDER_KINDS) as [
  LinkableServiceOrderKind,
  ...LinkableServiceOrderKind[],
];

/* ---------------- cycle and overlap messages (parseable) ---------------- */

/** A job as the messages, dependencies and the console name it: `task:3`, `workOrder:WO-7`. */
export interface JobRef {
  jobType: JobType;
  code: string;
}
export const jobRefText = (j: JobRef) => `${j.jobType}:${j.code}`;
const parseJobRef = (text: string): JobRef => {
  const at = text.indexOf(':');
  return { jobType: text.slice(0, at) as JobType, code: text.slice(at + 1) };
};

/**
 * The message of `projectmanagement.project.block.dependency.cycle` ends with the cycle's
 * path, after `cycle: `, as job references joined by ` -> `, starting and ending at the same
 * job: `... cycle: workOrder:WO-2 -> task:3 -> workOrder:WO-2`. Codes hold no space, `:` or
 * `>` (letters, digits, `-`, `_`, `.`), so the path splits safely.
 */
export const CYCLE_MARKER = 'cycle: ';
export function cycleMessage(path: readonly JobRef[]): string {
  return `The dependencies would close a ${CYCLE_MARKER}${path.map(jobRefText).join(' -> ')}`;
}
/** The cycle's path in a cycle error's message (first job repeated last), or undefined. */
export function parseCyclePath(message: string): JobRef[] | undefined {
  const at = message.lastIndexOf(CYCLE_MARKER);
  if (at < 0) return undefined;
  return message
    .slice(at + CYCLE_MARKER.length)
    .split(' -> ')
    .map(parseJobRef);
}

/**
 * The message of `projectmanagement.project.block.dependency.overlap` lists each refused
 * dependency as `blocking <job> ends <date-time> but blocked <job> starts <date-time>`,
 * separated by `; ` (date-times RFC 3339, UTC).
 */
export interface Overlap {
  blocking: JobRef & { plannedEnd: string };
  blocked: JobRef & { plannedStart: string };
}
export function overlapMessage(overlaps: readonly Overlap[]): string {
  return overlaps
    .map(
      (o) =>
        `blocking ${jobRefText(o.blocking)} ends ${o.blocking.plannedEnd} but blocked ${jobRefText(o.blocked)} starts ${o.blocked.plannedStart}`,
    )
    .join('; ');
}
export function parseOverlaps(message: string): Overlap[] {
  const re = /blocking (\S+) ends (\S+) but blocked (\S+) starts (\S+?)(?:;|$)/g;
  return [...message.matchAll(re)].map((m) => ({
    blocking: { ...parseJobRef(m[1]), plannedEnd: m[2] },
    blocked: { ...parseJobRef(m[3]), plannedStart: m[4] },
  }));
}

/* ---------------- link bodies ---------------- */

/**
 * The route takes any JSON object for these bodies (a non-object is
 * `projectmanagement.invalid.json`) and reads it into a typed request: every field checked
 * with the spec's code, every problem kept, so the service adds the rules that need the
 * database and answers every error found at once, in the order of the link's table. The
 * document shows `exact`, the shape the rules accept.
 */
function linkBody<R>(id: string, exact: z.ZodType, read: (body: Record<string, unknown>) => R) {
  const { $schema: _s, ...json } = z.toJSONSchema(exact, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  });
  return z
    .looseObject({})
    .meta({ ...json, id })
    .transform(read);
}

/** A problem of a link body: its spec code and what is wrong. */
export interface LinkProblem {
  code: string;
  message: string;
}

export type InsertionMode = 'first' | 'last' | 'index' | 'before' | 'after';

/** Where the body places the work order; undefined where the body was wrong (reported). */
export interface InsertionRequest {
  mode: InsertionMode | undefined;
  position: number | undefined;
  /** Set for `before` and `after`. */
  relative: JobRef | undefined;
}

export interface ServiceOrderLinkRequest {
  problems: LinkProblem[];
  /** The work order code, or undefined when missing or malformed (reported). */
  code: string | undefined;
  insertion: InsertionRequest;
}

export interface ProjectLinkRequest extends ServiceOrderLinkRequest {
  block: JobRef[];
  isBlockedBy: JobRef[];
}

/** The canonical code of a job of this type: phases uppercase, tasks as a number without leading zeros. */
export function jobCode(jobType: JobType, code: string): string {
  if (jobType === 'task' && /^\d+$/.test(code)) return code.replace(/^0+(?=\d)/, '');
  return foldCode(code);
}

/** The shapes a link body's values take; a value of another JSON type is `invalid.json`. */
const Shape = {
  object: z.record(z.string(), z.unknown()),
  array: z.array(z.unknown()),
  text: z.string(),
  number: z.number(),
  /** A task number given as a JSON number. */
  taskNumber: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
} as const;
const isShape = <T>(shape: z.ZodType<T>, value: unknown): value is T => shape.safeParse(value).success;
const absent = (v: unknown) => v === undefined || v === null;
const blank = (v: unknown) => absent(v) || (typeof v === 'string' && v.trim() === '');
const JOB_TYPE_NAMES: Record<string, JobType> = { phase: 'phase', task: 'task', workorder: 'workOrder' };

/** Reads one link body, collecting its problems in order. */
class BodyReader {
  readonly problems: LinkProblem[] = [];
  add(code: string, message: string) {
    this.problems.push({ code, message });
  }
  /** Fields of `value` outside `known`, reported as `projectmanagement.field.unknown`. */
  unknownFields(value: Record<string, unknown>, known: readonly string[], where: string) {
    for (const key of Object.keys(value))
      if (!known.includes(key)) this.add(C.fieldUnknown, `Unknown field ${where}${key}`);
  }
  /**
   * A code field: absent, null or blank is missing; a string is uppercased (ASCII only: a code
   * with other characters stays impossible, then unknown); a whole number is taken as its
   * digits (task numbers); anything else is a shape error (invalid.json).
   */
  code(value: unknown, field: string): string | 'missing' | 'invalid' {
    if (blank(value)) return 'missing';
    if (isShape(Shape.taskNumber, value)) return String(value);
    if (isShape(Shape.text, value)) return foldCode(value);
    this.add(C.invalidJson, `${field}: a string`);
    return 'invalid';
  }
  /** The work order code of a link body (`code`), with the endpoint's mandatory code. */
  workOrderCode(body: Record<string, unknown>, mandatory: string): string | undefined {
    const code = this.code(body.code, 'code');
    if (code === 'missing') {
      this.add(mandatory, 'code (the work order code) is required');
      return undefined;
    }
    return code === 'invalid' ? undefined : code;
  }
  /** `insertionMode`, `position`, `relativePosition` (and `jobType` for projects). */
  insertion(
    insertion: Record<string, unknown>,
    modes: readonly InsertionMode[],
    withJobType: boolean,
  ): InsertionRequest {
    let mode: InsertionMode | undefined = 'last';
    const m = insertion.insertionMode;
    if (!absent(m)) {
      if (!isShape(Shape.text, m)) {
        this.add(C.invalidJson, 'insertion.insertionMode: a string');
        mode = undefined;
      } else {
        mode = modes.find((x) => x === m.toLowerCase());
        if (!mode)
          this.add(C.insertionModeUnknown, `insertion.insertionMode ${m} is not one of ${modes.join(', ')}`);
      }
    }

    let position: number | undefined;
    const pos = insertion.position;
    if (!absent(pos)) {
      if (!isShape(Shape.number, pos)) this.add(C.invalidJson, 'insertion.position: a number');
      else if (!Number.isInteger(pos) || pos < 0)
        this.add(C.positionInvalid, `insertion.position ${pos} is not a whole number of 0 or more`);
      else position = pos;
    } else if (mode === 'index')
      this.add(C.positionMandatory, 'insertion.position is required by the mode index');

    // An unknown jobType leaves relativePosition unresolved (reported once, as jobType.unknown).
    let jobType: JobType | undefined = withJobType ? 'phase' : 'workOrder';
    const t = insertion.jobType;
    if (withJobType && !absent(t)) {
      jobType = isShape(Shape.text, t) ? JOB_TYPE_NAMES[t.toLowerCase()] : undefined;
      if (!isShape(Shape.text, t)) this.add(C.invalidJson, 'insertion.jobType: a string');
      else if (!jobType)
        this.add(C.insertionJobTypeUnknown, `insertion.jobType ${t} is not task, workOrder or phase`);
    }

    let relative: JobRef | undefined;
    if (mode === 'before' || mode === 'after') {
      const code = this.code(insertion.relativePosition, 'insertion.relativePosition');
      if (code === 'missing')
        this.add(C.relativePositionMandatory, `insertion.relativePosition is required by the mode ${mode}`);
      else if (code !== 'invalid' && jobType) relative = { jobType, code: jobCode(jobType, code) };
    } else if (!absent(insertion.relativePosition)) this.code(insertion.relativePosition, 'relativePosition');
    return { mode, position, relative };
  }
  /** The entries of `block` or `isBlockedBy`: each `{jobType: task|workOrder, code}`, once each. */
  dependencies(value: unknown, field: 'block' | 'isBlockedBy'): JobRef[] {
    if (absent(value)) return [];
    if (!isShape(Shape.array, value)) {
      this.add(C.invalidJson, `insertion.${field}: an array`);
      return [];
    }
    const codes = DEPENDENCY_CODES[field];
    const refs = new Map<string, JobRef>();
    value.forEach((entry, i) => {
      const where = `insertion.${field}[${i}]`;
      if (!isShape(Shape.object, entry) || Array.isArray(entry)) {
        this.add(C.invalidJson, `${where}: an object {jobType, code}`);
        return;
      }
      this.unknownFields(entry, ['jobType', 'code'], `${where}.`);
      let jobType: DependencyJobType | undefined;
      const t = entry.jobType;
      if (absent(t) || t === '') this.add(codes.jobTypeMandatory, `${where}.jobType is required`);
      else if (!isShape(Shape.text, t)) this.add(C.invalidJson, `${where}.jobType: a string`);
      else {
        const known = JOB_TYPE_NAMES[t.toLowerCase()];
        if (known === 'task' || known === 'workOrder') jobType = known;
        else
          this.add(
            codes.jobTypeUnknown,
            `${where}.jobType ${t} is not task or workOrder (phases take no part)`,
          );
      }
      const code = this.code(entry.code, `${where}.code`);
      if (code === 'missing') this.add(codes.codeMandatory, `${where}.code is required`);
      if (jobType && code !== 'missing' && code !== 'invalid') {
        const ref = { jobType, code: jobCode(jobType, code) };
        refs.set(`${ref.jobType}:${ref.code}`, ref);
      }
    });
    return [...refs.values()];
  }
  /** The `insertion` object, or undefined when absent or not an object (reported). */
  insertionObject(body: Record<string, unknown>, known: readonly string[]) {
    if (absent(body.insertion)) return undefined;
    if (!isShape(Shape.object, body.insertion) || Array.isArray(body.insertion)) {
      this.add(C.invalidJson, 'insertion: an object');
      return undefined;
    }
    this.unknownFields(body.insertion, known, 'insertion.');
    return body.insertion;
  }
}

const DEPENDENCY_CODES = {
  block: {
    codeMandatory: C.blockCodeMandatory,
    jobTypeMandatory: C.blockJobTypeMandatory,
    jobTypeUnknown: C.blockJobTypeUnknown,
  },
  isBlockedBy: {
    codeMandatory: C.isBlockedByCodeMandatory,
    jobTypeMandatory: C.isBlockedByJobTypeMandatory,
    jobTypeUnknown: C.isBlockedByJobTypeUnknown,
  },
} as const;

const LAST: InsertionRequest = { mode: 'last', position: undefined, relative: undefined };
const PROJECT_MODES: readonly InsertionMode[] = ['first', 'last', 'index', 'before', 'after'];

/** Spec endpoint 19's body, read. */
export function readProjectLink(body: Record<string, unknown>): ProjectLinkRequest {
  const r = new BodyReader();
  r.unknownFields(body, ['type', 'code', 'insertion'], '');
  const type = body.type;
  if (blank(type)) r.add(C.jobTypeMandatory, 'type is required (workOrder)');
  else if (!isShape(Shape.text, type)) r.add(C.invalidJson, 'type: a string');
  else if (type.toLowerCase() !== 'workorder') r.add(C.jobTypeUnknown, `type ${type} is not workOrder`);
  const code = r.workOrderCode(body, C.jobCodeMandatory);
  const i = r.insertionObject(body, [
    'insertionMode',
    'position',
    'relativePosition',
    'jobType',
    'block',
    'isBlockedBy',
  ]);
  return {
    problems: r.problems,
    code,
    insertion: i ? r.insertion(i, PROJECT_MODES, true) : LAST,
    block: i ? r.dependencies(i.block, 'block') : [],
    isBlockedBy: i ? r.dependencies(i.isBlockedBy, 'isBlockedBy') : [],
  };
}

/** Spec endpoint 20's body (no `type`: an unknown field), or the route link's, read. */
export function readServiceOrderLink(
  body: Record<string, unknown>,
  kind: LinkableServiceOrderKind,
): ServiceOrderLinkRequest {
  const r = new BodyReader();
  r.unknownFields(body, ['code', 'insertion'], '');
  const code = r.workOrderCode(body, SERVICE_ORDER_KINDS[kind].codes.workOrderMandatory);
  const i = r.insertionObject(body, ['insertionMode', 'position', 'relativePosition']);
  return {
    problems: r.problems,
    code,
    insertion: i ? r.insertion(i, SERVICE_ORDER_KINDS[kind].modes, false) : LAST,
  };
}

const caseInsensitive = 'case-insensitive';
const DependencyEntry = z.strictObject({
  jobType: z.enum(['task', 'workOrder']).meta({ description: `task or workOrder (${caseInsensitive})` }),
  code: z.string().meta({ description: 'Number of the task, or code of the work order' }),
});

/** Spec endpoint 19's body, as the rules accept it. */
export const ProjectLinkBody = z.strictObject({
  type: z.string().meta({ description: `Only \`workOrder\` (${caseInsensitive})` }),
  code: z.string().meta({ description: 'Business code of the work order (the live one is linked)' }),
  insertion: z
    .strictObject({
      insertionMode: z
        .enum(['first', 'last', 'index', 'before', 'after'])
        .optional()
        .meta({ description: `Default \`last\` (${caseInsensitive})` }),
      position: z.number().int().min(0).optional().meta({
        description:
          'Required by `index`: the zero-based place the work order takes among the project jobs (phases, tasks, work orders); past the last job: last',
      }),
      relativePosition: z.string().optional().meta({
        description:
          'Required by `before` and `after`: number of a task or work order, or code of a phase, of the project (not the work order linked)',
      }),
      jobType: z
        .enum(['task', 'workOrder', 'phase'])
        .optional()
        .meta({ description: `What relativePosition names; default \`phase\` (${caseInsensitive})` }),
      block: z
        .array(DependencyEntry)
        .optional()
        .meta({ description: 'Jobs of the project the work order blocks (added to its dependencies)' }),
      isBlockedBy: z
        .array(DependencyEntry)
        .optional()
        .meta({ description: 'Jobs of the project that block the work order (added to its dependencies)' }),
    })
    .nullish()
    .meta({ description: 'When absent: linked last, without dependency' }),
});
export type ProjectLinkBody = z.input<typeof ProjectLinkBody>;

const serviceOrderLinkBody = (modes: readonly [string, ...string[]]) =>
  z.strictObject({
    code: z.string().meta({ description: 'Business code of the work order (the live one is linked)' }),
    insertion: z
      .strictObject({
        insertionMode: z
          .enum(modes)
          .optional()
          .meta({ description: `Default \`last\` (${caseInsensitive})` }),
        position: z.number().int().min(0).optional().meta({
          description: 'Required by `index`: zero-based place among the work orders; past the last one: last',
        }),
        relativePosition: z
          .string()
          .optional()
          .meta({
            description: `Required by ${modes.includes('before') ? '`before` and ' : ''}\`after\`: code of a work order carried by the service order, other than the one linked`,
          }),
      })
      .nullish()
      .meta({ description: 'When absent: linked after every work order of the service order' }),
  });
export const StandardServiceOrderLinkBody = serviceOrderLinkBody(SERVICE_ORDER_KINDS.standard.modes);
export type StandardServiceOrderLinkBody = z.input<typeof StandardServiceOrderLinkBody>;
export const RouteServiceOrderLinkBody = serviceOrderLinkBody(SERVICE_ORDER_KINDS.route.modes);
export type RouteServiceOrderLinkBody = z.input<typeof RouteServiceOrderLinkBody>;

const DependencyEntryInput = z.strictObject({
  // Case-insensitive, so a refinement rather than a pattern: the document's enum
  // [task, workOrder] must not sit beside a pattern that refuses `workOrder`.
  jobType: z
    .string()
    .refine((v) => /^(task|workorder)$/i.test(v), 'task or workOrder')
    .meta({ enum: ['task', 'workOrder'], description: `task or workOrder (${caseInsensitive})` }),
  code: z
    .union([z.string().min(1).max(SERVICE_ORDER_CODE_MAX), z.number().int().min(0)])
    .meta({ description: 'Number of the task, or code of the work order' }),
});
export const DependencyBody = z
  .strictObject({
    blocking: DependencyEntryInput,
    blocked: DependencyEntryInput,
  })
  .meta({
    id: 'ProjectDependency',
    description: 'A dependency between two jobs of the project: `blocking` must end before `blocked` starts',
  });
export type DependencyBody = z.input<typeof DependencyBody>;

/* ---------------- reads ---------------- */

const DateTime = z.string().nullable().meta({ format: 'date-time' });
const JobRefOut = z.object({ jobType: z.enum(JOB_TYPES), code: z.string() });

export const ProjectJob = z
  .object({
    jobType: z.enum(JOB_TYPES),
    code: z.string().meta({ description: 'Phase code, task number (as a string) or work order code' }),
    uuid: z.string().optional().meta({ description: 'Work orders only' }),
    name: z.string().nullable().optional().meta({ description: 'Phases and tasks only' }),
    plannedStart: DateTime,
    plannedEnd: DateTime.meta({
      description: "A work order's planned dates are its schedule (start plus its type's duration)",
    }),
  })
  .meta({ id: 'ProjectJob' });
export type ProjectJob = z.infer<typeof ProjectJob>;

export const Project = z
  .object({
    projectCode: z.string(),
    name: z.string(),
    officeCode: z.string(),
    status: ProjectStatus,
    jobs: z.array(ProjectJob).meta({ description: 'In project order' }),
    dependencies: z.array(z.object({ blocking: JobRefOut, blocked: JobRefOut })),
  })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof Project>;

export const ServiceOrder = z
  .object({
    serviceOrderCode: z.string(),
    officeCode: z.string(),
    status: ServiceOrderStatus,
    maxWorkOrders: z.number().int(),
    workOrders: z
      .array(z.object({ code: z.string(), uuid: z.string(), status: WorkOrderStatus }))
      .meta({ description: 'In order (on a route: the order of the visits)' }),
  })
  .meta({ id: 'ServiceOrder' });
export type ServiceOrder = z.infer<typeof ServiceOrder>;

export const ProjectSummary = z
  .object({
    projectCode: z.string(),
    name: z.string(),
    officeCode: z.string(),
    status: ProjectStatus,
    jobCount: z.number().int(),
    workOrderCount: z.number().int(),
  })
  .meta({ id: 'ProjectSummary' });
export type ProjectSummary = z.infer<typeof ProjectSummary>;

export const ServiceOrderSummary = z
  .object({
    serviceOrderCode: z.string(),
    officeCode: z.string(),
    status: ServiceOrderStatus,
    maxWorkOrders: z.number().int(),
    workOrderCount: z.number().int(),
  })
  .meta({ id: 'ServiceOrderSummary' });
export type ServiceOrderSummary = z.infer<typeof ServiceOrderSummary>;

export const LinkableWorkOrder = z
  .object({
    workOrderCode: z.string(),
    uuid: z.string(),
    status: WorkOrderStatus,
    officeCode: z.string(),
    plannedStart: DateTime,
    plannedEnd: DateTime,
    projectCode: z.string().nullable().meta({ description: 'The project holding it, if any' }),
    serviceOrderCode: z.string().nullable().meta({ description: 'The service order holding it, if any' }),
    serviceOrderKind: z.enum(LINKABLE_SERVICE_ORDER_KINDS).nullable(),
  })
  .meta({ id: 'LinkableWorkOrder' });
export type LinkableWorkOrder = z.infer<typeof LinkableWorkOrder>;

const ListQuery = z.strictObject({
  q: z.string().max(200).optional().meta({ description: 'Case-insensitive text contained in the code' }),
  continuationToken: z.string().optional(),
});
export type ProjectManagementListQuery = z.input<typeof ListQuery>;

/* ---------------- endpoints ---------------- */

const projectParams = z.object({
  projectCode: z
    .string()
    .transform(foldCode)
    .meta({
      maxLength: PROJECT_CODE_MAX,
      description: `1..${PROJECT_CODE_MAX} characters, case-insensitive (ASCII letters, digits, "-", "_", "."); a longer code, or one with other characters, names no project`,
    }),
});
const serviceOrderCode = z.string().transform(foldCode).meta({
  description:
    'Case-insensitive (ASCII letters, digits, "-", "_", "."); a code with other characters names no service order',
});
const standardParams = z.object({ standardServiceOrderCode: serviceOrderCode });
const routeParams = z.object({ routeServiceOrderCode: serviceOrderCode });

const bodyShapeCodes = [C.invalidJson, C.fieldUnknown, `${PM}.<field>.invalid`];

export const linkProject = endpoint({
  id: 'projectManagement.projects.link',
  method: 'POST',
  path: `${BASE}/projects/code:{projectCode}/link`,
  domain: 'projectManagement',
  range: 'high',
  summary:
    'Links a work order to the project at the chosen position, moves it inside the project, or takes it from another project (204), and adds the dependencies given. ' +
    'The project must be filed at or above the work order office, in your office tree or on its chain of parent offices (a project of a sibling office is unknown); dependencies only on a project of your tree (block.office.conflict). ' +
    'Sending a linked work order again moves it and keeps its earlier dependencies, adding the new ones (remove one with DELETE .../dependencies); a work order taken from another project loses its dependencies there (removed with its job; none follow it). ' +
    'cycle: the message ends with the cycle path (`cycle: workOrder:A -> task:3 -> workOrder:A`). overlap: a blocked job whose planned start is before the blocking job planned end, both known. ' +
    'rule.violated: the work order sits in a project outside your office tree and its parent offices. Every error found is listed, in the order of the spec table.',
  errorPrefix: PM,
  codeMandatory: C.projectCodeMandatory,
  params: projectParams,
  body: linkBody('ProjectLinkBody', ProjectLinkBody, readProjectLink),
  responses: { 204: undefined },
  errors: { 400: [...PROJECT_LINK_CODES, ...bodyShapeCodes] },
});

export const linkStandardServiceOrder = endpoint({
  id: 'projectManagement.standardServiceOrders.link',
  method: 'POST',
  path: `${BASE}/standardServiceOrders/code:{standardServiceOrderCode}/link`,
  domain: 'projectManagement',
  range: 'high',
  summary:
    'Links a work order to the standard service order at the chosen position (modes first, last, index, after; default last), or moves it there from where it sits (204). ' +
    'The service order must be filed at or above the work order office, not completed or validated, and below its maximum of work orders. The one the work order leaves must not be completed or validated, nor a route service order holding a work order completed or higher. ' +
    'notlinked: the work order sits in a service order outside your office tree and its parent offices. rule.violated: several live work orders carry the code (the spec table has no ambiguity code here). ' +
    'A route or multi-equipment service order code is unknown. Every error found is listed, in the order of the spec table.',
  errorPrefix: PM,
  codeMandatory: C.serviceOrderCodeMandatory,
  params: standardParams,
  body: linkBody('StandardServiceOrderLinkBody', StandardServiceOrderLinkBody, (b) =>
    readServiceOrderLink(b, 'standard'),
  ),
  responses: { 204: undefined },
  errors: { 400: [...STANDARD_LINK_CODES, ...bodyShapeCodes] },
});

export const linkRouteServiceOrder = endpoint({
  id: 'projectManagement.routeServiceOrders.link',
  method: 'POST',
  path: `${BASE}/routeServiceOrders/code:{routeServiceOrderCode}/link`,
  domain: 'projectManagement',
  range: 'high',
  summary:
    'Links a work order to the route service order at the chosen place on the route (modes first, last, index, before, after; default last), or moves it there (204). ' +
    'The same rules as the standard link: filed at or above the work order office, not completed or validated, below its maximum; the service order the work order leaves must let it go (a work order completed or higher cannot leave a route service order, though it may move along its own route). ' +
    'A standard or multi-equipment code is unknown. Every error found is listed, in the order of the standard link table.',
  errorPrefix: PM,
  codeMandatory: C.serviceOrderCodeMandatory,
  params: routeParams,
  body: linkBody('RouteServiceOrderLinkBody', RouteServiceOrderLinkBody, (b) =>
    readServiceOrderLink(b, 'route'),
  ),
  responses: { 204: undefined },
  errors: { 400: [...ROUTE_LINK_CODES, ...bodyShapeCodes] },
});

export const deleteProjectDependency = endpoint({
  id: 'projectManagement.projects.dependencies.delete',
  method: 'DELETE',
  path: `${BASE}/projects/code:{projectCode}/dependencies`,
  domain: 'projectManagement',
  range: 'high',
  summary:
    'Removes one dependency of the project (204): the link call only adds dependencies (spec: unlinking is not covered). The same rules as declaring one: a project of your office tree (block.office.conflict for one of your parent offices), not completed.',
  errorPrefix: PM,
  codeMandatory: C.projectCodeMandatory,
  shapeErrors: 'invalidJson',
  params: projectParams,
  body: DependencyBody,
  responses: { 204: undefined },
  errors: {
    400: [
      C.projectUnknown,
      C.projectCodeMandatory,
      C.workOrderAmbiguous,
      C.invalidJson,
      C.fieldUnknown,
      C.projectStatusConflict,
      C.blockOfficeConflict,
      C.dependencyUnknown,
    ],
  },
  extension: true,
});

export const getProject = endpoint({
  id: 'projectManagement.projects.get',
  method: 'GET',
  path: `${BASE}/projects/code:{projectCode}`,
  domain: 'projectManagement',
  range: 'high',
  summary:
    'A project of your office tree: its jobs in project order and its dependencies. A project outside your tree (one of your parent offices included: its work orders may be of other offices) is unknown.',
  errorPrefix: PM,
  codeMandatory: C.projectCodeMandatory,
  params: projectParams,
  responses: { 200: Project },
  errors: { 400: [C.projectCodeMandatory], 404: [C.projectUnknown] },
  extension: true,
});

const serviceOrderGetSummary = (kind: string) =>
  `A ${kind} service order of your office tree and its work orders in order; maxWorkOrders is its own maximum or the instance's (FIELDWORK_SERVICE_ORDER_MAX).`;

export const getStandardServiceOrder = endpoint({
  id: 'projectManagement.standardServiceOrders.get',
  method: 'GET',
  path: `${BASE}/standardServiceOrders/code:{standardServiceOrderCode}`,
  domain: 'projectManagement',
  range: 'high',
  summary: serviceOrderGetSummary('standard'),
  errorPrefix: PM,
  codeMandatory: C.serviceOrderCodeMandatory,
  params: standardParams,
  responses: { 200: ServiceOrder },
  errors: { 400: [C.serviceOrderCodeMandatory], 404: [C.standardUnknown] },
  extension: true,
});

export const getRouteServiceOrder = endpoint({
  id: 'projectManagement.routeServiceOrders.get',
  method: 'GET',
  path: `${BASE}/routeServiceOrders/code:{routeServiceOrderCode}`,
  domain: 'projectManagement',
  range: 'high',
  summary: serviceOrderGetSummary('route'),
  errorPrefix: PM,
  codeMandatory: C.serviceOrderCodeMandatory,
  params: routeParams,
  responses: { 200: ServiceOrder },
  errors: { 400: [C.serviceOrderCodeMandatory], 404: [C.routeUnknown] },
  extension: true,
});

const listErrors = { 400: [C.continuationTokenInvalid, C.fieldUnknown, `${PM}.q.invalid`] };

export const listProjects = endpoint({
  id: 'projectManagement.projects.list',
  method: 'GET',
  path: `${BASE}/projects`,
  domain: 'projectManagement',
  range: 'standard',
  summary: `Projects of your office tree, sorted by code, ${PROJECT_MANAGEMENT_PAGE_SIZE} a page; q: text contained in the code.`,
  errorPrefix: PM,
  query: ListQuery,
  responses: { 200: Page(ProjectSummary).meta({ id: 'ProjectPage' }) },
  errors: listErrors,
  extension: true,
});

function serviceOrderList(kind: LinkableServiceOrderKind) {
  return endpoint({
    id: SERVICE_ORDER_KINDS[kind].listId,
    method: 'GET',
    path: `${BASE}/${kind}ServiceOrders`,
    domain: 'projectManagement',
    range: 'standard',
    summary: `${SERVICE_ORDER_KINDS[kind].title} service orders of your office tree, sorted by code, ${PROJECT_MANAGEMENT_PAGE_SIZE} a page; q: text contained in the code.`,
    errorPrefix: PM,
    query: ListQuery,
    responses: {
      200: Page(ServiceOrderSummary).meta({
        id: `${SERVICE_ORDER_KINDS[kind].title}ServiceOrderPage`,
      }),
    },
    errors: listErrors,
    extension: true,
  });
}
export const listStandardServiceOrders = serviceOrderList('standard');
export const listRouteServiceOrders = serviceOrderList('route');

export const listLinkableWorkOrders = endpoint({
  id: 'projectManagement.workOrders.list',
  method: 'GET',
  path: `${BASE}/workOrders`,
  domain: 'projectManagement',
  range: 'standard',
  summary: `Work orders of your office tree with the project and the service order holding each (null when none, or one outside your tree and parent offices), sorted by code then uuid, ${PROJECT_MANAGEMENT_PAGE_SIZE} a page; q: text contained in the code. For the linker's search.`,
  errorPrefix: PM,
  query: ListQuery,
  responses: { 200: Page(LinkableWorkOrder).meta({ id: 'LinkableWorkOrderPage' }) },
  errors: listErrors,
  extension: true,
});

/** The projectManagement endpoints by name, in the order of the OpenAPI document (contract/domains.ts). */
export const getProjectHistory = historyEndpoint({
  id: 'projectManagement.projects.history',
  domain: 'projectManagement',
  recordPath: `${BASE}/projects/code:{projectCode}`,
  errorPrefix: PM,
  params: projectParams,
  notFound: [C.projectUnknown],
  continuationTokenInvalid: C.continuationTokenInvalid,
  label: 'a project with its phases, tasks and dependencies',
});
export const getStandardServiceOrderHistory = historyEndpoint({
  id: 'projectManagement.standardServiceOrders.history',
  domain: 'projectManagement',
  recordPath: `${BASE}/standardServiceOrders/code:{standardServiceOrderCode}`,
  errorPrefix: PM,
  params: standardParams,
  notFound: [C.standardUnknown],
  continuationTokenInvalid: C.continuationTokenInvalid,
  label: 'a standard service order',
});
export const getRouteServiceOrderHistory = historyEndpoint({
  id: 'projectManagement.routeServiceOrders.history',
  domain: 'projectManagement',
  recordPath: `${BASE}/routeServiceOrders/code:{routeServiceOrderCode}`,
  errorPrefix: PM,
  params: routeParams,
  notFound: [C.routeUnknown],
  continuationTokenInvalid: C.continuationTokenInvalid,
  label: 'a route service order',
});

export const projectManagementEndpoints = {
  linkProject,
  linkStandardServiceOrder,
  linkRouteServiceOrder,
  deleteProjectDependency,
  getProject,
  getStandardServiceOrder,
  getRouteServiceOrder,
  getProjectHistory,
  getStandardServiceOrderHistory,
  getRouteServiceOrderHistory,
  listProjects,
  listStandardServiceOrders,
  listRouteServiceOrders,
  listLinkableWorkOrders,
};
