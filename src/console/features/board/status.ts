/** A work order's colour on the board, by status (Mantine colour names). */
import type { WorkOrderStatus } from '../../../contract/fieldService.ts';

const COLORS: Record<WorkOrderStatus, string> = {
  NEW: 'gray',
  QUALIFIED: 'cyan',
  PRE_SCHEDULED: 'grape',
  SCHEDULED: 'blue',
  IN_PROGRESS: 'orange',
  COMPLETED: 'teal',
  VALIDATED: 'green',
  CANCELLED: 'red',
};

export const statusColor = (status: WorkOrderStatus): string => COLORS[status];
/** The statuses a board bar shows (the legend). */
export const BAR_STATUSES: readonly WorkOrderStatus[] = [
  'PRE_SCHEDULED',
  'SCHEDULED',
  'IN_PROGRESS',
  'COMPLETED',
];
