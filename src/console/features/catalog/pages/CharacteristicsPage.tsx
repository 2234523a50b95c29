/**
 * `/staff/characteristics`: the characteristics, read-only (the API has no write for them;
 * they come from the import file), filtered in the page.
 */
import { Alert, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../../components/layout/index.ts';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import type { Characteristic } from '../model.ts';
import { useCharacteristics } from '../queries.ts';
import { matchesSearch } from './SkillsPage.tsx';

export function CharacteristicsPage() {
  const { t } = useTranslation('catalog');
  const list = useCharacteristics();
  const [q, setQ] = useState('');
  const all = list.data ?? [];
  const rows = useMemo(
    () => all.filter((c) => matchesSearch(q, c.characteristicCode, c.name, c.description)),
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
    <Stack gap="md">
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
      >
        <Text size="sm">
          {t('characteristics.note')} <Code>npx fieldwork import FILE.json</Code>{' '}
          {t('characteristics.noteKey')} <Code>characteristics</Code>.
        </Text>
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
          height={`min(calc(100dvh - 340px), ${92 + rows.length * 41}px)`}
          label={t('characteristics.listLabel')}
        />
      )}
    </Stack>
  );
}
