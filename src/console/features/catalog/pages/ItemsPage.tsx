/**
 * `/catalog/items`: the item catalog as a virtualized grid over the keyset pages of the list
 * (infinite scroll) filling the page, filtered by text, category and active state, the
 * filters living in the URL (the route's search params); sorted by code, as the service
 * answers; CSV import and export; "New item".
 */
import { Button, Group, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFileImport, IconPlus, IconSearch } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../../components/layout/index.ts';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { ListFrame } from '../../../components/records/ListFrame.tsx';
import { useUrlSearchText } from '../../../components/useUrlSearchText.ts';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { ExportItemsButton } from '../components/ExportItemsButton.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import type { Item } from '../model.ts';
import { catalogPaths as paths } from '../paths.ts';
import { useItemCategories, useItemList } from '../queries.ts';
import type { ItemsSearch } from '../search.ts';

const route = getRouteApi(paths.item.list);
/** The CSV import (and its parser) loads when opened, not with the list. */
const ImportItemsModal = lazy(() =>
  import('../components/ImportItemsModal.tsx').then((m) => ({ default: m.ImportItemsModal })),
);

const dash = (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);

export function ItemsPage() {
  const { t, i18n } = useTranslation('catalog');
  const navigate = route.useNavigate();
  const search = route.useSearch();
  const setSearch = (next: ItemsSearch) =>
    void navigate({ to: paths.item.list, search: next, replace: true });
  const [importOpen, importModal] = useDisclosure(false);

  // The search box writes `q` to the URL once typing pauses; a URL change writes the box.
  const [text, setText] = useUrlSearchText(search, setSearch);

  const query = useMemo(
    () => ({ q: search.q, category: search.category, active: search.active }),
    [search.q, search.category, search.active],
  );
  const list = useItemList(query);
  const categories = useItemCategories();
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  const filtered = search.q !== undefined || search.category !== undefined || search.active !== undefined;
  const money = useMemo(
    () =>
      new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en', {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      }),
    [i18n.resolvedLanguage],
  );

  const columns: Column<Item>[] = [
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
      render: (r) => (r.category ? r.category : dash),
    },
    { key: 'unit', header: t('item.fields.unit'), width: 100, render: (r) => (r.unit ? r.unit : dash) },
    {
      key: 'unitPrice',
      header: <span style={{ display: 'block', textAlign: 'right' }}>{t('item.fields.unitPrice')}</span>,
      width: 130,
      render: (r) => (
        <span style={{ display: 'block', textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
          {r.unitPrice === null || r.unitPrice === undefined ? dash : money.format(r.unitPrice)}
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

  const categoryData = useMemo(() => {
    const data = [...(categories.data ?? [])];
    if (search.category && !data.includes(search.category)) data.unshift(search.category);
    return data;
  }, [categories.data, search.category]);

  return (
    <ListFrame>
      <PageHeader
        title={t('items.title')}
        subtitle={t('items.subtitle')}
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconFileImport size={16} />}
              onClick={importModal.open}
              data-testid="import-csv"
            >
              {t('csv.import')}
            </Button>
            <ExportItemsButton query={query} disabled={list.isPending || list.isError || rows.length === 0} />
            <ButtonLink to={paths.item.new} leftSection={<IconPlus size={16} />} data-testid="new-item">
              {t('items.new')}
            </ButtonLink>
          </>
        }
      />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label={t('items.search')}
          placeholder={t('items.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={300}
          data-testid="items-search"
        />
        <Select
          label={t('item.fields.category')}
          placeholder={t('items.allCategories')}
          data={categoryData}
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
        {filtered && (
          <Button variant="subtle" onClick={() => setSearch({})} mb={2}>
            {t('items.clearFilters')}
          </Button>
        )}
        <Text size="xs" c="dimmed" pb={10} data-testid="list-order">
          {t('items.sortedByCode')}
        </Text>
      </Group>
      {list.isPending ? (
        <LoadingState rows={8} label={t('items.loading')} />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : rows.length === 0 ? (
        filtered ? (
          <EmptyState
            title={t('items.noMatchTitle')}
            body={t('items.noMatch')}
            action={
              <Button variant="default" onClick={() => setSearch({})}>
                {t('items.clearFilters')}
              </Button>
            }
          />
        ) : (
          <EmptyState
            title={t('items.emptyTitle')}
            body={t('items.empty')}
            action={
              <Group gap="sm">
                <ButtonLink to={paths.item.new} leftSection={<IconPlus size={16} />}>
                  {t('items.new')}
                </ButtonLink>
                <Button
                  variant="default"
                  leftSection={<IconFileImport size={16} />}
                  onClick={importModal.open}
                >
                  {t('csv.import')}
                </Button>
              </Group>
            }
          />
        )
      ) : (
        <VirtualTable
          rows={rows}
          columns={columns}
          rowKey={(r) => r.itemCode}
          onOpen={(r) => void navigate({ to: paths.item.detail, params: { code: r.itemCode } })}
          hasMore={!!list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
          loadMore={() => list.fetchNextPage()}
          label={t('items.listLabel')}
        />
      )}
      {importOpen && (
        <Suspense fallback={null}>
          <ImportItemsModal opened onClose={importModal.close} />
        </Suspense>
      )}
    </ListFrame>
  );
}
