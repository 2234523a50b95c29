import type { DomainModule } from '../../platform/domain.ts';
import { startDelivery, webhooksConfig } from './lifecycle.ts';
import { webhooksRoutes } from './routes.ts';
import type { WebhooksTables } from './tables.ts';

/**
 * Webhooks: subscriptions of applications (and console users) to event types, and their
 * delivery log. Events are recorded by `recordEvent` (src/server/events), which writes the
 * outbox this domain's tables hold, and delivered by the worker there.
 */
export const webhooks: DomainModule<WebhooksTables> = {
  name: 'webhooks',
  routes: webhooksRoutes,
  migrations: new URL('./migrations/', import.meta.url),
  config: webhooksConfig,
  start: startDelivery,
};
