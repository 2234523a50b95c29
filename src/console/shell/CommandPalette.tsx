/**
 * Ctrl+K / ⌘K: open a record by code or name, and the pages of the navigation. One call per
 * pause in typing: the console's search extension (`GET .../console/v1/search`, its own
 * `interactive` rate range) finds every kind the user may read; hits are grouped by the
 * resources the features declare (nav.ts). A refused or failed search says so (throttled,
 * unavailable), never "Nothing found". Through `api.raw` with its path, which keeps the
 * contract's schemas out of the shell's bundle.
 */
import { Badge, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Spotlight, spotlight } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type Client } from '../../client/index.ts';
import { useApi } from '../app/api.ts';
import { SEARCH_PATH, type SearchAnswer } from '../app/apiPaths.ts';
import { useScopes } from '../app/Can.tsx';
import { matchesText } from '../components/matchesText.ts';
import { type NavEntry, navFor, RESOURCES, type Resource } from './nav.ts';

export { spotlight };

/** Hits per kind. */
const PER_KIND = 6;
/** A search is asked once typing pauses this long (ms). */
export const PALETTE_DEBOUNCE = 250;

type Hit = SearchAnswer['data'][number] & { resource: Resource };

/** Why the search has no answer to show: said in the palette. */
function failureOf(error: unknown): { key: string; seconds?: number } {
  if (error instanceof ApiError && error.status === 429)
    return { key: 'palette.throttled', seconds: error.retryAfter ?? undefined };
  if (error instanceof ApiError && error.status === 404) return { key: 'palette.unavailable' };
  return { key: 'palette.failed' };
}

