/**
 * Webhooks delivery's settings (FIELDWORK_WEBHOOKS_*, events/config.ts) and its worker
 * (events/worker.ts), started with the service unless disabled and stopped with it.
 */
import { parseWebhooksConfig, type WebhooksConfig } from '../../events/config.ts';
import type { Resolver } from '../../events/http.ts';
import { DeliveryWorker } from '../../events/worker.ts';
import type { DomainContext } from '../../platform/domain.ts';

declare module '../../config.ts' {
  interface AppConfig {
    /** Webhooks delivery (FIELDWORK_WEBHOOKS_*); absent: no delivery worker, private addresses refused. */
    webhooks?: WebhooksConfig;
  }
}

declare module '../../app.ts' {
  interface BuildOptions {
    /** Webhooks delivery: how callback hosts resolve, extra CAs for https callbacks (tests). */
    webhooks?: { resolve?: Resolver; ca?: string | Buffer };
  }
}

export const webhooksConfig = (env: NodeJS.ProcessEnv) => ({ webhooks: parseWebhooksConfig(env) });

/** The delivery worker, unless FIELDWORK_WEBHOOKS_WORKER=0. */
export async function startDelivery({ app, dbh, config, operations, options }: DomainContext) {
  if (!config.webhooks?.worker) return undefined;
  const worker = new DeliveryWorker({
    db: dbh.db,
    kind: dbh.kind,
    listen: dbh.kind === 'postgres' ? { schema: dbh.schema, on: dbh.listen } : undefined,
    log: app.log,
    timeScale: config.webhooks.timeScale,
    allowPrivate: config.webhooks.allowPrivate,
    concurrency: config.webhooks.concurrency,
    resolve: options.webhooks?.resolve,
    ca: options.webhooks?.ca,
    onAttempt: (delivered) => operations.deliveryAttempts.inc({ result: delivered ? 'delivered' : 'failed' }),
  });
  await worker.start();
  // Deliveries in flight finish and are recorded before the database closes.
  return () => worker.stop();
}
