/**
 * `/serviceorders/standard` and `/serviceorders/route`: the service orders of that kind in
 * the caller's office tree (keyset pages), searched by code (`?q=`), with how many work orders
 * each carries out of its maximum; a row opens its linker. One page for both kinds.
 */
import { Group, Progress, Text } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { ServiceOrderSummary } from '../../../../contract/projectManagement.ts';
import { AnchorLink } from '../../../components/links.tsx';
import { ResourceListPage } from '../../../components/lists/ResourceListPage.tsx';
import { defineList } from '../../../components/lists/resourceList.ts';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { projectPaths as paths, type ServiceOrderKind } from '../paths.ts';
import { projectKeys } from '../queries.ts';
import type { ListSearch } from '../search.ts';
import { projectsApi } from '../transport.ts';

function listOf(kind: ServiceOrderKind) {
  const detail = paths[kind].detail;
  return defineList<ServiceOrderSummary, ListSearch>({
    ns: 'projects',
    route: getRouteApi(paths[kind].list),
    text: {
      title: `${kind}.title`,
      subtitle: `${kind}.subtitle`,
      label: `${kind}.listLabel`,
      loading: 'list.loading',
      search: 'list.search',
      searchPlaceholder: 'serviceOrder.searchPlaceholder',
      emptyTitle: `${kind}.emptyTitle`,
      empty: `${kind}.empty`,
      noMatchTitle: 'list.noMatchTitle',
      noMatch: 'list.noMatch',
      clear: 'list.clear',
      sortedByCode: 'list.sortedByCode',
    },
    columns: ({ t }) => [
      {
        key: 'code',
        header: t('fields.code'),
        width: 220,
        render: (r) => (
          <AnchorLink to={detail} params={{ code: r.serviceOrderCode }} fw={500} size="sm">
            {r.serviceOrderCode}
          </AnchorLink>
        ),
      },
      { key: 'office', header: t('fields.office'), width: 130, render: (r) => r.officeCode },
      {
        key: 'status',
        header: t('fields.status'),
        width: 140,
        render: (r) => <StatusBadge status={r.status} />,
      },
      {
        key: 'count',
        header: t('fields.workOrders'),
        render: (r) => (
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
              {t('serviceOrder.countOf', { count: r.workOrderCount, max: r.maxWorkOrders })}
            </Text>
            <Progress
              value={Math.min(100, (100 * r.workOrderCount) / Math.max(1, r.maxWorkOrders))}
              color={r.workOrderCount >= r.maxWorkOrders ? 'orange' : 'blue'}
              w={120}
              size="sm"
              aria-label={t('serviceOrder.countOf', { count: r.workOrderCount, max: r.maxWorkOrders })}
            />
          </Group>
        ),
      },
    ],
    rowKey: (r) => r.serviceOrderCode,
    useOpen: () => {
      const navigate = useNavigate();
      return (r) => void navigate({ to: detail, params: { code: r.serviceOrderCode } });
    },
    source: {
      kind: 'pages',
      key: (s) => projectKeys.serviceOrderList(kind, s.q),
      page: (client, s, token, signal) => projectsApi(client).listServiceOrders(kind, s.q, token, signal),
    },
  });
}

const LISTS = { standard: listOf('standard'), route: listOf('route') };

export function ServiceOrdersPage({ kind }: { kind: ServiceOrderKind }) {
  return <ResourceListPage list={LISTS[kind]} />;
}
