/**
 * What the three links share (spec endpoints 19, 20, 21): the work order a body names,
 * found and locked; the office rules of a container; and the order key of a placement.
 */
import { CODE_PATTERN } from '../../../contract/common.ts';
import { isLive } from '../../../contract/fieldService.ts';
import { PROJECT_CODE_MAX } from '../../../contract/projectManagement.ts';
import type { Db } from '../../db/index.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import { isPossibleCode, type Problems } from './problems.ts';
import * as q from './queries.ts';
import { keyBetween, type Placement } from './ranking.ts';

/** A project code that could exist (1..50 characters of a code). */
export const isPossibleProjectCode = (code: string) =>
  code.length <= PROJECT_CODE_MAX && CODE_PATTERN.test(code);
/** The office path `path` is `container`'s office or below it (rule: container at or above). */
export const atOrBelow = (path: string, containerPath: string) => path.startsWith(containerPath);
/** An office path is in the caller's tree or on its chain of parent offices. */
export const linkableFrom = (scope: OfficeScope, path: string) =>
  path.startsWith(scope.path) || scope.path.startsWith(path);

/** The work order a link names, locked, with its office path as read under the lock. */
export type LinkedWorkOrder = Omit<q.LinkedWorkOrderRow, 'locked_path'> & { office_path: string };

/**
 * The live work order a link body names, in the caller's tree (errors go to `p`), locked
 * until the end of the transaction: the container it sits in cannot change meanwhile. The
 * rule is `findWorkOrder`'s (the live one; several live: ambiguous; none live: the latest
 * validated one), read and locked in one statement.
 */
export async function workOrderFor(
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

/** The job a reference names among a project's matches: live work orders first. */
export function pick(matches: q.JobMatch[]): q.JobMatch | 'ambiguous' | undefined {
  const visible = matches.filter((m) => m.visible);
  if (visible.length === 0) return undefined;
  if (visible[0].job_type !== 'workOrder') return visible[0];
  const live = visible.filter((m) => m.work_order_status !== 'VALIDATED');
  if (live.length > 1) return 'ambiguous';
  return live[0] ?? visible[0];
}

/** The placement a body asks for, when it needs no job of the container (first, last, index). */
export function simplePlacement(insertion: { mode?: string; position?: number }): Placement | undefined {
  const { mode, position } = insertion;
  if (mode === 'first' || mode === 'last') return { mode };
  if (mode === 'index' && position !== undefined) return { mode, position };
  return undefined;
}

/**
 * The order key for the work order `workOrderId` placed in the container: a free key at the
 * requested place, ignoring the work order's own current entry (a move).
 */
export async function rankFor(
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
