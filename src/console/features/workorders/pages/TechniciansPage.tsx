/**
 * `/technicians`: the technicians of the caller's office tree by code (keyset pages
 * of 200), searched by text in the code or name (`?q=`); a row opens the technician's day.
 */
import { Badge, Group, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../../components/layout/index.ts';
import { AnchorLink } from '../../../components/links.tsx';
import { ListFrame } from '../../../components/records/ListFrame.tsx';
import { useUrlSearchText } from '../../../components/useUrlSearchText.ts';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { workordersPaths as paths } from '../paths.ts';
import { useTechnicianList } from '../queries.ts';
import type { TechniciansSearch } from '../search.ts';
import type { Technician } from '../transport.ts';

const route = getRouteApi(paths.technician.list);

export function TechniciansPage() {
  const { t } = useTranslation('workorders');
  const navigate = route.useNavigate();
  const search = route.useSearch();
  const setSearch = (next: TechniciansSearch) =>
    void navigate({ to: paths.technician.list, search: next, replace: true });
  const [text, setText] = useUrlSearchText(search, setSearch);
  const list = useTechnicianList({ q: search.q, officeCode: search.office });
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);

  const columns: Column<Technician>[] = [
    {
      key: 'code',
      header: t('technician.code'),
      width: 160,
      render: (r) => (
        <AnchorLink
          to={paths.technician.detail}
          params={{ code: r.technicianCode }}
          fw={500}
          size="sm"
          ff="monospace"
        >
          {r.technicianCode}
        </AnchorLink>
      ),
    },
    { key: 'name', header: t('technician.name'), render: (r) => r.name },
    { key: 'office', header: t('fields.office'), width: 120, render: (r) => r.officeCode },
    { key: 'skills', header: t('technician.skills'), width: 220, render: (r) => r.skills.join(', ') },
    {
      key: 'active',
      header: t('technician.state'),
      width: 110,
      render: (r) => (
        <Badge
          variant="light"
          color={r.active ? 'teal' : 'gray'}
          radius="sm"
          styles={{ label: { color: 'var(--mantine-color-text)' } }}
        >
          {r.active ? t('technician.active') : t('technician.inactive')}
        </Badge>
      ),
    },
  ];

  return (
    <ListFrame>
      <PageHeader title={t('technicians.title')} subtitle={t('technicians.subtitle')} />
      <Group gap="sm" align="flex-end" style={{ flexShrink: 0 }}>
        <TextInput
          label={t('technicians.search')}
          placeholder={t('technicians.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={300}
          data-testid="technicians-search"
        />
      </Group>
      {list.isPending ? (
        <LoadingState rows={8} label={t('technicians.loading')} />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState
          title={t('technicians.emptyTitle')}
          body={search.q ? t('technicians.noMatch') : t('technicians.empty')}
        />
      ) : (
        <VirtualTable
          rows={rows}
          columns={columns}
          rowKey={(r) => r.technicianCode}
          onOpen={(r) => void navigate({ to: paths.technician.detail, params: { code: r.technicianCode } })}
          hasMore={!!list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
          loadMore={() => void list.fetchNextPage()}
          label={t('technicians.label')}
        />
      )}
    </ListFrame>
  );
}
