/**
 * `/staff/characteristics`: the characteristics, read-only (the API has no write for them:
 * the administrator loads them with the data import), filtered in the page (`?q=`).
 */
import { Alert, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { emptyCell } from '../../../components/lists/emptyCell.tsx';
import { ResourceListPage } from '../../../components/lists/ResourceListPage.tsx';
import { defineList } from '../../../components/lists/resourceList.ts';
import { matchesText } from '../../../components/matchesText.ts';
import type { Characteristic } from '../model.ts';
import { catalogPaths as paths } from '../paths.ts';
import { catalogKeys } from '../queries.ts';
import type { TextSearch } from '../search.ts';
import { catalogApi } from '../transport.ts';

function ReadOnlyNote() {
  const { t } = useTranslation('catalog');
  return (
    <Alert
      variant="light"
      color="blue"
      icon={<IconInfoCircle size={18} />}
      data-testid="characteristics-note"
      py="xs"
    >
      <Text size="sm">{t('characteristics.note')}</Text>
    </Alert>
  );
}

const characteristicsList = defineList<Characteristic, TextSearch>({
  ns: 'catalog',
  route: getRouteApi(paths.characteristic.list),
  text: {
    title: 'characteristics.title',
    subtitle: 'characteristics.subtitle',
    label: 'characteristics.listLabel',
    loading: 'items.loading',
    search: 'skills.search',
    searchPlaceholder: 'skills.searchPlaceholder',
    emptyTitle: 'characteristics.emptyTitle',
    empty: 'characteristics.empty',
    noMatchTitle: 'items.noMatchTitle',
    noMatch: 'skills.noMatch',
    clear: 'items.clearFilters',
  },
  searchBox: { testId: 'characteristics-search', width: 320, debounceMs: 150 },
  columns: ({ t }) => [
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
      render: (c) => (c.description ? <span title={c.description}>{c.description}</span> : emptyCell),
    },
  ],
  rowKey: (c) => c.characteristicCode,
  source: {
    kind: 'whole',
    key: catalogKeys.characteristics,
    page: (client, token, signal) => catalogApi(client).listCharacteristics(token, signal),
    matches: (c, q) => matchesText(q, c.characteristicCode, c.name, c.description),
  },
  countBadge: true,
  Notice: ReadOnlyNote,
});

export function CharacteristicsPage() {
  return <ResourceListPage list={characteristicsList} />;
}
