/**
 * `/staff/skills`: every skill (the list has no text filter: all pages of 500, filtered in
 * the page; the text lives in the URL, `?q=`), filling the page; create and edit in a modal,
 * opened by a row, its Edit button or "New skill".
 */
import { Button, Text, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { createContext, lazy, type ReactNode, Suspense, useContext, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../app/Can.tsx';
import type { RecordTab } from '../../../app/feature.ts';
import { emptyCell } from '../../../components/lists/emptyCell.tsx';
import { ResourceListPage } from '../../../components/lists/ResourceListPage.tsx';
import { defineList } from '../../../components/lists/resourceList.ts';
import { matchesText } from '../../../components/matchesText.ts';
import type { Skill } from '../model.ts';
import { catalogPaths as paths } from '../paths.ts';
import { catalogKeys } from '../queries.ts';
import type { TextSearch } from '../search.ts';
import { catalogApi, writeRows } from '../transport.ts';

/** The skill form (and the form code) loads when a skill is opened, not with the list. */
const SkillFormModal = lazy(() =>
  import('../components/SkillFormModal.tsx').then((m) => ({ default: m.SkillFormModal })),
);

/** The tabs other features add to a skill (its History), shown in its modal. */
const SkillTabs = createContext<readonly RecordTab[]>([]);

/** Opens the editor: a skill to edit, or null for a new one. */
const EditSkill = createContext<(skill: Skill | null) => void>(() => {});

function SkillEditor({ rows, children }: { rows: readonly Skill[]; children: ReactNode }) {
  const qc = useQueryClient();
  const tabs = useContext(SkillTabs);
  const [editing, setEditing] = useState<Skill | null | undefined>(undefined);
  const codes = useMemo(() => new Set(rows.map((s) => s.skillCode.toUpperCase())), [rows]);
  return (
    <EditSkill.Provider value={setEditing}>
      {children}
      {editing !== undefined && (
        <Suspense fallback={null}>
          <SkillFormModal
            opened
            skill={editing}
            existingCodes={codes}
            onClose={() => setEditing(undefined)}
            onSaved={() => qc.invalidateQueries({ queryKey: catalogKeys.skills })}
            tabs={tabs}
          />
        </Suspense>
      )}
    </EditSkill.Provider>
  );
}

function NewSkillButton({ testId }: { testId?: string }) {
  const { t } = useTranslation('catalog');
  const edit = useContext(EditSkill);
  return (
    <Can call={writeRows.skill}>
      <Button leftSection={<IconPlus size={16} />} onClick={() => edit(null)} data-testid={testId}>
        {t('skills.new')}
      </Button>
    </Can>
  );
}

function EditButton({ skill }: { skill: Skill }) {
  const { t } = useTranslation('catalog');
  const edit = useContext(EditSkill);
  return (
    <Can call={writeRows.skill}>
      <Button
        size="compact-sm"
        variant="subtle"
        leftSection={<IconPencil size={14} />}
        onClick={(e) => {
          e.stopPropagation();
          edit(skill);
        }}
        aria-label={t('skills.editOne', { code: skill.skillCode })}
      >
        {t('skills.edit')}
      </Button>
    </Can>
  );
}

const skillsList = defineList<Skill, TextSearch>({
  ns: 'catalog',
  route: getRouteApi(paths.skill.list),
  text: {
    title: 'skills.title',
    subtitle: 'skills.subtitle',
    label: 'skills.listLabel',
    loading: 'items.loading',
    search: 'skills.search',
    searchPlaceholder: 'skills.searchPlaceholder',
    matching: 'skills.matching',
    emptyTitle: 'skills.emptyTitle',
    empty: 'skills.empty',
    noMatchTitle: 'items.noMatchTitle',
    noMatch: 'skills.noMatch',
    clear: 'items.clearFilters',
  },
  searchBox: { testId: 'skills-search', width: 320, debounceMs: 150 },
  columns: ({ t }) => [
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
      render: (s) => (s.description ? <span title={s.description}>{s.description}</span> : emptyCell),
    },
    {
      key: 'edit',
      header: <VisuallyHidden>{t('skills.edit')}</VisuallyHidden>,
      width: 96,
      render: (s) => <EditButton skill={s} />,
    },
  ],
  rowKey: (s) => s.skillCode,
  useOpen: () => useContext(EditSkill),
  source: {
    kind: 'whole',
    key: catalogKeys.skills,
    page: (client, token, signal) => catalogApi(client).listSkills(token, signal),
    matches: (s, q) => matchesText(q, s.skillCode, s.name, s.description),
  },
  countBadge: true,
  Actions: () => <NewSkillButton testId="new-skill" />,
  EmptyAction: () => <NewSkillButton />,
  Around: SkillEditor,
});

export function SkillsPage({ tabs }: { tabs: readonly RecordTab[] }) {
  return (
    <SkillTabs.Provider value={tabs}>
      <ResourceListPage list={skillsList} />
    </SkillTabs.Provider>
  );
}
