/**
 * Reading a keyset list whole, and waiting out the rate limit while doing it: the console's
 * exports, imports and whole-list reads (skills, characteristics, a day of positions) go
 * through these, over the client's one page walk (`walkPages`).
 */
import { walkPages } from '../../client/index.ts';
import type { Page } from '../../contract/common.ts';
import { isRecord } from '../../contract/guards.ts';

/**
 * useInfiniteQuery's `getNextPageParam` of a keyset list: the next page's token, or undefined
 * at the end (a null token, or an empty page). Its declared types let the query infer its page
 * param (`string | undefined`) from `initialPageParam: undefined`.
 */
export const nextPageToken = (last: {
  data: readonly unknown[];
  continuationToken?: string | null;
}): string | undefined => (last.data.length > 0 && last.continuationToken) || undefined;

/** Waits `ms`, or less if the signal aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const id = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(id);
        resolve();
      },
      { once: true },
    );
  });
}

export interface RetryOptions {
  signal?: AbortSignal;
  /** Told before each wait (milliseconds), e.g. to show "rate limit reached, retrying in 10 s". */
  onWait?: (ms: number) => void;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Waits before giving up: 5, 10, 20, 40, 60, 60 seconds by default (the limits are per minute). */
  delays?: readonly number[];
}

const RATE_LIMIT_DELAYS = [5000, 10000, 20000, 40000, 60000, 60000];

/**
 * Runs `fn`; when the service answers 429 (rate limit of the application, per minute and
 * per hour), waits and tries again instead of failing the row or the export: as long as its
 * `Retry-After` says (the pace its rate range allows), else 5, 10, 20... seconds.
 */
export async function withRateLimitRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const delays = opts.delays ?? RATE_LIMIT_DELAYS;
  const sleep = opts.sleep ?? pause;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!isRecord(e) || e.status !== 429 || attempt >= delays.length || opts.signal?.aborted) throw e;
      const retryAfter = e.retryAfter;
      const ms = typeof retryAfter === 'number' && retryAfter >= 0 ? retryAfter * 1000 : delays[attempt];
      opts.onWait?.(ms);
      await sleep(ms, opts.signal);
      if (opts.signal?.aborted) throw e;
    }
  }
}

/**
 * Every element of a paginated list, page after page (a 429 waits and tries again);
 * `onPage` reports the running count. `from`: the rows read already and the continuation
 * token after them (a list partly loaded): the walk goes on from there.
 */
export async function readAll<T>(
  page: (token: string | undefined) => Promise<Page<T>>,
  opts: RetryOptions & {
    onPage?: (count: number) => void;
    from?: { rows: readonly T[]; token: string };
  } = {},
): Promise<T[]> {
  const out: T[] = [...(opts.from?.rows ?? [])];
  for await (const p of walkPages((token) => {
    if (opts.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    return withRateLimitRetry(() => page(token ?? opts.from?.token), opts);
  })) {
    out.push(...p.data);
    opts.onPage?.(out.length);
  }
  return out;
}
