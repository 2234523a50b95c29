/**
 * The order of a container's entries (a project's jobs, a service order's work orders): an
 * order key (`rank`) per entry. An entry placed between two others takes the middle of their
 * keys; when they touch, the container is renumbered (keys 65,536 apart) in one statement.
 * Positions are counted in key order, so removing an entry never leaves a gap. Callers hold
 * the container's row lock, so two placements never compute the same key. In a project, an
 * entry placed after every other takes a key from a sequence instead (`lastKeySql`), so a
 * move last needs neither the other keys nor the lock.
 *
 * The rules are here; the statements that read and write the keys are in queries.ts
 * (`neighbourRanks`, `freeKeySql`, `renumber`), and the service's `rankFor` falls back to
 * renumbering when the neighbours touch.
 */
export const RANK_STEP = 65_536;
/** More entries than any container holds (a project's import takes 20,000 jobs at most). */
export const MAX_ENTRIES = 10_000_000;
/** Keys stay exact as JavaScript numbers; past this the container is renumbered. */
export const RANK_LIMIT = 2 ** 52;

/**
 * Where the entry goes, among the container's entries other than the work order placed:
 * `index` is the zero-based place it takes (past the end: last); `before`/`after` give the
 * order key of the entry it goes next to.
 */
export type Placement =
  | { mode: 'first' }
  | { mode: 'last' }
  | { mode: 'index'; position: number }
  | { mode: 'before'; rank: string }
  | { mode: 'after'; rank: string };

/** A key strictly between `prev` and `next` (either may be open), or undefined when they touch. */
export function keyBetween(prev: number | undefined, next: number | undefined): number | undefined {
  let key: number;
  if (prev === undefined) key = next === undefined ? 0 : next - RANK_STEP;
  else if (next === undefined) key = prev + RANK_STEP;
  else if (next - prev >= 2) key = prev + Math.floor((next - prev) / 2);
  else return undefined;
  return Math.abs(key) < RANK_LIMIT ? key : undefined;
}
