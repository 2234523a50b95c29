/** The history endpoint of each record kind, from the contract's record rows (loaded with the panel). */

import { fillPath } from '../../../client/index.ts';
import { getItem } from '../../../contract/businessOrganization.ts';
import { getWorkOrderByCode } from '../../../contract/fieldService.ts';
import {
  getProject,
  getRouteServiceOrder,
  getStandardServiceOrder,
} from '../../../contract/projectManagement.ts';
import { getAsset, getCustomer, getSite } from '../../../contract/referentials.ts';
import { putSkill } from '../../../contract/staff.ts';
import { deleteSubscription } from '../../../contract/webhooks.ts';
import type { HistoryResource, HistorySource } from './resources.ts';

const codeParam = (path: string) => /\{(\w+)\}$/.exec(path)?.[1] ?? 'code';
const source = (kind: string, recordPath: string): HistorySource => ({
  kind,
  recordPath,
  param: codeParam(recordPath),
});

export const HISTORY_SOURCES: Record<HistoryResource, HistorySource> = {
  customer: source('customer', getCustomer.path),
  site: source('site', getSite.path),
  asset: source('asset', getAsset.path),
  item: source('item', getItem.path),
  // Skills have no GET by code: their PUT names the record.
  skill: source('skill', putSkill.path),
  workOrder: source('workOrder', getWorkOrderByCode.path),
  project: source('project', getProject.path),
  standardServiceOrder: source('serviceOrder', getStandardServiceOrder.path),
  routeServiceOrder: source('serviceOrder', getRouteServiceOrder.path),
  // The subscription's path is its id (no GET by id: its DELETE names the record).
  subscription: source('subscription', deleteSubscription.path),
};

export function historyPath(s: HistorySource, code: string): string {
  return `${fillPath(s.recordPath, { [s.param]: code })}/history`;
}
