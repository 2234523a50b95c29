/**
 * Spec endpoints 20 and 21: link a work order into a standard or route service order at a
 * place. What differs between the two kinds is `SERVICE_ORDER_KINDS` (contract). One
 * transaction: the work order's row is locked, then the service orders it leaves and joins
 * (in id order); each rule adds its errors, and a refusal answers every one at once and writes
 * nothing. The steps are named after the rules they enforce.
 */
import { isCompletedOrHigher } from '../../../contract/fieldService.ts';
import {
  ProjectManagementCodes as C,
  isServiceOrderClosed,
  keepsClosedWorkOrders,
  type LinkableServiceOrderKind,
  SERVICE_ORDER_KINDS,
  type ServiceOrderLinkRequest,
} from '../../../contract/projectManagement.ts';
import type { Db } from '../../db/index.ts';
import type { Caller } from '../../platform/caller.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import { writeTransaction } from '../../platform/transactions.ts';
import {
  atOrBelow,
  type LinkedWorkOrder,
  linkableFrom,
  rankFor,
  simplePlacement,
  workOrderFor,
} from './links.ts';
import { isPossibleCode, Problems } from './problems.ts';
import * as q from './queries.ts';
import type { Placement } from './ranking.ts';

type Kind = (typeof SERVICE_ORDER_KINDS)[LinkableServiceOrderKind] & { label: string };

/** What the call names, found and locked. */
interface Targets {
  wo: LinkedWorkOrder | undefined;
  /** The service order named, of the link's kind, linkable by the caller. */
  so: q.ServiceOrderRow | undefined;
  /** The service order the work order sits in. */
  current: Awaited<ReturnType<typeof q.serviceOrderOfWorkOrder>> | undefined;
  movingInside: boolean;
}

export async function linkServiceOrder(
  db: Db,
  caller: Caller,
  kindName: LinkableServiceOrderKind,
  serviceOrderCode: string,
  req: ServiceOrderLinkRequest,
  instanceMax: number,
): Promise<void> {
  const kind: Kind = {
    ...SERVICE_ORDER_KINDS[kindName],
    label: `${SERVICE_ORDER_KINDS[kindName].title} service order`,
  };
  await writeTransaction(db, async (trx) => {
    // The body's problems, and those of this attempt (the transaction may run again).
    const p = Problems.of(req.problems);
    const t = await resolveTargets(trx, caller.scope, kindName, kind, serviceOrderCode, req, p);
    const placement = await placementRule(trx, caller.scope, t, req, p);
    await officeStatusAndSizeRules(trx, t, kind, instanceMax, p);
    leavingRules(t, caller.scope, p);
    p.throwIfAny(kind.table);
    if (!t.so || !t.wo || !placement)
      throw new Error('service order link: a rule let an incomplete request through');
    await write(trx, t.so, t.wo, t.current && !t.movingInside ? t.current : undefined, placement);
  });
}

/**
 * Resolve targets: the work order (locked; a code of several live ones is `rule.violated`,
 * the spec's table having no ambiguity code), the service order named, of this kind (else
 * its `code.unknown`), and the one the work order sits in, both locked (status as it stands
 * then).
 */
async function resolveTargets(
  trx: Db,
  scope: OfficeScope,
  kindName: LinkableServiceOrderKind,
  kind: Kind,
  serviceOrderCode: string,
  req: ServiceOrderLinkRequest,
  p: Problems,
): Promise<Targets> {
  const wo =
    req.code === undefined
      ? undefined
      : await workOrderFor(trx, scope, req.code, p, {
          unknown: kind.codes.workOrderUnknown,
          ambiguous: C.ruleViolated,
        });
  const current = wo ? await q.serviceOrderOfWorkOrder(trx, wo.id) : undefined;
  const found = isPossibleCode(serviceOrderCode)
    ? await q.linkableServiceOrder(trx, scope, serviceOrderCode)
    : undefined;
  const so = found?.kind === kindName ? found : undefined;
  if (!so)
    p.add(
      kind.codes.unknown,
      `${kind.label} ${serviceOrderCode} does not exist in your office tree or its parent offices`,
    );
  const status = await q.lockRows(
    trx,
    'service_orders',
    [so?.id, current?.id].filter((id): id is string => id !== undefined),
  );
  if (so) so.status = (status.get(so.id) as typeof so.status) ?? so.status;
  if (current) current.status = (status.get(current.id) as typeof current.status) ?? current.status;
  return { wo, so, current, movingInside: !!so && current?.id === so.id };
}

