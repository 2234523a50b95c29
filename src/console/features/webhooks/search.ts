/**
 * The URL search params of the Webhooks routes, validated by the router (pages read them
 * through `getRouteApi`). Light on purpose: they load with the shell.
 */

/** Statuses of a delivery (the contract's DELIVERY_STATUSES; repeated here to keep zod out of the shell). */
export const LOG_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

/**
 * A subscription's page: the delivery log's status filter, and the delivery whose attempts
 * are open beside the log (a link reproduces the view).
 */
export interface SubscriptionSearch {
  status?: LogStatus;
  delivery?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function validateSubscriptionSearch(raw: Record<string, unknown>): SubscriptionSearch {
  const status = (LOG_STATUSES as readonly unknown[]).includes(raw.status)
    ? (raw.status as LogStatus)
    : undefined;
  const delivery =
    typeof raw.delivery === 'string' && UUID.test(raw.delivery) ? raw.delivery.toLowerCase() : undefined;
  return { status, delivery };
}
