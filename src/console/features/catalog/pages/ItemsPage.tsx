/**
 * `/catalog/items`: the item catalog as a virtualized grid over the keyset pages of the list
 * (infinite scroll) filling the page, filtered by text, category and active state, the
 * filters living in the URL (the route's search params); sorted by code, as the service
 * answers; CSV import and export; "New item".
 */
import { Button, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFileImport, IconPlus } from '@tabler/icons-react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { createContext, lazy, type ReactNode, Suspense, useContext, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../app/Can.tsx';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { emptyCell } from '../../../components/lists/emptyCell.tsx';
import { ResourceListPage } from '../../../components/lists/ResourceListPage.tsx';
import { defineList, type ListPartProps } from '../../../components/lists/resourceList.ts';
import { ExportItemsButton } from '../components/ExportItemsButton.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import type { Item } from '../model.ts';
import { catalogPaths as paths } from '../paths.ts';
import { catalogKeys, useItemCategories } from '../queries.ts';
import type { ItemsSearch } from '../search.ts';
import { catalogApi, type ItemsQuery, writeRows } from '../transport.ts';

/** The CSV import (and its parser) loads when opened, not with the list. */
const ImportItemsModal = lazy(() =>
  import('../components/ImportItemsModal.tsx').then((m) => ({ default: m.ImportItemsModal })),
);

/** The import modal, opened by the header's button and by the empty list's. */
const ImportOpen = createContext<() => void>(() => {});

function ImportScope({ children }: { rows: readonly Item[]; children: ReactNode }) {
  const [open, modal] = useDisclosure(false);
  return (
    <ImportOpen.Provider value={modal.open}>
      {children}
      {open && (
        <Suspense fallback={null}>
          <ImportItemsModal opened onClose={modal.close} />
        </Suspense>
      )}
    </ImportOpen.Provider>
  );
}

function ImportButton({ testId }: { testId?: string }) {
  const { t } = useTranslation('catalog');
  const open = useContext(ImportOpen);
  return (
    <Can call={writeRows.item}>
      <Button
        variant="default"
        leftSection={<IconFileImport size={16} />}
        onClick={open}
        data-testid={testId}
      >
        {t('csv.import')}
      </Button>
    </Can>
  );
}

function NewItemButton({ testId }: { testId?: string }) {
  const { t } = useTranslation('catalog');
  return (
    <Can call={writeRows.item}>
      <ButtonLink to={paths.item.new} leftSection={<IconPlus size={16} />} data-testid={testId}>
        {t('items.new')}
      </ButtonLink>
    </Can>
  );
}

const query = (s: ItemsSearch): ItemsQuery => ({ q: s.q, category: s.category, active: s.active });

function CategoryFilter({ search, setSearch }: ListPartProps<ItemsSearch, Item>) {
  const { t } = useTranslation('catalog');
  const categories = useItemCategories();
  const data = useMemo(() => {
    const all = [...(categories.data ?? [])];
    if (search.category && !all.includes(search.category)) all.unshift(search.category);
    return all;
  }, [categories.data, search.category]);
  return (
    <>
      <Select
        label={t('item.fields.category')}
        placeholder={t('items.allCategories')}
        data={data}
        value={search.category ?? null}
        onChange={(v) => setSearch({ ...search, category: v ?? undefined })}
        clearable
        searchable
        nothingFoundMessage={t('items.noCategory')}
        w={220}
        data-testid="items-category"
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} component="span" id="items-active-label">
          {t('items.state')}
        </Text>
        <SegmentedControl
          aria-labelledby="items-active-label"
          value={search.active === undefined ? 'all' : String(search.active)}
          onChange={(v) => setSearch({ ...search, active: v === 'all' ? undefined : v === 'true' })}
          data={[
            { value: 'all', label: t('items.all') },
            { value: 'true', label: t('items.active') },
            { value: 'false', label: t('items.inactive') },
          ]}
          data-testid="items-active"
        />
      </Stack>
    </>
  );
}

const itemsList = defineList<Item, ItemsSearch>({
  ns: 'catalog',
  route: getRouteApi(paths.item.list),
  text: {
    title: 'items.title',
    subtitle: 'items.subtitle',
    label: 'items.listLabel',
    loading: 'items.loading',
    search: 'items.search',
    searchPlaceholder: 'items.searchPlaceholder',
    emptyTitle: 'items.emptyTitle',
    empty: 'items.empty',
    noMatchTitle: 'items.noMatchTitle',
    noMatch: 'items.noMatch',
    clear: 'items.clearFilters',
    sortedByCode: 'items.sortedByCode',
  },
  searchBox: { testId: 'items-search' },
  columns: ({ t, lang }) => {
    const money = new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return [
      {
        key: 'code',
        header: t('item.fields.itemCode'),
        width: 170,
        render: (r) => (
          <AnchorLink to={paths.item.detail} params={{ code: r.itemCode }} fw={500} size="sm">
            {r.itemCode}
          </AnchorLink>
        ),
      },
      { key: 'name', header: t('item.fields.name'), render: (r) => r.name },
      {
        key: 'category',
        header: t('item.fields.category'),
        width: 170,
        render: (r) => (r.category ? r.category : emptyCell),
      },
      {
        key: 'unit',
        header: t('item.fields.unit'),
        width: 100,
        render: (r) => (r.unit ? r.unit : emptyCell),
      },
      {
        key: 'unitPrice',
        header: <span style={{ display: 'block', textAlign: 'right' }}>{t('item.fields.unitPrice')}</span>,
        width: 130,
        render: (r) => (
          <span style={{ display: 'block', textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
            {r.unitPrice === null || r.unitPrice === undefined ? emptyCell : money.format(r.unitPrice)}
          </span>
        ),
      },
      {
        key: 'active',
        header: t('item.fields.active'),
        width: 110,
        render: (r) =>
          r.active === false ? (
            <StatusBadge color="gray" radius="sm">
              {t('items.inactive')}
            </StatusBadge>
          ) : (
            <StatusBadge color="teal" radius="sm">
              {t('items.active')}
            </StatusBadge>
          ),
      },
    ];
  },
  rowKey: (r) => r.itemCode,
  useOpen: () => {
    const navigate = useNavigate();
    return (r) => void navigate({ to: paths.item.detail, params: { code: r.itemCode } });
  },
  source: {
    kind: 'pages',
    key: (s) => catalogKeys.itemList(query(s)),
    page: (client, s, token, signal) =>
      catalogApi(client).listItems({ ...query(s), continuationToken: token }, signal),
  },
  Filters: CategoryFilter,
  Actions: ({ search, rows, pending, error }) => (
    <>
      <ImportButton testId="import-csv" />
      <ExportItemsButton query={query(search)} disabled={pending || !!error || rows.length === 0} />
      <NewItemButton testId="new-item" />
    </>
  ),
  EmptyAction: () => (
    <Group gap="sm">
      <NewItemButton />
      <ImportButton />
    </Group>
  ),
  Around: ImportScope,
});

export function ItemsPage() {
  return <ResourceListPage list={itemsList} />;
}
