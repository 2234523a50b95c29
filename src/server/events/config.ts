/** Settings of webhooks delivery, read from the environment (docs/operations.md, Configuration). */
export interface WebhooksConfig {
  /** Run the delivery worker in this process (FIELDWORK_WEBHOOKS_WORKER, default on). */
  worker: boolean;
  /**
   * Callbacks to private, loopback and link-local addresses, and http:// to them
   * (FIELDWORK_WEBHOOKS_ALLOW_PRIVATE=1; default off: no SSRF into the operator's network).
   */
  allowPrivate: boolean;
  /** Multiplies every delay, timeout and window of delivery (FIELDWORK_WEBHOOKS_TIME_SCALE, default 1). */
  timeScale: number;
  /** Deliveries in flight at once per process (FIELDWORK_WEBHOOKS_CONCURRENCY, default 16). */
  concurrency: number;
}

function flag(name: string, text: string | undefined, fallback: boolean): boolean {
  const value = text?.trim().toLowerCase();
  if (!value) return fallback;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new Error(`${name}: 1 or 0`);
}

export function parseWebhooksConfig(env: NodeJS.ProcessEnv): WebhooksConfig {
  const scale = env.FIELDWORK_WEBHOOKS_TIME_SCALE?.trim() ? Number(env.FIELDWORK_WEBHOOKS_TIME_SCALE) : 1;
  if (!Number.isFinite(scale) || scale <= 0 || scale > 1000)
    throw new Error(
      'FIELDWORK_WEBHOOKS_TIME_SCALE: a number above 0 (1 = real time, 0.001 = an hour in 3.6 s)',
    );
  const concurrency = env.FIELDWORK_WEBHOOKS_CONCURRENCY?.trim()
    ? Number(env.FIELDWORK_WEBHOOKS_CONCURRENCY)
    : 16;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1000)
    throw new Error('FIELDWORK_WEBHOOKS_CONCURRENCY: an integer from 1 to 1000');
  return {
    worker: flag('FIELDWORK_WEBHOOKS_WORKER', env.FIELDWORK_WEBHOOKS_WORKER, true),
    allowPrivate: flag('FIELDWORK_WEBHOOKS_ALLOW_PRIVATE', env.FIELDWORK_WEBHOOKS_ALLOW_PRIVATE, false),
    timeScale: scale,
    concurrency,
  };
}