/**
 * Placement: first, last, an index, or before/after a work order of the service order
 * (`insertion.relativePosition.unknown` for one it does not carry, or the work order itself).
 */
async function placementRule(
  trx: Db,
  scope: OfficeScope,
  t: Targets,
  req: ServiceOrderLinkRequest,
  p: Problems,
): Promise<Placement | undefined> {
  const { mode, relative } = req.insertion;
  const simple = simplePlacement(req.insertion);
  if (simple || !((mode === 'before' || mode === 'after') && relative && t.so)) return simple;
  const code = relative.code;
  const entries = isPossibleCode(code) ? await q.serviceOrderEntriesByCode(trx, scope, t.so.id, code) : [];
  const live = entries.filter((e) => e.status !== 'VALIDATED');
  const entry = live[0] ?? entries[0];
  if (live.length > 1)
    p.add(C.ruleViolated, `Several live work orders of ${t.so.code} carry the code ${code}`);
  else if (!entry || (t.wo && entry.work_order_id === t.wo.id))
    p.add(
      C.relativePositionUnknown,
      entry
        ? `relativePosition ${code} is the work order being linked`
        : `relativePosition ${code} is not a work order of ${t.so.code}`,
    );
  else return { mode, rank: entry.rank };
  return undefined;
}

/**
 * Office, status and size rules: the service order filed at or above the work order's office,
 * not completed or validated, and below its maximum of work orders (a move inside is never
 * full).
 */
async function officeStatusAndSizeRules(trx: Db, t: Targets, kind: Kind, instanceMax: number, p: Problems) {
  const { so, wo } = t;
  if (so && wo && !atOrBelow(wo.office_path, so.office_path))
    p.add(
      kind.codes.officeConflict,
      `${kind.label} ${so.code} is filed at ${so.office_code}, not at or above the office of work order ${wo.code} (${wo.office_code})`,
    );
  if (so?.status && isServiceOrderClosed(so.status))
    p.add(kind.codes.statusConflict, `${kind.label} ${so.code} is ${so.status}`);
  if (so && !t.movingInside) {
    const max = so.max_work_orders ?? instanceMax;
    if ((await q.serviceOrderCount(trx, so.id)) >= max)
      p.add(kind.codes.full, `${kind.label} ${so.code} already carries its maximum of ${max} work orders`);
  }
}

/**
 * Leaving rules: the service order the work order leaves is one the caller may take it out
 * of (`currentserviceorder.notlinked`), not completed or validated, and lets it go (a route
 * keeps its work orders completed or higher).
 */
function leavingRules(t: Targets, scope: OfficeScope, p: Problems) {
  const { current, wo } = t;
  if (!current || t.movingInside || !wo) return;
  if (!linkableFrom(scope, current.office_path)) {
    p.add(
      C.currentServiceOrderNotLinked,
      `Work order ${wo.code} is carried by a service order outside your office tree and its parent offices: you cannot take it out of it`,
    );
    return;
  }
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

/** Write: out of the service order it leaves, into this one at its place. */
async function write(
  trx: Db,
  so: q.ServiceOrderRow,
  wo: LinkedWorkOrder,
  leaving: { id: string } | undefined,
  placement: Placement,
) {
  if (leaving) await q.removeFromServiceOrder(trx, wo.id);
  const rank = await rankFor(trx, q.SERVICE_ORDER_ORDER, so.id, wo.id, placement);
  await q.placeInServiceOrder(trx, so.id, wo.id, rank);
  await q.touch(trx, 'service_orders', leaving ? [so.id, leaving.id] : [so.id]);
}
