import { createTestApp } from '../../testing/harness.ts';

/** The harness with rate limits out of the way: these tests send hundreds of calls a minute. */
export function createReferentialsTestApp() {
  const unlimited = { perMinute: 1_000_000, perHour: 1_000_000 };
  return createTestApp({ rateLimits: { high: unlimited, standard: unlimited, low: unlimited } });
}
