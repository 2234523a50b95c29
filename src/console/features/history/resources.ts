/**
 * Where each record kind's history is read: its history row in the contract
 * (contract/changes.ts `historyEndpoint`), and the change log's kind of its entries (what
 * the live stream names, ../../shared/live/invalidate.ts).
 */
export type HistoryResource =
  | 'customer'
  | 'site'
  | 'asset'
  | 'item'
  | 'skill'
  | 'workOrder'
  | 'project'
  | 'standardServiceOrder'
  | 'routeServiceOrder'
  | 'subscription';

/** Type-only: the feature's manifest loads with the shell, the paths with the panel (./paths.ts). */
export interface HistorySource {
  /** The entries' `kind` in the change log. */
  kind: string;
  /** The history row's path template (`<record path>/history`) and its code parameter. */
  path: string;
  param: string;
}
