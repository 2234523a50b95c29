/**
 * The timing of deliveries (spec: Delivery rules): success is a 2xx within 5 s; otherwise
 * retries with exponential back-off and jitter, at most 10 minutes apart, until 1 hour
 * after the event; attempts are kept 15 days. `FIELDWORK_WEBHOOKS_TIME_SCALE` multiplies
 * every one of these durations (a test runs the hour in seconds).
 */
export const DELIVERY_TIMEOUT_MS = 5_000;
/** Nominal delay after the first failed attempt; doubled after each following one. */
export const RETRY_BASE_MS = 5_000;
export const RETRY_MAX_DELAY_MS = 10 * 60_000;
export const RETRY_WINDOW_MS = 60 * 60_000;
export const RETENTION_MS = 15 * 24 * 60 * 60_000;
export const PURGE_EVERY_MS = 60 * 60_000;
/**
 * How long a claimed delivery stays with the worker that claimed it beyond its timeout:
 * if that worker dies, another one takes the delivery after this.
 */
export const LEASE_MARGIN_MS = 30_000;

/**
 * Delay before attempt `failed + 1`, after `failed` failed attempts: 5 s, 10 s, 20 s... up
 * to 10 min, each drawn in [75 %, 100 %] of its nominal value (jitter, so that callbacks
 * failing together do not come back together), times the scale.
 */
export function retryDelayMs(failed: number, scale = 1, random = Math.random()): number {
  const nominal = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_MS * 2 ** Math.max(0, failed - 1));
  return nominal * (0.75 + 0.25 * random) * scale;
}

/** Every duration of the delivery rules at a time scale. */
export function deliveryTimes(scale = 1) {
  return {
    timeoutMs: DELIVERY_TIMEOUT_MS * scale,
    windowMs: RETRY_WINDOW_MS * scale,
    retentionMs: RETENTION_MS * scale,
    purgeEveryMs: PURGE_EVERY_MS * scale,
    leaseMs: (DELIVERY_TIMEOUT_MS + LEASE_MARGIN_MS) * scale,
    retryDelayMs: (failed: number, random?: number) => retryDelayMs(failed, scale, random),
  };
}
export type DeliveryTimes = ReturnType<typeof deliveryTimes>;
