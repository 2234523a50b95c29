/**
 * Ctrl+K / ⌘K: open a record by code or name. Searches customers, sites and assets
 * through the list extensions (`?q=`), first page of each, and offers the pages of the
 * navigation. Calls go through `api.raw` with the paths, which keeps the contract's zod
 * schemas out of the shell's bundle.
 */
import { Badge, Group, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Spotlight, spotlight } from '@mantine/spotlight';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../app/api.ts';
import { NAV } from './nav.ts';

const BASE = '/eTech/rest/ws/referentials/v1';
const KINDS = [
  { kind: 'customers', codeField: 'customerCode' },
  { kind: 'sites', codeField: 'siteCode' },
  { kind: 'assets', codeField: 'assetCode' },
] as const;

interface Hit {
  kind: (typeof KINDS)[number]['kind'];
  code: string;
  name: string;
}

export { spotlight };

export function CommandPalette() {
  const { t } = useTranslation('common');
  const api = useApi();
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
        KINDS.map(({ kind }) =>
          api.raw<{ data: Record<string, unknown>[] }>('GET', `${BASE}/${kind}`, { query: { q }, signal }),
        ),
      );
      const hits: Hit[] = [];
      lists.forEach((r, i) => {
        if (r.status !== 'fulfilled') return;
        const { kind, codeField } = KINDS[i];
        for (const row of r.value.data.slice(0, 6))
          hits.push({ kind, code: String(row[codeField]), name: String(row.name ?? '') });
      });
      return { hits, failed: lists.every((r) => r.status === 'rejected') };
    },
  });

  const lower = query.trim().toLowerCase();
  const pages = NAV.flatMap((g) => g.items).filter((i) => !lower || t(i.label).toLowerCase().includes(lower));
  const hits = q ? (search.data?.hits ?? []) : [];

  const open = (to: string) => {
    spotlight.close();
    void navigate({ to });
  };

  return (
    <Spotlight.Root query={query} onQueryChange={setQuery} shortcut={['mod + K']} scrollable maxHeight={440}>
      <Spotlight.Search
        placeholder={t('palette.placeholder')}
        leftSection={<IconSearch size={18} stroke={1.5} />}
        aria-label={t('header.searchHint')}
      />
      <Spotlight.ActionsList aria-label={t('header.searchHint')}>
        {KINDS.map(({ kind }) => {
          const group = hits.filter((h) => h.kind === kind);
          if (!group.length) return null;
          return (
            <Spotlight.ActionsGroup key={kind} label={t(`palette.${kind}`)}>
              {group.map((h) => (
                <Spotlight.Action
                  key={`${kind}:${h.code}`}
                  onClick={() => open(`/referentials/${kind}/${encodeURIComponent(h.code)}`)}
                  data-testid="palette-hit"
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
                onClick={() => open(p.to)}
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
        {q && !search.isFetching && !search.data?.failed && hits.length === 0 && pages.length === 0 && (
          <Spotlight.Empty>{t('palette.nothing')}</Spotlight.Empty>
        )}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}
