/**
 * `/catalog/items`: the item catalog as a virtualized grid over the keyset pages of the list
 * (infinite scroll), filtered by text, category and active state, the filters living in
 * the URL; CSV import and export; "New item".
 */
import { Anchor, Button, Group, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFileImport, IconPlus, IconSearch } from '@tabler/icons-react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../../components/layout/index.ts';
import { useUrlSearchText } from '../../../components/useUrlSearchText.ts';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { ExportItemsButton } from '../components/ExportItemsButton.tsx';
import { ImportItemsModal } from '../components/ImportItemsModal.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import type { Item } from '../model.ts';
import { ITEMS_PATH, type ItemsSearch, itemPath, NEW_ITEM_PATH, parseItemsSearch } from '../paths.ts';
import { useItemCategories, useItemList } from '../queries.ts';

export { type ItemsSearch, parseItemsSearch };

const dash = (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);

export function ItemsPage({
  search: searchProp,
  onSearchChange,
}: {
  search?: ItemsSearch;
  onSearchChange?: (next: ItemsSearch) => void;
} = {}) {
  const { t, i18n } = useTranslation('catalog');
  const navigate = useNavigate();
  const routeSearch = useSearch({ strict: false }) as Record<string, unknown>;
  const search = searchProp ?? parseItemsSearch(routeSearch);
  const setSearch =
    onSearchChange ??
    ((next: ItemsSearch) => navigate({ to: ITEMS_PATH as never, search: next as never, replace: true }));
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
        <Anchor component={Link} to={itemPath(r.itemCode)} fw={500} size="sm">
          {r.itemCode}
        </Anchor>
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
    <Stack gap="md">
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
            <Button
              component={Link}
              to={NEW_ITEM_PATH}
              leftSection={<IconPlus size={16} />}
              data-testid="new-item"
            >
              {t('items.new')}
            </Button>
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
                <Button component={Link} to={NEW_ITEM_PATH} leftSection={<IconPlus size={16} />}>
                  {t('items.new')}
                </Button>
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
          onOpen={(r) => navigate({ to: itemPath(r.itemCode) as never })}
          hasMore={!!list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
          loadMore={() => list.fetchNextPage()}
          height={`min(calc(100dvh - 290px), ${(list.hasNextPage ? 600 : 92) + rows.length * 41}px)`}
          label={t('items.listLabel')}
        />
      )}
      <ImportItemsModal opened={importOpen} onClose={importModal.close} />
    </Stack>
  );
}
