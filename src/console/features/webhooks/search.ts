/**
 * The URL search params of the Webhooks routes, validated by the router (pages read them
 * through `getRouteApi`). Light on purpose: they load with the shell.
 */
import { isUuid, oneOf } from '../../app/searchParams.ts';

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

export function validateSubscriptionSearch(raw: Record<string, unknown>): SubscriptionSearch {
  const delivery =
    typeof raw.delivery === 'string' && isUuid(raw.delivery) ? raw.delivery.trim().toLowerCase() : undefined;
  return { status: oneOf(LOG_STATUSES, raw.status), delivery };
}
