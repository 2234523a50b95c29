/**
 * The list of customers, sites or assets: the list extension's keyset pages in a
 * virtualized table filling the page (infinite scroll), filtered by text and office, the
 * filters living in the URL (the route's search params). Sorted by code, as the service
 * answers (a sort of the loaded rows only would lie about the rest).
 */
import { Button, Group, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { readServiceError } from '../../../components/forms/serviceErrors.ts';
import { EmptyState, ErrorState, PageHeader } from '../../../components/layout/index.ts';
import { ButtonLink } from '../../../components/links.tsx';
import { ListFrame } from '../../../components/records/ListFrame.tsx';
import { useUrlSearchText } from '../../../components/useUrlSearchText.ts';
import { VirtualTable } from '../../../components/VirtualTable.tsx';
import { flattenPages, useInfiniteList } from '../api.ts';
import { OfficeSelect } from '../components/OfficeSelect.tsx';
import { type ReferentialEntity, referentialPaths } from '../paths.ts';
import { refResource } from '../resources.tsx';
import type { ListSearch } from '../search.ts';

const SKELETON_ROWS = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'];

export function ListPage({ entity }: { entity: ReferentialEntity }) {
  const { t, i18n } = useTranslation('referentials');
  const paths = referentialPaths[entity];
  const route = getRouteApi(paths.list);
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const res = refResource(entity);
  const g = res.group;
  const setSearch = (next: ListSearch) => void navigate({ to: paths.list, search: next, replace: true });
  // The search box writes `q` to the URL once typing pauses; a URL change writes the box.
  const [text, setText] = useUrlSearchText(search, setSearch);

  const query = useMemo(() => ({ q: search.q, officeCode: search.office }), [search.q, search.office]);
  const list = useInfiniteList(entity, query);
  const rows = useMemo(() => flattenPages(list.data), [list.data]);
  const lang = i18n.resolvedLanguage ?? 'en';
  const columns = useMemo(() => res.columns({ t, lang }), [res, t, lang]);
  const filtered = !!(search.q || search.office);
  const notAvailable = list.isError && readServiceError(list.error).status === 404;

  const newButton = (
    <ButtonLink to={paths.new} leftSection={<IconPlus size={16} />} data-testid="new-record">
      {t(`${g}.new`)}
    </ButtonLink>
  );

  return (
    <ListFrame>
      <PageHeader title={t(`${g}.title`)} subtitle={t(`${g}.subtitle`)} actions={newButton} />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label={t('list.search')}
          placeholder={t(res.searchIn)}
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
          onChange={(v) => setSearch({ ...search, office: v ?? undefined })}
          w={240}
          data-testid="list-office"
        />
        <Text size="xs" c="dimmed" pb={10} data-testid="list-order">
          {t('list.sortedByCode')}
        </Text>
      </Group>
      {list.isPending ? (
        <Stack gap={6} aria-busy aria-label={t('list.loading')}>
          {SKELETON_ROWS.map((k) => (
            <Skeleton key={k} height={36} radius="sm" />
          ))}
        </Stack>
      ) : notAvailable ? (
        <EmptyState title={t(`${g}.title`)} body={t('list.unavailable')} />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : rows.length === 0 ? (
        filtered ? (
          <EmptyState
            title={t('list.noMatchTitle')}
            body={t('list.noMatch')}
            action={
              <Button variant="default" onClick={() => setSearch({})}>
                {t('list.clearFilters')}
              </Button>
            }
          />
        ) : (
          <EmptyState title={t('list.emptyTitle')} body={t(`${g}.empty`)} action={newButton} />
        )
      ) : (
        <VirtualTable
          rows={rows}
          columns={columns}
          rowKey={(r) => res.codeOf(r)}
          onOpen={(r) => void navigate({ to: paths.detail, params: { code: res.codeOf(r) } })}
          hasMore={!!list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
          loadMore={() => list.fetchNextPage()}
          label={t(`${g}.listLabel`)}
        />
      )}
    </ListFrame>
  );
}
