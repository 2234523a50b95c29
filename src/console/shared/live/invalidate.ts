/**
 * What a change entry makes stale in the console's caches: the one place that knows which
 * query keys show which kind of record (the features' key factories start with these).
 * Only the queries on screen are read again (TanStack's `invalidateQueries`); the others are
 * marked stale and read when shown. A record held by an open edit form is not read again
 * under it (its ETag would change under the user's typing): the form says it changed.
 */
import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import type { ChangeEntry } from './entry.ts';

const WORK_ORDER: readonly QueryKey[] = [
  ['workorders'], // record page, list, activities, used items and their totals
  ['planning', 'needs'],
  ['planning', 'schedule'],
  ['planning', 'bookings'],
  ['planning', 'workOrders'],
  ['planning', 'diagnostic'],
  ['projectManagement'], // the linkers show their work orders' states
  ['board'],
];

/** By entry kind. Kinds not listed only refresh their record's history. */
export const STALE_BY_KIND: Readonly<Record<string, readonly QueryKey[]>> = {
  customer: [['referentials', 'customer']],
  site: [['referentials', 'site']],
  asset: [['referentials', 'asset']],
  item: [['catalog', 'items']],
  skill: [
    ['catalog', 'skills'],
    ['planning', 'reference', 'skills'],
  ],
  workOrder: WORK_ORDER,
  activity: WORK_ORDER,
  usedItem: WORK_ORDER,
  project: [['projectManagement', 'projects']],
  serviceOrder: [
    ['projectManagement', 'standard'],
    ['projectManagement', 'route'],
  ],
  subscription: [['webhooks', 'subscriptions']],
};

/** A record's history query key (features/history). */
export const historyKey = (kind: string, code: string) => ['history', kind, code.toUpperCase()] as const;

/**
 * Counts and search hits of the shell change when records come and go: marked stale, read
 * when next shown (Home is not read again for every record another user creates).
 */
const SHELL: readonly QueryKey[] = [['home'], ['palette']];

type RefetchType = 'active' | 'none';

/** A record an edit form holds: its kind and its code (upper case). */
export type HeldRecord = readonly [kind: string, code: string];

/** Whether a query shows a record an edit form holds: under its kind's keys, with its code. */
export function isHeldQuery(key: QueryKey, held: Iterable<HeldRecord>): boolean {
  for (const [kind, code] of held)
    if (
      (STALE_BY_KIND[kind] ?? []).some((prefix) => prefix.every((part, i) => key[i] === part)) &&
      key.some((part) => typeof part === 'string' && part.toUpperCase() === code)
    )
      return true;
  return false;
}

/**
 * After a reconnect that could not resume (what changed meanwhile is unknown): everything
 * marked stale and what is shown read again, except the records edit forms hold.
 */
export function reloadShown(qc: QueryClient, heldRecords: Iterable<HeldRecord>) {
  const held = [...heldRecords];
  void qc.invalidateQueries({ refetchType: 'none' });
  void qc.refetchQueries({ type: 'active', predicate: (q) => !isHeldQuery(q.queryKey, held) });
}

/**
 * The query keys `entry` makes stale, each with what to read again: `active` (the queries on
 * screen; a record held by an edit form is kept out when they are read, changeApplier) or
 * `none` (marked only: the shell's figures).
 */
export function staleKeys(entry: ChangeEntry): { queryKey: QueryKey; refetchType: RefetchType }[] {
  return [
    ...(STALE_BY_KIND[entry.kind] ?? []).map((queryKey) => ({ queryKey, refetchType: 'active' as const })),
    ...(entry.action === 'created' || entry.action === 'deleted' ? SHELL : []).map((queryKey) => ({
      queryKey,
      refetchType: 'none' as const,
    })),
    { queryKey: historyKey(entry.kind, entry.code), refetchType: 'active' },
  ];
}

/**
 * Applies entries to the caches in batches: the keys of the entries received within
 * `delayMs` are invalidated once (a burst of changes, an import, reads each shown query
 * once, not once an entry). The records edit forms hold are marked stale, never read again
 * under the user's typing (a list key, ['referentials', 'customer'], covers them too).
 */
export function changeApplier(
  qc: QueryClient,
  heldRecords: () => Iterable<HeldRecord>,
  delayMs = 150,
): (entry: ChangeEntry) => void {
  const notHeld = (q: Query) => !isHeldQuery(q.queryKey, heldRecords());
  const pending = new Map<string, { queryKey: QueryKey; refetchType: RefetchType }>();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const batch = [...pending.values()];
    pending.clear();
    for (const { queryKey, refetchType } of batch) {
      void qc.invalidateQueries({ queryKey, refetchType: 'none' });
      if (refetchType === 'active') void qc.refetchQueries({ queryKey, type: 'active', predicate: notHeld });
    }
  };
  return (entry) => {
    for (const k of staleKeys(entry)) {
      const id = JSON.stringify(k.queryKey);
      if (pending.get(id)?.refetchType !== 'none') pending.set(id, k);
    }
    if (!scheduled) {
      scheduled = true;
      setTimeout(flush, delayMs);
    }
  };
}
