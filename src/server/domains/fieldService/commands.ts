import type { Command } from 'commander';
import { CODE_PATTERN, foldCode } from '../../../contract/common.ts';
import { actorOf } from '../../events/index.ts';
import type { CommandHost } from '../../platform/domain.ts';
import { ApiError } from '../../platform/errors.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import {
  deleteWorkOrder,
  findWorkOrder,
  type LifecycleOutcome,
  validateWorkOrder,
  type WorkOrderRef,
} from './service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `workorders validate|delete`: the work order lifecycle (the webhooks announce both). */
export function fieldServiceCommands(program: Command, cli: CommandHost) {
  const workOrders = program
    .command('workorders')
    .description('Work order lifecycle: validate or delete a work order (the webhooks announce both)');

  /** A uuid names that work order; anything else is a code (the live work order carrying it). */
  const workOrderRefOf = (name: string): WorkOrderRef => {
    if (UUID.test(name)) return { uuid: name.toLowerCase() };
    if (!CODE_PATTERN.test(name) || name.length > 200)
      throw cli.failure(`${name} is neither a work order code nor a uuid`);
    return { code: foldCode(name) };
  };

  const lifecycle = (
    verb: 'validate' | 'delete',
    description: string,
    run: typeof validateWorkOrder,
    done: (o: LifecycleOutcome) => string,
  ) =>
    workOrders
      .command(verb)
      .description(description)
      .argument('<codeOrUuid>', 'work order uuid, or code (the live work order carrying it)')
      .option('--json', 'print a JSON object')
      .action(async (name: string, opts: { json?: boolean }) => {
        const ref = workOrderRefOf(name);
        const outcome = await cli.withDb(`workorders ${verb}`, async (db) => {
          // Every office: the operator's command sees the whole tree.
          const scope: OfficeScope = { officeId: '0', officeCode: '', path: '/' };
          const found = await findWorkOrder(db, scope, ref);
          if ('missing' in found) throw cli.failure(`no work order ${name}`);
          if ('ambiguous' in found)
            throw cli.failure(
              `several live work orders carry ${name.toUpperCase()}; give the uuid of one:\n${found.ambiguous
                .map((w) => `  ${w.uuid}  ${w.status}  ${w.office_code}`)
                .join('\n')}`,
            );
          try {
            return await run(
              db,
              scope,
              { uuid: found.found.uuid },
              actorOf({ process: 'fieldwork workorders' }),
            );
          } catch (e) {
            if (e instanceof ApiError)
              throw cli.failure(e.errors.map((x) => `${x.message} (${x.code})`).join('; '));
            throw e;
          }
        });
        cli.stdout(opts.json ? `${JSON.stringify(outcome, null, 2)}\n` : `${done(outcome)}\n`);
      });
  lifecycle(
    'validate',
    'Set the status VALIDATED (refused for a CANCELLED or VALIDATED work order); records workorder.validation',
    validateWorkOrder,
    (o) => `work order ${o.workOrderCode} (${o.uuid}, office ${o.officeCode}) validated at ${o.at}`,
  );
  lifecycle(
    'delete',
    'Delete the work order with its activities, used items, flags, notes and links; records workorder.deletion',
    deleteWorkOrder,
    (o) =>
      `work order ${o.workOrderCode} (${o.uuid}, office ${o.officeCode}) deleted with ${o.activities} activities and ${o.usedItems} used items`,
  );
}
