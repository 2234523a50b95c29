/**
 * Ctrl+K / ⌘K: open a record by code or name, and the pages of the navigation. Searches
 * every resource the features declare with a list (shell/nav.ts): a list
 * with a text filter is asked for the first page of matches; a list without one is read
 * once and filtered here. Calls go through `api.raw` with the declared paths, which keeps
 * the contract's schemas out of the shell's bundle.
 */
import { Badge, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Spotlight, spotlight } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Client, walkPages } from '../../client/index.ts';
import { useApi } from '../app/api.ts';
import { matchesText } from '../components/matchesText.ts';
import { NAV, RESOURCES, type Resource } from './nav.ts';

export { spotlight };

const PER_GROUP = 6;
type Row = Record<string, unknown>;
type PageOf = { data: Row[]; continuationToken?: string | null };

interface Hit {
  resource: Resource;
  code: string;
  name: string;
}

/** Every row of a list without a text filter (at most 20 pages), shared for a minute. */
async function allRows(api: Client, path: string, signal: AbortSignal): Promise<Row[]> {
  const rows: Row[] = [];
  let pages = 0;
  for await (const page of walkPages((token) =>
    api.raw<PageOf>('GET', path, { query: { continuationToken: token }, signal }),
  )) {
    rows.push(...page.data);
    if (++pages >= 20) break;
  }
  return rows;
}

export function CommandPalette() {
  const { t } = useTranslation('common');
  const api = useApi();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [q] = useDebouncedValue(query.trim(), 200);

  const search = useQuery({
    queryKey: ['palette', q],
    enabled: q.length > 0,
    staleTime: 30_000,
    retry: false,
    queryFn: async ({ signal }) => {
      const lists = await Promise.allSettled(
        RESOURCES.map(async (r): Promise<Row[]> => {
          if (r.list.search.kind === 'server') {
            const page = await api.raw<PageOf>('GET', r.list.path, {
              query: { [r.list.search.param]: q },
              signal,
            });
            return page.data;
          }
          const rows = await qc.fetchQuery({
            queryKey: ['palette', 'all', r.key],
            queryFn: ({ signal: s }) => allRows(api, r.list.path, s),
            staleTime: 60_000,
          });
          const name = r.nameField ?? 'name';
          return rows.filter((row) =>
            matchesText(q, String(row[r.codeField] ?? ''), String(row[name] ?? '')),
          );
        }),
      );
      const hits: Hit[] = [];
      lists.forEach((res, i) => {
        if (res.status !== 'fulfilled') return;
        const r = RESOURCES[i];
        for (const row of res.value.slice(0, PER_GROUP))
          hits.push({
            resource: r,
            code: String(row[r.codeField]),
            name: String(row[r.nameField ?? 'name'] ?? ''),
          });
      });
      return { hits, failed: lists.every((res) => res.status === 'rejected') };
    },
  });

  const lower = query.trim();
  const pages = NAV.flatMap((g) => g.items).filter((i) => !lower || matchesText(lower, t(i.label)));
  const hits = q ? (search.data?.hits ?? []) : [];
  // A query of a resource's direct form (e.g. a uuid) opens that record without a search.
  const direct = q ? RESOURCES.filter((r) => r.direct && new RegExp(r.direct.pattern).test(q)) : [];

  const openHit = (h: Hit) => {
    spotlight.close();
    const { paths } = h.resource;
    if (paths.detail) void navigate({ to: paths.detail, params: { code: h.code } });
    else void navigate({ to: paths.list, search: { q: h.code } });
  };

  return (
    <Spotlight.Root query={query} onQueryChange={setQuery} shortcut={['mod + K']} scrollable maxHeight={440}>
      <Spotlight.Search
        placeholder={t('palette.placeholder')}
        leftSection={<IconSearch size={18} stroke={1.5} />}
        aria-label={t('header.searchHint')}
      />
      <Spotlight.ActionsList aria-label={t('header.searchHint')}>
        {direct.map((r) =>
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
                <Group wrap="nowrap" gap="sm" w="100%">
                  <Badge variant="light" radius="sm" ff="monospace" style={{ textTransform: 'none' }}>
                    {q}
                  </Badge>
                  <Text size="sm" truncate>
                    {t(r.direct.label)}
                  </Text>
                </Group>
              </Spotlight.Action>
            </Spotlight.ActionsGroup>
          ) : null,
        )}
        {RESOURCES.map((r) => {
          const group = hits.filter((h) => h.resource.key === r.key);
          if (!group.length) return null;
          return (
            <Spotlight.ActionsGroup key={r.key} label={t(r.label.many)}>
              {group.map((h) => (
                <Spotlight.Action
                  key={`${r.key}:${h.code}`}
                  onClick={() => openHit(h)}
                  data-testid="palette-hit"
                  data-resource={r.key}
                >
                  <Group wrap="nowrap" gap="sm" w="100%">
                    <Badge variant="light" radius="sm" ff="monospace" style={{ textTransform: 'none' }}>
                      {h.code}
                    </Badge>
                    <Text size="sm" truncate>
                      {h.name}
                    </Text>
                  </Group>
                </Spotlight.Action>
              ))}
            </Spotlight.ActionsGroup>
          );
        })}
        {pages.length > 0 && (
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
        )}
        {q && search.isFetching && hits.length === 0 && (
          <Spotlight.Empty>{t('palette.searching')}</Spotlight.Empty>
        )}
        {q && !search.isFetching && search.data?.failed && (
          <Spotlight.Empty>{t('palette.unavailable')}</Spotlight.Empty>
        )}
        {q &&
          !search.isFetching &&
          !search.data?.failed &&
          hits.length === 0 &&
          pages.length === 0 &&
          direct.length === 0 && <Spotlight.Empty>{t('palette.nothing')}</Spotlight.Empty>}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
