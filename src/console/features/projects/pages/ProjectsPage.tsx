/**
 * `/projects`: the projects of the caller's office tree (keyset pages, infinite scroll),
 * searched by code (`?q=`, in the URL), sorted by code as the service answers; a row opens
 * the project's linker.
 */
import { Button, Group, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProjectSummary } from '../../../../contract/projectManagement.ts';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../../components/layout/index.ts';
import { AnchorLink } from '../../../components/links.tsx';
import { ListFrame } from '../../../components/records/ListFrame.tsx';
import { useUrlSearchText } from '../../../components/useUrlSearchText.ts';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { projectPaths as paths } from '../paths.ts';
import { useProjectList } from '../queries.ts';
import type { ListSearch } from '../search.ts';

const route = getRouteApi(paths.project.list);

const number = (n: number) => (
  <span style={{ display: 'block', textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>{n}</span>
);

export function ProjectsPage() {
  const { t } = useTranslation('projects');
  const navigate = route.useNavigate();
  const search = route.useSearch();
  const setSearch = (next: ListSearch) =>
    void navigate({ to: paths.project.list, search: next, replace: true });
  const [text, setText] = useUrlSearchText(search, setSearch);
  const list = useProjectList(search.q);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);

  const columns: Column<ProjectSummary>[] = [
    {
      key: 'code',
      header: t('fields.code'),
      width: 190,
      render: (r) => (
        <AnchorLink to={paths.project.detail} params={{ code: r.projectCode }} fw={500} size="sm">
          {r.projectCode}
        </AnchorLink>
      ),
    },
    { key: 'name', header: t('fields.name'), render: (r) => r.name },
    { key: 'office', header: t('fields.office'), width: 120, render: (r) => r.officeCode },
    {
      key: 'status',
      header: t('fields.status'),
      width: 130,
      render: (r) => <StatusBadge status={r.status} />,
    },
    {
      key: 'jobs',
      header: <span style={{ display: 'block', textAlign: 'right' }}>{t('fields.jobs')}</span>,
      width: 90,
      render: (r) => number(r.jobCount),
    },
    {
      key: 'workOrders',
      header: <span style={{ display: 'block', textAlign: 'right' }}>{t('fields.workOrders')}</span>,
      width: 130,
      render: (r) => number(r.workOrderCount),
    },
  ];

  return (
    <ListFrame>
      <PageHeader title={t('projects.title')} subtitle={t('projects.subtitle')} />
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('list.search')}
          placeholder={t('projects.searchPlaceholder')}
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
          <EmptyState title={t('projects.emptyTitle')} body={t('projects.empty')} />
        )
      ) : (
        <VirtualTable
          rows={rows}
          columns={columns}
          rowKey={(r) => r.projectCode}
          onOpen={(r) => void navigate({ to: paths.project.detail, params: { code: r.projectCode } })}
          hasMore={!!list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
          loadMore={() => list.fetchNextPage()}
          label={t('projects.listLabel')}
        />
      )}
    </ListFrame>
  );
}
