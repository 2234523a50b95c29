import { SERVICE_ORDER_MAX_DEFAULT } from '../../../contract/projectManagement.ts';

/**
 * FIELDWORK_SERVICE_ORDER_MAX: the work orders a service order may carry when its import
 * gives no `maxWorkOrders` (default 100). Read into the service's config (below) and by the import.
 */
export function parseServiceOrderMax(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return SERVICE_ORDER_MAX_DEFAULT;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000)
    throw new Error('FIELDWORK_SERVICE_ORDER_MAX: a whole number from 1 to 1000000');
  return n;
}

declare module '../../config.ts' {
  interface AppConfig {
    /** FIELDWORK_SERVICE_ORDER_MAX: work orders a service order carries without its own maximum (default 100). */
    serviceOrderMax?: number;
  }
}

export const projectManagementConfig = (env: NodeJS.ProcessEnv) => ({
  serviceOrderMax: parseServiceOrderMax(env.FIELDWORK_SERVICE_ORDER_MAX),
});
