import { SERVICE_ORDER_MAX_DEFAULT } from '../../../contract/projectManagement.ts';

/**
 * FIELDWORK_SERVICE_ORDER_MAX: the work orders a service order may carry when its import
 * gives no `maxWorkOrders` (default 100). Read by config.ts (the service) and by the import.
 */
export function parseServiceOrderMax(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return SERVICE_ORDER_MAX_DEFAULT;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000)
    throw new Error('FIELDWORK_SERVICE_ORDER_MAX: a whole number from 1 to 1000000');
  return n;
}
