/**
 * `/serviceorders/standard` and `/serviceorders/route`: the service orders of that kind in
 * the caller's office tree (keyset pages), searched by code (`?q=`), with how many work orders
 * each carries out of its maximum; a row opens its linker. One page for both kinds.
 */
import { Button, Group, Progress, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServiceOrderSummary } from '../../../../contract/projectManagement.ts';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../../components/layout/index.ts';
import { AnchorLink } from '../../../components/links.tsx';
import { ListFrame } from '../../../components/records/ListFrame.tsx';
import { useUrlSearchText } from '../../../components/useUrlSearchText.ts';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { projectPaths as paths, type ServiceOrderKind } from '../paths.ts';
import { useServiceOrderList } from '../queries.ts';
import type { ListSearch } from '../search.ts';

const routes = {
  standard: getRouteApi(paths.standard.list),
  route: getRouteApi(paths.route.list),
};

export function ServiceOrdersPage({ kind }: { kind: ServiceOrderKind }) {
  const { t } = useTranslation('projects');
  const navigate = useNavigate();
  const search = routes[kind].useSearch();
  const setSearch = (next: ListSearch) =>
    void navigate({ to: paths[kind].list, search: next, replace: true });
  const [text, setText] = useUrlSearchText(search, setSearch);
  const list = useServiceOrderList(kind, search.q);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  const detail = paths[kind].detail;

  const columns: Column<ServiceOrderSummary>[] = [
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
  ];

  return (
    <ListFrame>
      <PageHeader title={t(`${kind}.title`)} subtitle={t(`${kind}.subtitle`)} />
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('list.search')}
          placeholder={t('serviceOrder.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={300}
          data-testid="list-search"
        />
        <Text size="xs" c="dimmed" pb={10}>
          {t('list.sortedByCode')}
        </Text>
      </Group>
      {list.isPending ? (
        <LoadingState rows={8} label={t('list.loading')} />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : rows.length === 0 ? (
        search.q ? (
          <EmptyState
            title={t('list.noMatchTitle')}
            body={t('list.noMatch', { q: search.q })}
            action={
              <Button variant="default" onClick={() => setSearch({})}>
                {t('list.clear')}
              </Button>
            }
          />
        ) : (
          <EmptyState title={t(`${kind}.emptyTitle`)} body={t(`${kind}.empty`)} />
        )
      ) : (
        <VirtualTable
          rows={rows}
          columns={columns}
          rowKey={(r) => r.serviceOrderCode}
          onOpen={(r) => void navigate({ to: detail, params: { code: r.serviceOrderCode } })}
          hasMore={!!list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
          loadMore={() => list.fetchNextPage()}
          label={t(`${kind}.listLabel`)}
        />
      )}
    </ListFrame>
  );
}
