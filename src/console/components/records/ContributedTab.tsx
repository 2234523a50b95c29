/**
 * The panel of a tab another feature adds to a record page (app/feature.ts `tabs`): its
 * component and its feature's strings load with the tab, once.
 */
import { Skeleton } from '@mantine/core';
import { type ComponentType, lazy, Suspense } from 'react';
import type { RecordTab, RecordTabProps } from '../../app/feature.ts';
import { loadNamespaces } from '../../i18n/index.ts';

const panels = new WeakMap<RecordTab, ComponentType<RecordTabProps>>();

function panelOf(tab: RecordTab): ComponentType<RecordTabProps> {
  let Panel = panels.get(tab);
  if (!Panel) {
    Panel = lazy(() =>
      Promise.all([tab.load(), loadNamespaces(tab.namespaces)]).then(([component]) => ({
        default: component,
      })),
    );
    panels.set(tab, Panel);
  }
  return Panel;
}

export function ContributedTab({ tab, ...props }: RecordTabProps & { tab: RecordTab }) {
  const Panel = panelOf(tab);
  return (
    <Suspense fallback={<Skeleton height={240} />}>
      <Panel {...props} />
    </Suspense>
  );
}
