/**
 * A work order's code: a typed link to the work order page of the work orders feature
 * (`workordersPaths.workOrder.detail`; by code, the live work order carrying it).
 */
import { AnchorLink } from '../../../components/links.tsx';
import { workordersPaths } from '../../workorders/index.ts';

export function WorkOrderCode({ code, fw = 500 }: { code: string; fw?: number }) {
  return (
    <AnchorLink
      to={workordersPaths.workOrder.detail}
      params={{ code }}
      size="sm"
      fw={fw}
      ff="monospace"
      data-testid="work-order-code"
    >
      {code}
    </AnchorLink>
  );
}
