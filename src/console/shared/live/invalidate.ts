/**
 * What a change entry makes stale in the console's caches: the one place that knows which
 * query keys show which kind of record (the features' key factories start with these).
 * Only the queries on screen are read again (TanStack's `invalidateQueries`); the others are
 * marked stale and read when shown. A record held by an open edit form is not read again
 * under it (its ETag would change under the user's typing): the form says it changed.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
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

/** Counts and search hits of the shell change when records come and go. */
const SHELL: readonly QueryKey[] = [['home'], ['palette']];

/**
 * Marks what `entry` concerns as stale. `held(kind, code)`: an edit form holds that record,
 * whose queries are then marked stale without being read again.
 */
export function applyChange(
  qc: QueryClient,
  entry: ChangeEntry,
  held: (kind: string, code: string) => boolean,
) {
  const keys = [...(STALE_BY_KIND[entry.kind] ?? [])];
  if (entry.action === 'created' || entry.action === 'deleted') keys.push(...SHELL);
  const refetchType = held(entry.kind, entry.code) ? 'none' : 'active';
  return Promise.all([
    ...keys.map((queryKey) => qc.invalidateQueries({ queryKey, refetchType })),
    qc.invalidateQueries({ queryKey: historyKey(entry.kind, entry.code) }),
  ]);
}
