/**
 * THE list page (see resourceList.ts): a declared list in a virtualized table filling the
 * window, its header, its search box and filters living in the URL, its loading, error
 * and empty states, and its keyset pages read as the reader scrolls. Sorted as the service
 * answers (by code): a sort of the loaded rows only would misrepresent the rest.
 */
import { Badge, Button, Group, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Page } from '../../../contract/common.ts';
import { useApi } from '../../app/api.ts';
import { nextPageToken, readAll } from '../../app/pages.ts';
import { EmptyState } from '../layout/EmptyState.tsx';
import { PageHeader } from '../layout/PageHeader.tsx';
import { type QueryLike, QueryView } from '../layout/QueryView.tsx';
import { ListFrame } from '../records/ListFrame.tsx';
import { useUrlSearchText } from '../useUrlSearchText.ts';
import { VirtualTable } from '../VirtualTable.tsx';
import type { ListPartProps, ListRoute, ListSource, ResourceList } from './resourceList.ts';

/**
 * The list's URL search and its setter. TanStack Router types `navigate`'s search by the
 * route tree, which a page generic over its search type cannot name: the one cast is here.
 */
function useListSearch<S>(route: ListRoute<S>): [S, (next: S) => void] {
  const search = route.useSearch();
  const navigate = useNavigate();
  return [search, (next) => void navigate({ to: '.', search: next as never, replace: true })];
}

