/**
 * `/staff/skills`: every skill (all pages of 500), filtered in the page by a search box;
 * create and edit in a modal.
 */
import { Button, Group, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus, IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../../components/layout/index.ts';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { SkillFormModal } from '../components/SkillFormModal.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import type { Skill } from '../model.ts';
import { catalogKeys, useSkills } from '../queries.ts';

/** Case- and accent-insensitive match of every word of `q` in the code, name or description. */
export function matchesSearch(q: string, ...fields: (string | null | undefined)[]): boolean {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  const hay = fold(fields.filter(Boolean).join(' '));
  return fold(q)
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

export function SkillsPage() {
  const { t } = useTranslation('catalog');
  const qc = useQueryClient();
  const skills = useSkills();
  const [q, setQ] = useState('');
  const [editing, setEditing] = useState<Skill | null | undefined>(undefined);
  const all = skills.data ?? [];
  const rows = useMemo(
    () => all.filter((s) => matchesSearch(q, s.skillCode, s.name, s.description)),
    [all, q],
  );
  const codes = useMemo(() => new Set(all.map((s) => s.skillCode.toUpperCase())), [all]);

  const columns: Column<Skill>[] = [
    {
      key: 'code',
      header: t('skills.fields.code'),
      width: 180,
      render: (s) => (
        <Text span fw={500} size="sm">
          {s.skillCode}
        </Text>
      ),
    },
    { key: 'name', header: t('skills.fields.name'), width: 260, render: (s) => s.name },
    {
      key: 'description',
      header: t('skills.fields.description'),
      render: (s) =>
        s.description ? (
          <span title={s.description}>{s.description}</span>
        ) : (
          <Text span c="dimmed" size="sm">
            —
          </Text>
        ),
    },
    {
      key: 'edit',
      header: <VisuallyHidden>{t('skills.edit')}</VisuallyHidden>,
      width: 96,
      render: (s) => (
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconPencil size={14} />}
          onClick={(e) => {
            e.stopPropagation();
            setEditing(s);
          }}
          aria-label={t('skills.editOne', { code: s.skillCode })}
        >
          {t('skills.edit')}
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={t('skills.title')}
        subtitle={t('skills.subtitle')}
        badge={skills.data ? <StatusBadge color="gray">{skills.data.length}</StatusBadge> : undefined}
        actions={
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setEditing(null)}
            data-testid="new-skill"
          >
            {t('skills.new')}
          </Button>
        }
      />
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('skills.search')}
          placeholder={t('skills.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          w={320}
          data-testid="skills-search"
        />
        {q && skills.data && (
          <Text size="sm" c="dimmed" pb={8}>
            {t('skills.matching', { count: rows.length, total: all.length })}
          </Text>
        )}
      </Group>
      {skills.isPending ? (
        <LoadingState rows={6} label={t('items.loading')} />
      ) : skills.isError ? (
        <ErrorState error={skills.error} onRetry={() => skills.refetch()} />
      ) : all.length === 0 ? (
        <EmptyState
          title={t('skills.emptyTitle')}
          body={t('skills.empty')}
          action={
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)}>
              {t('skills.new')}
            </Button>
          }
        />
      ) : rows.length === 0 ? (
        <EmptyState
          title={t('items.noMatchTitle')}
          body={t('skills.noMatch', { q })}
          action={
            <Button variant="default" onClick={() => setQ('')}>
              {t('items.clearFilters')}
            </Button>
          }
        />
      ) : (
        <VirtualTable
          rows={rows}
          columns={columns}
          rowKey={(s) => s.skillCode}
          onOpen={(s) => setEditing(s)}
          hasMore={false}
          loadingMore={false}
          loadMore={() => {}}
          height={`min(calc(100dvh - 290px), ${92 + rows.length * 41}px)`}
          label={t('skills.listLabel')}
        />
      )}
      <SkillFormModal
        opened={editing !== undefined}
        skill={editing ?? null}
        existingCodes={codes}
        onClose={() => setEditing(undefined)}
        onSaved={() => qc.invalidateQueries({ queryKey: catalogKeys.skills })}
      />
    </Stack>
  );
}
