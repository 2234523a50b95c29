/**
 * Writes the valid rows of an items CSV, one PUT at a time (the service's rate limit is per
 * application; one at a time keeps the order of the file and makes the progress exact).
 * Pure over the two calls it is given, so it is unit-tested in Node.
 */
import { mergeForImport } from './csv.ts';
import type { Item, ItemBody } from './model.ts';

export interface ImportCalls {
  /** The stored item, or null when the code is unknown (404). */
  get(code: string): Promise<Item | null>;
  put(code: string, body: ItemBody): Promise<'created' | 'updated'>;
}

export interface ServiceErrorItem {
  code: string;
  message: string;
}

export type RowOutcome =
  | { line: number; code: string; status: 'created' | 'updated' }
  | { line: number; code: string; status: 'failed'; errors: ServiceErrorItem[]; errorReference?: string };

export interface ImportSummary {
  created: number;
  updated: number;
  failed: number;
  /** Rows not attempted because the run was cancelled. */
  skipped: number;
  cancelled: boolean;
  outcomes: RowOutcome[];
}

/** Reads `{ errors, errorReference }` out of whatever a call threw. */
export function errorsOf(e: unknown): { errors: ServiceErrorItem[]; errorReference?: string } {
  const any = e as Record<string, unknown> | null;
  const body = (any?.body ?? any) as Record<string, unknown> | null;
  const errors = (body?.errors ?? any?.errors) as ServiceErrorItem[] | undefined;
  if (Array.isArray(errors) && errors.length > 0)
    return { errors, errorReference: (body?.errorReference ?? any?.errorReference) as string | undefined };
  return { errors: [{ code: 'network', message: e instanceof Error ? e.message : String(e) }] };
}

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
 * per hour), waits and tries again instead of failing the row or the export.
 */
export async function withRateLimitRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const delays = opts.delays ?? RATE_LIMIT_DELAYS;
  const sleep = opts.sleep ?? pause;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const status = (e as { status?: unknown } | null)?.status;
      if (status !== 429 || attempt >= delays.length || opts.signal?.aborted) throw e;
      opts.onWait?.(delays[attempt]);
      await sleep(delays[attempt], opts.signal);
      if (opts.signal?.aborted) throw e;
    }
  }
}

export async function runImport(
  rows: readonly { line: number; code: string; body: Partial<ItemBody> }[],
  calls: ImportCalls,
  opts: {
    signal?: AbortSignal;
    onProgress?: (done: number, outcome: RowOutcome) => void;
    retry?: Omit<RetryOptions, 'signal'>;
  } = {},
): Promise<ImportSummary> {
  const summary: ImportSummary = {
    created: 0,
    updated: 0,
    failed: 0,
    skipped: 0,
    cancelled: false,
    outcomes: [],
  };
  let done = 0;
  for (const row of rows) {
    if (opts.signal?.aborted) {
      summary.cancelled = true;
      summary.skipped = rows.length - done;
      break;
    }
    let outcome: RowOutcome;
    try {
      const retry = { ...opts.retry, signal: opts.signal };
      const existing = await withRateLimitRetry(() => calls.get(row.code), retry);
      const status = await withRateLimitRetry(
        () => calls.put(row.code, mergeForImport(existing, row.body)),
        retry,
      );
      outcome = { line: row.line, code: row.code, status };
      summary[status] += 1;
    } catch (e) {
      outcome = { line: row.line, code: row.code, status: 'failed', ...errorsOf(e) };
      summary.failed += 1;
    }
    done += 1;
    summary.outcomes.push(outcome);
    opts.onProgress?.(done, outcome);
  }
  return summary;
}
