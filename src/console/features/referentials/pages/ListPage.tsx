import { Anchor, Badge, Button, Group, Select, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { readServiceError } from '../../../components/forms/index.ts';
import { EmptyState, ErrorState, PageHeader } from '../../../components/layout/index.ts';
import { useUrlSearchText } from '../../../components/useUrlSearchText.ts';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { flattenPages, useInfiniteList } from '../api.ts';
import { OfficeSelect } from '../components/OfficeSelect.tsx';
import { countryName } from '../countries.ts';
import { detailPath, newPath } from '../paths.ts';
import { codeOf, parentOf, type ReferentialEntity } from '../types.ts';

export const SORTS = ['code', '-code', 'name', '-name'] as const;
export type SortKey = (typeof SORTS)[number];

/** The list view as it lives in the URL search params (a link reproduces the view). */
export interface ListSearch {
  q?: string;
  office?: string;
  sort?: SortKey;
}

export function parseListSearch(raw: Record<string, unknown>): ListSearch {
  const out: ListSearch = {};
  if (typeof raw.q === 'string' && raw.q.trim()) out.q = raw.q;
  if (typeof raw.office === 'string' && raw.office.trim()) out.office = raw.office.toUpperCase();
  if (typeof raw.sort === 'string' && (SORTS as readonly string[]).includes(raw.sort) && raw.sort !== 'code')
    out.sort = raw.sort as SortKey;
  return out;
}

type Row = Record<string, unknown>;

const SKELETON_ROWS = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'];

function sortRows(rows: Row[], entity: ReferentialEntity, sort: SortKey): Row[] {
  if (sort === 'code') return rows;
  const desc = sort.startsWith('-');
  const key = desc ? sort.slice(1) : sort;
  const val = (r: Row) => (key === 'code' ? codeOf(entity, r) : String(r.name ?? ''));
  return [...rows].sort((a, b) => (desc ? -1 : 1) * val(a).localeCompare(val(b)));
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
function cityOf(r: Row): string {
  const a = (r.addressDetails ?? (r.location as Row | undefined)?.addressDetails) as Row | undefined;
  return str(a?.city ?? r.city);
}
function countryOf(r: Row): string {
  const a = (r.addressDetails ?? (r.location as Row | undefined)?.addressDetails) as Row | undefined;
  return str(a?.country ?? r.country);
}

export function ListPage({
  entity,
  search,
  onSearchChange,
}: {
  entity: ReferentialEntity;
  search: ListSearch;
  onSearchChange: (next: ListSearch) => void;
}) {
  const { t, i18n } = useTranslation('referentials');
  const navigate = useNavigate();
  const ns = `${entity}s` as 'customers' | 'sites' | 'assets';
  // The search box writes `q` to the URL once typing pauses; a URL change writes the box.
  const [text, setText] = useUrlSearchText(search, onSearchChange);

  const query = useMemo(() => ({ q: search.q, officeCode: search.office }), [search.q, search.office]);
  const list = useInfiniteList(entity, query);
  const sort = search.sort ?? 'code';
  const rows = useMemo(
    () => sortRows(flattenPages(list.data) as unknown as Row[], entity, sort),
    [list.data, entity, sort],
  );
  const lang = i18n.resolvedLanguage ?? 'en';
  const filtered = !!(search.q || search.office);

  const codeCol: Column<Row> = {
    key: 'code',
    header: t('columns.code'),
    width: 170,
    render: (r) => (
      <Anchor component={Link} to={detailPath(entity, codeOf(entity, r))} fw={500} size="sm">
        {codeOf(entity, r)}
      </Anchor>
    ),
  };
  const nameCol: Column<Row> = { key: 'name', header: t('columns.name'), render: (r) => str(r.name) };
  const officeCol: Column<Row> = {
    key: 'office',
    header: t('columns.office'),
    width: 130,
    render: (r) => (
      <Badge variant="default" radius="sm">
        {str(r.officeCode)}
      </Badge>
    ),
  };
  const parentCol: Column<Row> = {
    key: 'parent',
    header: t('columns.parent'),
    width: 150,
    render: (r) => {
      const p = parentOf(entity, r);
      return p ? (
        <Anchor component={Link} to={detailPath(entity, p)} size="sm">
          {p}
        </Anchor>
      ) : (
        <Text span c="dimmed" size="sm">
          —
        </Text>
      );
    },
  };
  const columns: Column<Row>[] =
    entity === 'customer'
      ? [
          codeCol,
          nameCol,
          { key: 'city', header: t('columns.city'), width: 160, render: cityOf },
          {
            key: 'country',
            header: t('columns.country'),
            width: 150,
            render: (r) => countryName(countryOf(r), lang),
          },
          officeCol,
          parentCol,
        ]
      : entity === 'site'
        ? [
            codeCol,
            nameCol,
            {
              key: 'customer',
              header: t('columns.customer'),
              width: 150,
              render: (r) => (
                <Anchor component={Link} to={detailPath('customer', str(r.customerCode))} size="sm">
                  {str(r.customerCode)}
                </Anchor>
              ),
            },
            { key: 'city', header: t('columns.city'), width: 150, render: cityOf },
            officeCol,
            parentCol,
          ]
        : [
            codeCol,
            nameCol,
            {
              key: 'serial',
              header: t('columns.serialNumber'),
              width: 150,
              render: (r) => str(r.serialNumber),
            },
            {
              key: 'site',
              header: t('columns.site'),
              width: 150,
              render: (r) =>
                r.siteCode ? (
                  <Anchor component={Link} to={detailPath('site', str(r.siteCode))} size="sm">
                    {str(r.siteCode)}
                  </Anchor>
                ) : (
                  ''
                ),
            },
            officeCol,
            parentCol,
          ];

  const notAvailable = list.isError && readServiceError(list.error).status === 404;

  return (
    <Stack gap="md">
      <PageHeader
        title={t(`${ns}.title`)}
        subtitle={t(`${ns}.subtitle`)}
        actions={
          <Button
            component={Link}
            to={newPath(entity)}
            leftSection={<IconPlus size={16} />}
            data-testid="new-record"
          >
            {t(`${ns}.new`)}
          </Button>
        }
      />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={280}
          data-testid="list-search"
        />
        <OfficeSelect
          label={t('list.office')}
          placeholder={t('list.allOffices')}
          clearable
          value={search.office ?? null}
          onChange={(v) => onSearchChange({ ...search, office: v ?? undefined })}
          w={240}
          data-testid="list-office"
        />
        <Select
          label={t('list.sort')}
          data={SORTS.map((s) => ({ value: s, label: t(`list.sortOptions.${s}`) }))}
          value={sort}
          allowDeselect={false}
          onChange={(v) =>
            onSearchChange({ ...search, sort: v && v !== 'code' ? (v as SortKey) : undefined })
          }
          w={200}
          data-testid="list-sort"
        />
        {sort !== 'code' && list.hasNextPage && (
          <Text size="xs" c="dimmed" pb={8}>
            {t('list.sortLoadedHint', { count: rows.length })}
          </Text>
        )}
      </Group>
      {list.isPending ? (
        <Stack gap={6} aria-busy aria-label={t('list.loading')}>
          {SKELETON_ROWS.map((k) => (
            <Skeleton key={k} height={36} radius="sm" />
          ))}
        </Stack>
      ) : notAvailable ? (
        <EmptyState title={t(`${ns}.title`)} body={t('list.unavailable')} />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : rows.length === 0 ? (
        filtered ? (
          <EmptyState
            title={t('list.noMatchTitle')}
            body={t('list.noMatch')}
            action={
              <Button variant="default" onClick={() => onSearchChange({})}>
                {t('list.clearFilters')}
              </Button>
            }
          />
        ) : (
          <EmptyState
            title={t('list.emptyTitle')}
            body={t(`${ns}.empty`)}
            action={
              <Button component={Link} to={newPath(entity)} leftSection={<IconPlus size={16} />}>
                {t(`${ns}.new`)}
              </Button>
            }
          />
        )
      ) : (
        <VirtualTable
          rows={rows}
          columns={columns}
          rowKey={(r) => codeOf(entity, r)}
          onOpen={(r) => navigate({ to: detailPath(entity, codeOf(entity, r)) as never })}
          hasMore={!!list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
          loadMore={() => list.fetchNextPage()}
          height="calc(100dvh - 300px)"
          label={t(`${ns}.listLabel`)}
        />
      )}
    </Stack>
  );
}
