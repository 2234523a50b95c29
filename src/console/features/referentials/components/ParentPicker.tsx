import {
  Anchor,
  Autocomplete,
  type AutocompleteProps,
  Breadcrumbs,
  Group,
  Loader,
  Text,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebounced } from '../../../components/useDebounced.ts';
import { refKeys, useListPage } from '../api.ts';
import { detailPath } from '../paths.ts';
import { useRefApi } from '../transport.ts';
import { codeOf, parentOf, type ReferentialEntity } from '../types.ts';

const MAX_DEPTH = 10;

/**
 * Walks up from `code` through the parents (at most 10 levels, spec: hierarchy depth) and
 * returns the path from the top, the given record last. Each level goes through the
 * record's own query cache, shared with the detail pages.
 */
export function useAncestors(entity: ReferentialEntity, code: string | null | undefined) {
  const qc = useQueryClient();
  const refApi = useRefApi();
  const start = (code ?? '').trim().toUpperCase();
  const q = useQuery({
    queryKey: [...refKeys.record(entity, start), 'ancestors'],
    enabled: start !== '',
    staleTime: 30_000,
    retry: false,
    queryFn: async () => {
      const path: PathStep[] = [];
      let next: string | null = start;
      while (next && path.length <= MAX_DEPTH && !path.some((p) => p.code === next)) {
        const c: string = next;
        try {
          const rec = (await qc.fetchQuery({
            queryKey: refKeys.record(entity, c),
            queryFn: ({ signal }) => refApi.get(entity, c, signal),
            staleTime: 30_000,
          })) as unknown as Record<string, unknown>;
          path.push({ code: codeOf(entity, rec), name: (rec.name as string | null) ?? null });
          next = parentOf(entity, rec);
        } catch {
          path.push({ code: c, missing: true });
          next = null;
        }
      }
      return path.reverse();
    },
  });
  return { path: start ? (q.data ?? []) : [], loading: q.isLoading };
}

export interface PathStep {
  code: string;
  name?: string | null;
  missing?: boolean;
}

interface ParentPickerProps extends Omit<AutocompleteProps, 'data' | 'value' | 'onChange'> {
  entity: ReferentialEntity;
  /** The record being edited (refused as its own parent); empty on creation. */
  self?: string;
  value: string | null | undefined;
  onChange: (code: string | null) => void;
  /** Extra list filter (e.g. the customer of a site). */
  officeCode?: string;
}

/**
 * Parent picker: type a code or search by name (list extension), see the chosen parent's
 * path from the top of the hierarchy. The record itself is never offered, and a parent
 * that sits below the record is flagged before the service refuses it.
 */
export function ParentPicker({ entity, self, value, onChange, officeCode, ...rest }: ParentPickerProps) {
  const { t } = useTranslation('referentials');
  const [search, setSearch] = useState<string | null>(null);
  // Suggestions open on typing, a click or the arrow keys; not on focus alone (the form
  // focuses a field the service refused, and a dropdown would hide its message).
  const [opened, setOpened] = useState(false);
  const typed = search ?? value ?? '';
  const q = useDebounced(typed.trim(), 250);
  const list = useListPage(entity, { q: q || undefined, officeCode }, true);
  const selfCode = self?.toUpperCase();
  const options = useMemo(() => {
    const items = (list.data?.data ?? []) as unknown as Record<string, unknown>[];
    return items
      .map((r) => ({ code: codeOf(entity, r), name: (r.name as string | null) ?? '' }))
      .filter((o) => o.code !== selfCode);
  }, [list.data, entity, selfCode]);
  const names = useMemo(() => new Map(options.map((o) => [o.code, o.name])), [options]);
  const current = (value ?? '').toUpperCase();
  const ancestors = useAncestors(entity, current || null);
  const cycle = !!selfCode && ancestors.path.some((p) => p.code === selfCode) && current !== selfCode;
  const desc =
    current && ancestors.path.length > 0 ? (
      <Group gap={4} wrap="nowrap" component="span">
        <Text span size="xs" c="dimmed">
          {t('hierarchy.path')}:
        </Text>
        <Breadcrumbs separator="›" separatorMargin={4} component="span">
          {ancestors.path.map((p) =>
            p.missing ? (
              <Text key={p.code} span size="xs" c="red">
                {p.code} ?
              </Text>
            ) : (
              <Anchor key={p.code} component={Link} to={detailPath(entity, p.code)} size="xs">
                {p.code}
              </Anchor>
            ),
          )}
        </Breadcrumbs>
        {ancestors.loading && <Loader size={10} />}
      </Group>
    ) : (
      rest.description
    );
  return (
    <Autocomplete
      placeholder={t('hierarchy.pickParent')}
      clearable
      {...rest}
      description={desc}
      error={rest.error ?? (cycle ? t('hierarchy.descendant') : undefined)}
      value={typed}
      data={options.map((o) => o.code)}
      filter={({ options: o }) => o}
      renderOption={({ option }) => (
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" fw={500}>
            {option.value}
          </Text>
          <Text size="sm" c="dimmed" truncate>
            {names.get(option.value)}
          </Text>
        </Group>
      )}
      rightSection={list.isFetching ? <Loader size="xs" /> : undefined}
      dropdownOpened={opened && options.length > 0}
      onDropdownClose={() => setOpened(false)}
      onClick={() => setOpened(true)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') setOpened(true);
        if (e.key === 'Escape') setOpened(false);
      }}
      onOptionSubmit={() => setOpened(false)}
      onChange={(v) => {
        setSearch(v);
        setOpened(true);
        onChange(v.trim() === '' ? null : v.trim().toUpperCase());
      }}
      onBlur={(e) => {
        setSearch(null);
        setOpened(false);
        rest.onBlur?.(e);
      }}
    />
  );
}
