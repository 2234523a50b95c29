import { Autocomplete, type AutocompleteProps, Breadcrumbs, Group, Loader, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AnchorLink } from '../../../components/links.tsx';
import { useDebounced } from '../../../components/useDebounced.ts';
import { refKeys } from '../api.ts';
import { type ReferentialEntity, referentialPaths } from '../paths.ts';
import { refResource } from '../resources.tsx';
import { useRefApi } from '../transport.ts';

const MAX_DEPTH = 10;
/** Pause in typing before the suggestions are asked for. */
export const PICKER_DEBOUNCE_MS = 300;
const MAX_OPTIONS = 20;

export interface PathStep {
  code: string;
  name?: string | null;
  missing?: boolean;
}

/**
 * Walks up from `code` through the parents (at most 10 levels, spec: hierarchy depth) and
 * returns the path from the top, the given record last. Each level goes through the
 * record's own query cache, shared with the detail pages.
 *
 * `verify`: the code was typed and may not exist. It is looked up through the list's text
 * search first (an empty answer, where a GET by code would be a 404 in the browser's
 * console); only codes that exist are read by code.
 */
export function useAncestors(entity: ReferentialEntity, code: string | null | undefined, verify = false) {
  const qc = useQueryClient();
  const refApi = useRefApi();
  const res = refResource(entity);
  const start = (code ?? '').trim().toUpperCase();
  const q = useQuery({
    queryKey: [...refKeys.record(entity, start), 'ancestors', verify],
    enabled: start !== '',
    staleTime: 30_000,
    retry: false,
    queryFn: async ({ signal }) => {
      const path: PathStep[] = [];
      let next: string | null = start;
      if (verify) {
        const page = await refApi.list(entity, { q: start }, signal);
        if (!page.data.some((r) => res.codeOf(r) === start)) return [{ code: start, missing: true }];
      }
      while (next && path.length <= MAX_DEPTH && !path.some((p) => p.code === next)) {
        const c: string = next;
        try {
          const { record } = await qc.fetchQuery({
            queryKey: refKeys.record(entity, c),
            queryFn: ({ signal: s }) => refApi.get(entity, c, s),
            staleTime: 30_000,
          });
          path.push({ code: res.codeOf(record), name: record.name ?? null });
          next = res.parentOf(record);
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

interface ParentPickerProps extends Omit<AutocompleteProps, 'data' | 'value' | 'onChange'> {
  entity: ReferentialEntity;
  /** The record being edited (refused as its own parent); empty on creation. */
  self?: string;
  value: string | null | undefined;
  onChange: (code: string | null) => void;
}

/**
 * Picker of a related record (parent, customer, site): type a code or part of a name; the
 * suggestions are the list's text search (`?q=`), asked once typing pauses, never the
 * whole list. The chosen record's path from the top of its hierarchy shows below, and a
 * parent that sits below the edited record is flagged before the service refuses it.
 */
export function ParentPicker({ entity, self, value, onChange, ...rest }: ParentPickerProps) {
  const { t } = useTranslation('referentials');
  const refApi = useRefApi();
  const res = refResource(entity);
  // The text while the user types (null: show the value).
  const [typing, setTyping] = useState<string | null>(null);
  // Suggestions open on typing, a click or the arrow keys; not on focus alone (the form
  // focuses a field the service refused, and a dropdown would hide its message).
  const [opened, setOpened] = useState(false);
  const text = typing ?? value ?? '';
  const q = useDebounced(typing?.trim() ?? '', PICKER_DEBOUNCE_MS);
  const suggestions = useQuery({
    queryKey: [...refKeys.lists(entity), 'picker', q],
    queryFn: ({ signal }) => refApi.list(entity, { q }, signal),
    enabled: opened && q !== '',
    staleTime: 10_000,
    retry: false,
  });
  const selfCode = self?.toUpperCase();
  const options = useMemo(
    () =>
      (q ? (suggestions.data?.data ?? []) : [])
        .map((r) => ({ code: res.codeOf(r), name: r.name ?? '' }))
        .filter((o) => o.code !== selfCode)
        .slice(0, MAX_OPTIONS),
    [q, suggestions.data, res, selfCode],
  );
  const names = useMemo(() => new Map(options.map((o) => [o.code, o.name])), [options]);
  // The path is looked up for the value the user settled on, not for each keystroke.
  const current = typing === null ? (value ?? '').toUpperCase() : '';
  const ancestors = useAncestors(entity, current || null, true);
  const cycle = !!selfCode && ancestors.path.some((p) => p.code === selfCode) && current !== selfCode;
  const missing = current !== '' && ancestors.path.length === 1 && ancestors.path[0].missing;
  const desc =
    current && ancestors.path.length > 0 && !missing ? (
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
              <AnchorLink
                key={p.code}
                to={referentialPaths[entity].detail}
                params={{ code: p.code }}
                size="xs"
              >
                {p.code}
              </AnchorLink>
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
      error={
        rest.error ??
        (cycle ? t('hierarchy.descendant') : missing ? t('hierarchy.unknown', { code: current }) : undefined)
      }
      value={text}
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
      rightSection={suggestions.isFetching ? <Loader size="xs" /> : undefined}
      dropdownOpened={opened && options.length > 0}
      onDropdownClose={() => setOpened(false)}
      onClick={() => setOpened(true)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') setOpened(true);
        if (e.key === 'Escape') setOpened(false);
      }}
      onOptionSubmit={(v) => {
        setTyping(null);
        setOpened(false);
        onChange(v);
      }}
      onChange={(v) => {
        setTyping(v);
        setOpened(true);
        onChange(v.trim() === '' ? null : v.trim().toUpperCase());
      }}
      onBlur={(e) => {
        setTyping(null);
        setOpened(false);
        rest.onBlur?.(e);
      }}
    />
  );
}