export function CommandPalette() {
  const { t } = useTranslation('common');
  const api = useApi();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const { q, search } = usePaletteSearch(api, query);
  const { pages, hits, direct, failure } = usePaletteResults(t, query, q, search);

  return (
    <Spotlight.Root
      query={query}
      onQueryChange={setQuery}
      shortcut={['mod + K']}
      scrollable
      maxHeight={440}
      // The dialog's name (axe aria-dialog-name): Spotlight has no title to name it by.
      attributes={{ content: { 'aria-label': t('header.searchHint') } }}
    >
      <Spotlight.Search
        placeholder={t('palette.placeholder')}
        leftSection={<IconSearch size={18} stroke={1.5} />}
        aria-label={t('header.searchHint')}
      />
      <Spotlight.ActionsList aria-label={t('header.searchHint')}>
        <DirectActions direct={direct} q={q} navigate={navigate} />
        <HitActions hits={hits} navigate={navigate} />
        <PageActions pages={pages} navigate={navigate} />
        {q && search.isFetching && hits.length === 0 && (
          <Spotlight.Empty>{t('palette.searching')}</Spotlight.Empty>
        )}
        {failure && (
          <Spotlight.Empty role="status" data-testid="palette-failure" data-reason={failure.key}>
            {t(failure.key, { seconds: failure.seconds ?? 60 })}
          </Spotlight.Empty>
        )}
        {q &&
          !search.isFetching &&
          search.isSuccess &&
          hits.length === 0 &&
          pages.length === 0 &&
          direct.length === 0 && <Spotlight.Empty>{t('palette.nothing')}</Spotlight.Empty>}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}

/** The search of the typed text, asked once typing pauses (`q`, trimmed). */
function usePaletteSearch(api: Client, query: string) {
  const [q] = useDebouncedValue(query.trim(), PALETTE_DEBOUNCE);
  const search = useQuery({
    queryKey: ['palette', q],
    enabled: q.length > 0,
    staleTime: 30_000,
    retry: false,
    queryFn: ({ signal }) =>
      api.raw<SearchAnswer>('GET', SEARCH_PATH, { query: { q, size: String(PER_KIND) }, signal }),
  });
  return { q, search };
}

/** What the palette offers: the pages that match at once, the search's hits, a direct open, or why none. */
function usePaletteResults(
  t: TFunction<'common'>,
  query: string,
  q: string,
  search: UseQueryResult<SearchAnswer>,
) {
  const lower = query.trim();
  const scopes = useScopes();
  // The pages the user's roles can use (app/permissions.ts).
  const pages = navFor(scopes)
    .flatMap((g) => g.items)
    .filter((i) => !lower || matchesText(lower, t(i.label)));
  const hits: Hit[] = q
    ? (search.data?.data ?? []).flatMap((h) => {
        const resource = RESOURCES.find((r) => r.key === h.kind);
        return resource ? [{ ...h, resource }] : [];
      })
    : [];
  // A query of a resource's direct form (e.g. a uuid) opens that record without a search.
  const direct = q ? RESOURCES.filter((r) => r.direct && new RegExp(r.direct.pattern).test(q)) : [];
  const failure = q && search.isError ? failureOf(search.error) : null;
  return { pages, hits, direct, failure };
}

type Navigate = ReturnType<typeof useNavigate>;

/** A code in a badge and the words beside it: one line of the palette. */
function CodeLine({ code, text }: { code: string; text: string }) {
  return (
    <Group wrap="nowrap" gap="sm" w="100%">
      <Badge variant="light" radius="sm" ff="monospace" style={{ textTransform: 'none' }}>
        {code}
      </Badge>
      <Text size="sm" truncate>
        {text}
      </Text>
    </Group>
  );
}

/** The records the query names directly (e.g. by uuid), one group per resource. */
function DirectActions({ direct, q, navigate }: { direct: Resource[]; q: string; navigate: Navigate }) {
  const { t } = useTranslation('common');
  return direct.map((r) =>
    r.direct ? (
      <Spotlight.ActionsGroup key={`direct:${r.key}`} label={t(r.label.many)}>
        <Spotlight.Action
          onClick={() => {
            spotlight.close();
            if (r.direct) void navigate({ to: r.direct.path, params: { code: q } });
          }}
          data-testid="palette-direct"
          data-resource={r.key}
        >
          <CodeLine code={q} text={t(r.direct.label)} />
        </Spotlight.Action>
      </Spotlight.ActionsGroup>
    ) : null,
  );
}

/** The search's hits, grouped by resource in the features' order. */
function HitActions({ hits, navigate }: { hits: Hit[]; navigate: Navigate }) {
  const { t } = useTranslation('common');
  const openHit = (h: Hit) => {
    spotlight.close();
    const { paths } = h.resource;
    if (paths.detail) void navigate({ to: paths.detail, params: { code: h.code } });
    else void navigate({ to: paths.list, search: { q: h.code } });
  };
  return RESOURCES.map((r) => {
    const group = hits.filter((h) => h.resource.key === r.key);
    if (!group.length) return null;
    return (
      <Spotlight.ActionsGroup key={r.key} label={t(r.label.many)}>
        {group.map((h) => (
          <Spotlight.Action
            key={`${r.key}:${h.uuid ?? h.code}`}
            onClick={() => openHit(h)}
            data-testid="palette-hit"
            data-resource={r.key}
          >
            <CodeLine code={h.code} text={h.name} />
          </Spotlight.Action>
        ))}
      </Spotlight.ActionsGroup>
    );
  });
}

/** The navigation's pages whose names match the query. */
function PageActions({ pages, navigate }: { pages: NavEntry[]; navigate: Navigate }) {
  const { t } = useTranslation('common');
  if (pages.length === 0) return null;
  return (
    <Spotlight.ActionsGroup label={t('palette.pages')}>
      {pages.map((p) => (
        <Spotlight.Action
          key={p.to}
          onClick={() => {
            spotlight.close();
            void navigate({ to: p.to });
          }}
          leftSection={<p.icon size={18} stroke={1.5} />}
          label={t(p.label)}
        />
      ))}
    </Spotlight.ActionsGroup>
  );
}
