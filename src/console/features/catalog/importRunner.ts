/**
 * Writes the valid rows of an items CSV, one PUT at a time (the service's rate limit is per
 * application; one at a time keeps the order of the file and makes the progress exact).
 * Pure over the two calls it is given, so it is unit-tested in Node.
 */

import { type RetryOptions, withRateLimitRetry } from '../../app/pages.ts';
import { errorBodyOf, networkErrors } from '../../components/forms/serviceErrors.ts';
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
  return errorBodyOf(e) ?? { errors: networkErrors(e) };
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
