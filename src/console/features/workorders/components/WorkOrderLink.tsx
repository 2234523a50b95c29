/**
 * A work order's code as a link to its page: by code for a live one (the code names it), by
 * uuid for a validated one (its code may name a live work order since).
 */
import { AnchorLink } from '../../../components/links.tsx';
import { workordersPaths as paths } from '../paths.ts';

export function WorkOrderLink({ wo }: { wo: { workOrderCode: string; uuid: string; status: string } }) {
  return wo.status === 'VALIDATED' ? (
    <AnchorLink to={paths.workOrder.uuid} params={{ code: wo.uuid }} fw={500} size="sm" ff="monospace">
      {wo.workOrderCode}
    </AnchorLink>
  ) : (
    <AnchorLink
      to={paths.workOrder.detail}
      params={{ code: wo.workOrderCode }}
      fw={500}
      size="sm"
      ff="monospace"
    >
      {wo.workOrderCode}
    </AnchorLink>
  );
}
