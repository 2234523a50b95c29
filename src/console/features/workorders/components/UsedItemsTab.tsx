/**
 * A work order's used items: the invoice mode filter (in the URL), the totals by invoice mode
 * (the totals extension), the virtualized grid over keyset pages of 200, latest update first,
 * and the CSV export of every page.
 */
import { Badge, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { csvName, toCsv, USED_ITEM_CSV_HEADER, usedItemFilters, utcMinute } from '../model.ts';
import { USED_ITEMS_PAGE, useUsedItems, useUsedItemTotals, useWorkordersApi } from '../queries.ts';
import type { WorkOrderSearch } from '../search.ts';
import type { UsedItem, WorkOrderRef } from '../transport.ts';
import { DataGrid, type GridColumn } from './DataGrid.tsx';
import { ExportCsvButton, loadedOf } from './ExportCsvButton.tsx';
import { Figure, TotalsBar } from './Totals.tsx';

interface TabProps {
  woRef: WorkOrderRef;
  code: string;
  search: WorkOrderSearch;
  setSearch: (next: WorkOrderSearch) => void;
}

export function UsedItemsTab({ woRef, code, search, setSearch }: TabProps) {
  const { t } = useTranslation('workorders');
  const filters = usedItemFilters(search);
  const list = useUsedItems(woRef, filters);
  const totals = useUsedItemTotals(woRef, filters);
  const api = useWorkordersApi();
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const fetchNext = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const formats = useItemFormats();
  const { num } = formats;
  const columns = useUsedItemColumns(formats);
  const shown = totals.data?.all;
  return (
    <Stack gap="sm">
      <InvoiceModeFilter search={search} setSearch={setSearch} />
      <ItemTotals totals={totals} formats={formats} />
      <QueryView
        query={list}
        loadingRows={8}
        loadingLabel={t('item.loading')}
        isEmpty={() => rows.length === 0}
        empty={
          <EmptyState
            title={t('item.emptyTitle')}
            body={search.invoiceMode ? t('item.noMatch') : t('item.empty')}
          />
        }
      >
        {() => (
          <DataGrid
            gridId="items"
            label={t('item.label', { code })}
            rows={rows}
            columns={columns}
            rowKey={(u) => u.usedItemId}
            hasMore={!!hasNextPage}
            fetchingMore={isFetchingNextPage}
            fetchNext={fetchNext}
            toolbar={
              <>
                <Badge variant="light" color="gray" radius="sm" data-testid="items-loaded">
                  {t('grid.loaded', {
                    n: num.format(rows.length),
                    total: num.format(shown?.count ?? rows.length),
                  })}
                </Badge>
                <ExportCsvButton<UsedItem>
                  loaded={loadedOf(list.data?.pages, rows, !!hasNextPage)}
                  testId="export-items"
                  total={shown?.count}
                  fetchPage={(token, signal) =>
                    api.usedItems(
                      woRef,
                      { ...filters, pageSize: USED_ITEMS_PAGE, continuationToken: token },
                      signal,
                    )
                  }
                  toCsv={(all) =>
                    toCsv(
                      USED_ITEM_CSV_HEADER,
                      all.map((u) => USED_ITEM_CSV_HEADER.map((k) => u[k])),
                    )
                  }
                  fileName={() => csvName('used-items', code, new Date())}
                />
              </>
            }
          />
        )}
      </QueryView>
    </Stack>
  );
}

/** Quantity (up to 3 decimals) and money (2) formats, memoized per language: the columns depend on them. */
function useItemFormats() {
  const { i18n } = useTranslation('workorders');
  const lang = i18n.resolvedLanguage ?? 'en';
  const num = useMemo(() => new Intl.NumberFormat(lang, { maximumFractionDigits: 3 }), [lang]);
  const money = useMemo(
    () => new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    [lang],
  );
  return { num, money };
}

type ItemFormats = ReturnType<typeof useItemFormats>;

/** The grid's columns: id, kind, item, quantity, unit, prices, invoice mode, technician, last update. */
function useUsedItemColumns({ num, money }: ItemFormats) {
  const { t } = useTranslation('workorders');
  return useMemo<GridColumn<UsedItem>[]>(
    () => [
      { id: 'usedItemId', header: t('item.usedItemId'), size: 124, render: (u) => u.usedItemId },
      { id: 'kind', header: t('item.kind'), size: 88, render: (u) => t(`item.kinds.${u.kind}`) },
      { id: 'item', header: t('item.item'), size: 110, render: (u) => u.itemCode ?? u.label ?? '' },
      {
        id: 'quantity',
        header: t('item.quantity'),
        size: 90,
        align: 'right',
        render: (u) => num.format(u.quantity),
      },
      { id: 'unit', header: t('item.unit'), size: 62, render: (u) => u.unit ?? '' },
      {
        id: 'unitPrice',
        header: t('item.unitPrice'),
        size: 86,
        align: 'right',
        render: (u) => (u.unitPrice === null ? '' : money.format(u.unitPrice)),
      },
      {
        id: 'amount',
        header: t('item.amount'),
        size: 86,
        align: 'right',
        render: (u) => (u.amount === null ? '' : money.format(u.amount)),
      },
      {
        id: 'invoiceMode',
        header: t('item.invoiceMode'),
        size: 90,
        render: (u) => t(`filters.${u.invoiceMode}`),
      },
      { id: 'technician', header: t('item.technician'), size: 105, render: (u) => u.technicianCode ?? '' },
      { id: 'lastUpdate', header: t('item.lastUpdate'), size: 147, render: (u) => utcMinute(u.lastUpdate) },
    ],
    [t, num, money],
  );
}

/** The invoice mode filter (all, external, internal), in the URL. */
function InvoiceModeFilter({ search, setSearch }: Pick<TabProps, 'search' | 'setSearch'>) {
  const { t } = useTranslation('workorders');
  return (
    <Group gap="xs" style={{ flexShrink: 0 }}>
      <Text size="sm" fw={500} component="span" id="item-invoice-label">
        {t('filters.invoiceMode')}
      </Text>
      <SegmentedControl
        size="xs"
        aria-labelledby="item-invoice-label"
        value={search.invoiceMode ?? 'all'}
        onChange={(v) =>
          setSearch({
            ...search,
            invoiceMode: v === 'all' ? undefined : v,
          })
        }
        data={[
          { value: 'all', label: t('filters.all') },
          { value: 'external', label: t('filters.external') },
          { value: 'internal', label: t('filters.internal') },
        ]}
        data-testid="filter-invoice-mode"
      />
    </Group>
  );
}

/** The totals of the filtered items: count, quantity, amount, external and internal, unpriced if any. */
function ItemTotals({
  totals,
  formats: { num, money },
}: {
  totals: ReturnType<typeof useUsedItemTotals>;
  formats: ItemFormats;
}) {
  const { t } = useTranslation('workorders');
  const tot = totals.data;
  const shown = tot?.all;
  return (
    <TotalsBar loading={totals.isPending} label={t('item.totals')} testId="item-totals">
      {tot && shown && (
        <>
          <Figure label={t('totals.items')} value={num.format(shown.count)} testId="total-items" />
          <Figure label={t('totals.quantity')} value={num.format(shown.quantity)} testId="total-quantity" />
          <Figure label={t('totals.amount')} value={money.format(shown.amount)} testId="total-amount" />
          <Figure
            label={t('totals.external')}
            value={`${money.format(tot.external.amount)} (${num.format(tot.external.count)})`}
            testId="total-external"
          />
          <Figure
            label={t('totals.internal')}
            value={`${money.format(tot.internal.amount)} (${num.format(tot.internal.count)})`}
            testId="total-internal"
          />
          {shown.unpricedCount > 0 && (
            <Figure label={t('totals.unpriced')} value={num.format(shown.unpricedCount)} />
          )}
        </>
      )}
    </TotalsBar>
  );
}