interface Rows<Row> {
  query: QueryLike<unknown>;
  /** Every row read (a list read whole: before the text filter). */
  all: readonly Row[];
  shown: readonly Row[];
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

/** Keyset pages, read one after another as the table asks. */
function usePagedRows<Row, S>(source: Extract<ListSource<Row, S>, { kind: 'pages' }> | null, search: S) {
  const client = useApi();
  const list = useInfiniteQuery({
    queryKey: source ? source.key(search) : ['unused'],
    queryFn: ({ pageParam, signal }) =>
      source
        ? source.page(client, search, pageParam, signal)
        : Promise.resolve<Page<Row>>({ data: [], continuationToken: null }),
    initialPageParam: undefined,
    getNextPageParam: nextPageToken,
    placeholderData: keepPreviousData,
    enabled: !!source,
    ...(source?.retry ? { retry: source.retry } : {}),
  });
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  return {
    query: list,
    all: rows,
    shown: rows,
    hasMore: !!list.hasNextPage,
    loadingMore: list.isFetchingNextPage,
    loadMore: () => void list.fetchNextPage(),
  };
}

/** A list read whole, filtered in the page by the text. */
function useWholeRows<Row, S>(
  source: Extract<ListSource<Row, S>, { kind: 'whole' }> | null,
  text: string,
): Rows<Row> {
  const client = useApi();
  const list = useQuery({
    queryKey: source ? source.key : ['unused'],
    queryFn: ({ signal }) =>
      source ? readAll((token) => source.page(client, token, signal), { signal }) : Promise.resolve([]),
    enabled: !!source,
  });
  const all = list.data ?? [];
  const shown = useMemo(
    () => (source && text.trim() ? all.filter((row) => source.matches(row, text.trim())) : all),
    [all, source, text],
  );
  return { query: list, all, shown, hasMore: false, loadingMore: false, loadMore: () => {} };
}

const noOpen = () => () => {};

export function ResourceListPage<Row, S extends { q?: string }>({ list }: { list: ResourceList<Row, S> }) {
  const { t, i18n } = useTranslation(list.ns);
  const [search, setSearch] = useListSearch(list.route);
  // The search box writes `q` to the URL once typing pauses; a URL change writes the box.
  const [text, setText] = useUrlSearchText(search, setSearch, list.searchBox?.debounceMs);
  const { source } = list;
  const paged = usePagedRows(source.kind === 'pages' ? source : null, search);
  const whole = useWholeRows(source.kind === 'whole' ? source : null, text);
  const rows: Rows<Row> = source.kind === 'pages' ? paged : whole;
  const open = (list.useOpen ?? noOpen)();
  const lang = i18n.resolvedLanguage ?? 'en';
  const columns = useMemo(() => list.columns({ t, lang }), [list, t, lang]);

  const filtered = Object.values(search).some((v) => v !== undefined);
  const clear = () => setSearch({} as S);
  const parts: ListPartProps<S, Row> = {
    search,
    setSearch,
    rows: rows.all,
    pending: rows.query.isPending,
    error: rows.query.isError ? rows.query.error : undefined,
  };
  const { Filters, Actions, Notice, EmptyAction, Around, TitleBadge } = list;
  const shortcut = list.shortcut?.(search, t);
  const strings = list.text;

  const page = (
    <ListFrame>
      <PageHeader
        title={t(strings.title)}
        subtitle={strings.subtitle ? t(strings.subtitle) : undefined}
        badge={
          TitleBadge ? (
            <TitleBadge {...parts} />
          ) : list.countBadge && !rows.query.isPending && !rows.query.isError ? (
            <Badge variant="light" color="gray" radius="sm" style={{ textTransform: 'none' }}>
              {rows.all.length}
            </Badge>
          ) : undefined
        }
        actions={Actions ? <Actions {...parts} /> : undefined}
      />
      {Notice && <Notice {...parts} />}
      {(strings.search || Filters || strings.sortedByCode) && (
        <Group gap="sm" align="flex-end" wrap="wrap" style={{ flexShrink: 0 }}>
          {strings.search && (
            <TextInput
              label={t(strings.search)}
              placeholder={strings.searchPlaceholder ? t(strings.searchPlaceholder) : undefined}
              leftSection={<IconSearch size={16} />}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              w={list.searchBox?.width ?? 300}
              error={parts.error ? list.searchBox?.error?.(parts.error, t) : undefined}
              data-testid={list.searchBox?.testId ?? 'list-search'}
            />
          )}
          {Filters && <Filters {...parts} />}
          {Filters && filtered && (
            <Button variant="subtle" onClick={clear} mb={2}>
              {t(strings.clear)}
            </Button>
          )}
          {strings.matching && source.kind === 'whole' && text.trim() && !rows.query.isPending && (
            <Text size="sm" c="dimmed" pb={8}>
              {t(strings.matching, { count: rows.shown.length, total: rows.all.length })}
            </Text>
          )}
          {strings.sortedByCode && (
            <Text size="xs" c="dimmed" pb={10} data-testid="list-order">
              {t(strings.sortedByCode)}
            </Text>
          )}
        </Group>
      )}
      {shortcut ?? (
        <QueryView
          query={rows.query}
          loadingRows={8}
          loadingLabel={strings.loading ? t(strings.loading) : undefined}
          explain={list.explain ? (e) => list.explain?.(e, t) : undefined}
        >
          {(): ReactNode =>
            rows.all.length === 0 && !filtered ? (
              <EmptyState
                title={t(strings.emptyTitle)}
                body={t(strings.empty)}
                action={EmptyAction ? <EmptyAction /> : undefined}
              />
            ) : rows.shown.length === 0 ? (
              <EmptyState
                title={t(strings.noMatchTitle)}
                body={t(strings.noMatch, { q: search.q ?? text })}
                action={
                  <Button variant="default" onClick={clear}>
                    {t(strings.clear)}
                  </Button>
                }
              />
            ) : (
              <VirtualTable
                rows={rows.shown}
                columns={columns}
                rowKey={list.rowKey}
                rowTestId={list.rowTestId}
                onOpen={list.useOpen ? open : undefined}
                hasMore={rows.hasMore}
                loadingMore={rows.loadingMore}
                loadMore={rows.loadMore}
                label={t(strings.label)}
              />
            )
          }
        </QueryView>
      )}
    </ListFrame>
  );
  return Around ? <Around rows={rows.all}>{page}</Around> : page;
}
