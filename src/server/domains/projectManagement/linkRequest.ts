/**
 * Reading the three link bodies field by field, with the spec's codes. Nothing is thrown
 * here: every problem is collected in `Problems`, so the service can add the rules that need
 * the database and answer every error found at once, in the order of the spec's table.
 */
import { CODE_PATTERN, foldCode } from '../../../contract/common.ts';
import {
  ProjectManagementCodes as C,
  type DependencyJobType,
  type JobRef,
  type JobType,
  SERVICE_ORDER_CODE_MAX,
} from '../../../contract/projectManagement.ts';
import { ApiError, type ErrorItem } from '../../platform/errors.ts';

/** Errors found so far, by code (one answer item per code, its messages joined). */
export class Problems {
  private readonly found = new Map<string, string[]>();
  add(code: string, message: string) {
    const list = this.found.get(code) ?? [];
    if (!list.includes(message)) list.push(message);
    this.found.set(code, list);
  }
  has(code: string) {
    return this.found.has(code);
  }
  get size() {
    return this.found.size;
  }
  /** A collector holding the same problems, to add to without changing this one. */
  copy(): Problems {
    const c = new Problems();
    for (const [code, messages] of this.found) c.found.set(code, [...messages]);
    return c;
  }
  /** The errors in the order of `table` (codes it does not hold come last). */
  errors(table: readonly string[]): ErrorItem[] {
    const rank = (code: string) => {
      const i = table.indexOf(code);
      return i < 0 ? table.length : i;
    };
    return [...this.found.entries()]
      .sort(([a], [b]) => rank(a) - rank(b))
      .map(([code, messages]) => ({ code, message: messages.join('; ') }));
  }
  /** Throws the 400 of every error found, if any. */
  throwIfAny(table: readonly string[]) {
    if (this.found.size > 0) throw new ApiError(400, this.errors(table));
  }
}

const absent = (v: unknown) => v === undefined || v === null;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Fields of `value` outside `known`, reported as `projectmanagement.field.unknown`. */
function unknownFields(p: Problems, value: Record<string, unknown>, known: readonly string[], where: string) {
  for (const key of Object.keys(value))
    if (!known.includes(key)) p.add(C.fieldUnknown, `Unknown field ${where}${key}`);
}

/**
 * A code field: absent, null or blank is missing; a string is uppercased; an integer is
 * taken as its digits (task numbers); anything else is a shape error (invalid.json).
 */
function codeField(p: Problems, value: unknown, field: string): string | 'missing' | 'invalid' {
  if (absent(value) || (typeof value === 'string' && value.trim() === '')) return 'missing';
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  // ASCII-only folding: a code with other characters stays impossible (then unknown).
  if (typeof value === 'string') return foldCode(value);
  p.add(C.invalidJson, `${field}: a string`);
  return 'invalid';
}

/** The canonical code of a job of this type: phases uppercase, tasks as a number without leading zeros. */
export function jobCode(jobType: JobType, code: string): string {
  if (jobType === 'task' && /^\d+$/.test(code)) return code.replace(/^0+(?=\d)/, '');
  return foldCode(code);
}

/** Whether a code could name a record at all: a code that cannot is simply unknown. */
export const isPossibleCode = (code: string) =>
  code.length <= SERVICE_ORDER_CODE_MAX && CODE_PATTERN.test(code);

const JOB_TYPE_NAMES: Record<string, JobType> = { phase: 'phase', task: 'task', workorder: 'workOrder' };

export type InsertionMode = 'first' | 'last' | 'index' | 'before' | 'after';

export interface InsertionRequest {
  mode: InsertionMode | undefined;
  position: number | undefined;
  /** Set for `before` and `after`. */
  relative: JobRef | undefined;
}

export interface ProjectLinkRequest {
  problems: Problems;
  /** The work order code, or undefined when missing or malformed (already reported). */
  code: string | undefined;
  insertion: InsertionRequest;
  block: JobRef[];
  isBlockedBy: JobRef[];
}

export interface ServiceOrderLinkRequest {
  problems: Problems;
  code: string | undefined;
  insertion: InsertionRequest;
}

