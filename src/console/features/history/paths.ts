/** The history row of each record kind in the contract (loaded with the panel, not the shell). */
import { fillPath } from '../../../client/index.ts';
import { getItemHistory } from '../../../contract/businessOrganization.ts';
import { getWorkOrderHistoryByCode } from '../../../contract/fieldService.ts';
import {
  getProjectHistory,
  getRouteServiceOrderHistory,
  getStandardServiceOrderHistory,
} from '../../../contract/projectManagement.ts';
import { getAssetHistory, getCustomerHistory, getSiteHistory } from '../../../contract/referentials.ts';
import { getSkillHistory } from '../../../contract/staff.ts';
import { getSubscriptionHistory } from '../../../contract/webhooks.ts';
import type { HistoryResource, HistorySource } from './resources.ts';

/** The row's one path parameter: the record's code (or a subscription's id). */
const source = (kind: string, row: { path: string }): HistorySource => ({
  kind,
  path: row.path,
  param: /\{(\w+)\}\/history$/.exec(row.path)?.[1] ?? 'code',
});

export const HISTORY_SOURCES: Record<HistoryResource, HistorySource> = {
  customer: source('customer', getCustomerHistory),
  site: source('site', getSiteHistory),
  asset: source('asset', getAssetHistory),
  item: source('item', getItemHistory),
  skill: source('skill', getSkillHistory),
  workOrder: source('workOrder', getWorkOrderHistoryByCode),
  project: source('project', getProjectHistory),
  standardServiceOrder: source('serviceOrder', getStandardServiceOrderHistory),
  routeServiceOrder: source('serviceOrder', getRouteServiceOrderHistory),
  subscription: source('subscription', getSubscriptionHistory),
};

export function historyPath(s: HistorySource, code: string): string {
  return fillPath(s.path, { [s.param]: code });
}
