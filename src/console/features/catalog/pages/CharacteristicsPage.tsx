/**
 * `/staff/characteristics`: the characteristics, read-only (the API has no write for them:
 * the administrator loads them with the data import), filtered in the page (`?q=`).
 */
import { Alert, Group, Text, TextInput } from '@mantine/core';
import { IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../../components/layout/index.ts';
import { matchesText } from '../../../components/matchesText.ts';
import { ListFrame } from '../../../components/records/ListFrame.tsx';
import { useUrlSearchText } from '../../../components/useUrlSearchText.ts';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import type { Characteristic } from '../model.ts';
import { catalogPaths as paths } from '../paths.ts';
import { useCharacteristics } from '../queries.ts';
import type { TextSearch } from '../search.ts';

const route = getRouteApi(paths.characteristic.list);

export function CharacteristicsPage() {
  const { t } = useTranslation('catalog');
  const list = useCharacteristics();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const setSearch = (next: TextSearch) =>
    void navigate({ to: paths.characteristic.list, search: next, replace: true });
  const [q, setQ] = useUrlSearchText(search, setSearch, 150);
  const all = list.data ?? [];
  const rows = useMemo(
    () => all.filter((c) => matchesText(q, c.characteristicCode, c.name, c.description)),
    [all, q],
  );
  const columns: Column<Characteristic>[] = [
    {
      key: 'code',
      header: t('characteristics.fields.code'),
      width: 200,
      render: (c) => (
        <Text span fw={500} size="sm">
          {c.characteristicCode}
        </Text>
      ),
    },
    { key: 'name', header: t('characteristics.fields.name'), width: 280, render: (c) => c.name ?? '' },
    {
      key: 'description',
      header: t('characteristics.fields.description'),
      render: (c) =>
        c.description ? (
          <span title={c.description}>{c.description}</span>
        ) : (
          <Text span c="dimmed" size="sm">
            —
          </Text>
        ),
    },
  ];

  return (
    <ListFrame>
      <PageHeader
        title={t('characteristics.title')}
        subtitle={t('characteristics.subtitle')}
        badge={list.data ? <StatusBadge color="gray">{list.data.length}</StatusBadge> : undefined}
      />
      <Alert
        variant="light"
        color="blue"
        icon={<IconInfoCircle size={18} />}
        data-testid="characteristics-note"
        py="xs"
      >
        <Text size="sm">{t('characteristics.note')}</Text>
      </Alert>
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('skills.search')}
          placeholder={t('skills.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          w={320}
          data-testid="characteristics-search"
        />
      </Group>
      {list.isPending ? (
        <LoadingState rows={6} label={t('items.loading')} />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : all.length === 0 ? (
        <EmptyState title={t('characteristics.emptyTitle')} body={t('characteristics.empty')} />
      ) : rows.length === 0 ? (
        <EmptyState title={t('items.noMatchTitle')} body={t('skills.noMatch', { q })} />
      ) : (
        <VirtualTable
          rows={rows}
          columns={columns}
          rowKey={(c) => c.characteristicCode}
          hasMore={false}
          loadingMore={false}
          loadMore={() => {}}
          label={t('characteristics.listLabel')}
        />
      )}
    </ListFrame>
  );
}
