/**
 * `/staff/skills`: every skill (the list has no text filter: all pages of 500, filtered in
 * the page; the text lives in the URL, `?q=`), filling the page; create and edit in a modal.
 */
import { Button, Group, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus, IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../../components/layout/index.ts';
import { matchesText } from '../../../components/matchesText.ts';
import { ListFrame } from '../../../components/records/ListFrame.tsx';
import { useUrlSearchText } from '../../../components/useUrlSearchText.ts';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import type { Skill } from '../model.ts';
import { catalogPaths as paths } from '../paths.ts';
import { catalogKeys, useSkills } from '../queries.ts';
import type { TextSearch } from '../search.ts';

const route = getRouteApi(paths.skill.list);
/** The skill form (and the form code) loads when a skill is opened, not with the list. */
const SkillFormModal = lazy(() =>
  import('../components/SkillFormModal.tsx').then((m) => ({ default: m.SkillFormModal })),
);

export function SkillsPage() {
  const { t } = useTranslation('catalog');
  const qc = useQueryClient();
  const skills = useSkills();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const setSearch = (next: TextSearch) =>
    void navigate({ to: paths.skill.list, search: next, replace: true });
  const [q, setQ] = useUrlSearchText(search, setSearch, 150);
  const [editing, setEditing] = useState<Skill | null | undefined>(undefined);
  const all = skills.data ?? [];
  const rows = useMemo(() => all.filter((s) => matchesText(q, s.skillCode, s.name, s.description)), [all, q]);
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
    <ListFrame>
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
            <Button variant="default" onClick={() => setSearch({})}>
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
          label={t('skills.listLabel')}
        />
      )}
      {editing !== undefined && (
        <Suspense fallback={null}>
          <SkillFormModal
            opened
            skill={editing ?? null}
            existingCodes={codes}
            onClose={() => setEditing(undefined)}
            onSaved={() => qc.invalidateQueries({ queryKey: catalogKeys.skills })}
          />
        </Suspense>
      )}
    </ListFrame>
  );
}