/** `insertionMode`, `position`, `relativePosition` (and `jobType` for projects). */
function readInsertion(
  p: Problems,
  insertion: Record<string, unknown>,
  modes: readonly InsertionMode[],
  withJobType: boolean,
): InsertionRequest {
  let mode: InsertionMode | undefined = 'last';
  const m = insertion.insertionMode;
  if (!absent(m)) {
    if (typeof m !== 'string') {
      p.add(C.invalidJson, 'insertion.insertionMode: a string');
      mode = undefined;
    } else {
      mode = modes.find((x) => x === m.toLowerCase());
      if (!mode)
        p.add(C.insertionModeUnknown, `insertion.insertionMode ${m} is not one of ${modes.join(', ')}`);
    }
  }

  let position: number | undefined;
  const pos = insertion.position;
  if (!absent(pos)) {
    if (typeof pos !== 'number') p.add(C.invalidJson, 'insertion.position: a number');
    else if (!Number.isInteger(pos) || pos < 0)
      p.add(C.positionInvalid, `insertion.position ${pos} is not a whole number of 0 or more`);
    else position = pos;
  } else if (mode === 'index') p.add(C.positionMandatory, 'insertion.position is required by the mode index');

  // An unknown jobType leaves relativePosition unresolved (reported once, as jobType.unknown).
  let jobType: JobType | undefined = withJobType ? 'phase' : 'workOrder';
  if (withJobType && !absent(insertion.jobType)) {
    const t = insertion.jobType;
    jobType = typeof t === 'string' ? JOB_TYPE_NAMES[t.toLowerCase()] : undefined;
    if (typeof t !== 'string') p.add(C.invalidJson, 'insertion.jobType: a string');
    else if (!jobType)
      p.add(C.insertionJobTypeUnknown, `insertion.jobType ${t} is not task, workOrder or phase`);
  }

  let relative: JobRef | undefined;
  if (mode === 'before' || mode === 'after') {
    const code = codeField(p, insertion.relativePosition, 'insertion.relativePosition');
    if (code === 'missing')
      p.add(C.relativePositionMandatory, `insertion.relativePosition is required by the mode ${mode}`);
    else if (code !== 'invalid' && jobType) relative = { jobType, code: jobCode(jobType, code) };
  } else if (!absent(insertion.relativePosition))
    codeField(p, insertion.relativePosition, 'relativePosition');
  return { mode, position, relative };
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

/** The entries of `block` or `isBlockedBy`: each `{jobType: task|workOrder, code}`. */
function readDependencies(p: Problems, value: unknown, field: 'block' | 'isBlockedBy'): JobRef[] {
  if (absent(value)) return [];
  if (!Array.isArray(value)) {
    p.add(C.invalidJson, `insertion.${field}: an array`);
    return [];
  }
  const codes = DEPENDENCY_CODES[field];
  const refs = new Map<string, JobRef>();
  value.forEach((entry, i) => {
    const where = `insertion.${field}[${i}]`;
    if (!isObject(entry)) {
      p.add(C.invalidJson, `${where}: an object {jobType, code}`);
      return;
    }
    unknownFields(p, entry, ['jobType', 'code'], `${where}.`);
    let jobType: DependencyJobType | undefined;
    const t = entry.jobType;
    if (absent(t) || t === '') p.add(codes.jobTypeMandatory, `${where}.jobType is required`);
    else if (typeof t !== 'string') p.add(C.invalidJson, `${where}.jobType: a string`);
    else {
      const known = JOB_TYPE_NAMES[t.toLowerCase()];
      if (known === 'task' || known === 'workOrder') jobType = known;
      else
        p.add(codes.jobTypeUnknown, `${where}.jobType ${t} is not task or workOrder (phases take no part)`);
    }
    const code = codeField(p, entry.code, `${where}.code`);
    if (code === 'missing') p.add(codes.codeMandatory, `${where}.code is required`);
    if (jobType && code !== 'missing' && code !== 'invalid') {
      const ref = { jobType, code: jobCode(jobType, code) };
      refs.set(`${ref.jobType}:${ref.code}`, ref);
    }
  });
  return [...refs.values()];
}

/** The work order code of a link body (`code`), with the endpoint's mandatory code. */
function readWorkOrderCode(p: Problems, body: Record<string, unknown>, mandatory: string) {
  const code = codeField(p, body.code, 'code');
  if (code === 'missing') {
    p.add(mandatory, 'code (the work order code) is required');
    return undefined;
  }
  return code === 'invalid' ? undefined : code;
}

/** Spec endpoint 19's body. */
export function readProjectLink(body: Record<string, unknown>): ProjectLinkRequest {
  const p = new Problems();
  unknownFields(p, body, ['type', 'code', 'insertion'], '');
  const type = body.type;
  if (absent(type) || (typeof type === 'string' && type.trim() === ''))
    p.add(C.jobTypeMandatory, 'type is required (workOrder)');
  else if (typeof type !== 'string') p.add(C.invalidJson, 'type: a string');
  else if (type.toLowerCase() !== 'workorder') p.add(C.jobTypeUnknown, `type ${type} is not workOrder`);
  const code = readWorkOrderCode(p, body, C.jobCodeMandatory);

  let insertion: InsertionRequest = { mode: 'last', position: undefined, relative: undefined };
  let block: JobRef[] = [];
  let isBlockedBy: JobRef[] = [];
  if (!absent(body.insertion)) {
    if (!isObject(body.insertion)) p.add(C.invalidJson, 'insertion: an object');
    else {
      const i = body.insertion;
      unknownFields(
        p,
        i,
        ['insertionMode', 'position', 'relativePosition', 'jobType', 'block', 'isBlockedBy'],
        'insertion.',
      );
      insertion = readInsertion(p, i, ['first', 'last', 'index', 'before', 'after'], true);
      block = readDependencies(p, i.block, 'block');
      isBlockedBy = readDependencies(p, i.isBlockedBy, 'isBlockedBy');
    }
  }
  return { problems: p, code, insertion, block, isBlockedBy };
}

/** Spec endpoint 20's body (no `type`: an unknown field), and the route link's. */
export function readServiceOrderLink(
  body: Record<string, unknown>,
  kind: 'standard' | 'route',
): ServiceOrderLinkRequest {
  const p = new Problems();
  unknownFields(p, body, ['code', 'insertion'], '');
  const code = readWorkOrderCode(
    p,
    body,
    kind === 'standard' ? C.standardWorkOrderMandatory : C.routeWorkOrderMandatory,
  );
  let insertion: InsertionRequest = { mode: 'last', position: undefined, relative: undefined };
  if (!absent(body.insertion)) {
    if (!isObject(body.insertion)) p.add(C.invalidJson, 'insertion: an object');
    else {
      unknownFields(p, body.insertion, ['insertionMode', 'position', 'relativePosition'], 'insertion.');
      const modes: InsertionMode[] =
        kind === 'standard'
          ? ['first', 'last', 'index', 'after']
          : ['first', 'last', 'index', 'before', 'after'];
      insertion = readInsertion(p, body.insertion, modes, false);
    }
  }
  return { problems: p, code, insertion };
}
