/**
 * The History feature (issue 29 §2): a "History" tab on the record page of every kind the
 * change log names (who, when, which fields before -> after, filtered by actor, keyset
 * pages). No page of its own: only tabs added to the other features' record pages.
 */
import { defineFeature, type RecordTabManifest } from '../../app/feature.ts';
import { shell } from './i18n/shell.ts';
import type { HistoryResource } from './resources.ts';

/** The record pages (resource keys) that show the tab. */
const RESOURCES: readonly HistoryResource[] = [
  'customer',
  'site',
  'asset',
  'item',
  'skill',
  'workOrder',
  'project',
  'standardServiceOrder',
  'routeServiceOrder',
  'subscription',
];

const tab = (resource: HistoryResource): RecordTabManifest => ({
  resource,
  key: 'history',
  label: 'history:tab',
  load: () => import('./components/HistoryPanel.tsx').then((m) => m.historyPanelOf(resource)),
});

export const history = defineFeature({
  id: 'history',
  i18n: {
    shell,
    load: { en: () => import('./i18n/en.ts'), fr: () => import('./i18n/fr.ts') },
  },
  nav: [],
  resources: [],
  tabs: RESOURCES.map(tab),
  routes: () => [] as const,
});
