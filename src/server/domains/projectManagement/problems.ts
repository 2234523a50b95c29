/**
 * The errors of a link, collected so that a refusal answers every one at once, in the order
 * of the spec's table: the body's (read in the contract) and those of the rules.
 */
import { CODE_PATTERN } from '../../../contract/common.ts';
import { type LinkProblem, SERVICE_ORDER_CODE_MAX } from '../../../contract/projectManagement.ts';
import { ApiError, type ErrorItem } from '../../platform/errors.ts';

/** Errors found so far, by code (one answer item per code, its messages joined). */
export class Problems {
  private readonly found = new Map<string, string[]>();
  add(code: string, message: string) {
    const list = this.found.get(code) ?? [];
    if (!list.includes(message)) list.push(message);
    this.found.set(code, list);
  }
  has(code: string) {
    return this.found.has(code);
  }
  get size() {
    return this.found.size;
  }
  /** A collector starting with the problems of a link body (contract: `readProjectLink`...). */
  static of(problems: readonly LinkProblem[]): Problems {
    const p = new Problems();
    for (const { code, message } of problems) p.add(code, message);
    return p;
  }
  /** The errors in the order of `table` (codes it does not hold come last). */
  errors(table: readonly string[]): ErrorItem[] {
    const rank = (code: string) => {
      const i = table.indexOf(code);
      return i < 0 ? table.length : i;
    };
    return [...this.found.entries()]
      .sort(([a], [b]) => rank(a) - rank(b))
      .map(([code, messages]) => ({ code, message: messages.join('; ') }));
  }
  /** Throws the 400 of every error found, if any. */
  throwIfAny(table: readonly string[]) {
    if (this.found.size > 0) throw new ApiError(400, this.errors(table));
  }
}

/** Whether a code could name a record at all: a code that cannot is simply unknown. */
export const isPossibleCode = (code: string) =>
  code.length <= SERVICE_ORDER_CODE_MAX && CODE_PATTERN.test(code);
