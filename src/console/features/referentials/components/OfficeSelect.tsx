import { Group, Select, type SelectProps, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useOffices } from '../api.ts';
import type { Office } from '../transport.ts';

export interface OfficeOption {
  value: string;
  label: string;
  depth: number;
}

/** Depth-first order of the caller's office subtree, children under their parent. */
export function officeTree(offices: readonly Office[]): OfficeOption[] {
  const codes = new Set(offices.map((o) => o.code));
  const byParent = new Map<string | null, Office[]>();
  for (const o of offices) {
    // The caller's own office has a parent outside its tree: it is a root here.
    const parent = o.parentCode && codes.has(o.parentCode) ? o.parentCode : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), o]);
  }
  const out: OfficeOption[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const o of (byParent.get(parent) ?? []).sort((a, b) => a.code.localeCompare(b.code))) {
      out.push({
        value: o.code,
        label: o.name && o.name !== o.code ? `${o.code} — ${o.name}` : o.code,
        depth,
      });
      walk(o.code, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** Office picker limited to the caller's tree (extension `GET .../offices`), shown as a tree. */
export function OfficeSelect(props: Omit<SelectProps, 'data'>) {
  const { t } = useTranslation('referentials');
  const offices = useOffices();
  const options = useMemo(() => officeTree(offices.data ?? []), [offices.data]);
  const depth = useMemo(() => new Map(options.map((o) => [o.value, o.depth])), [options]);
  const value = props.value ?? null;
  const data = useMemo(() => {
    const list = options.map(({ value, label }) => ({ value, label }));
    if (value && !depth.has(value)) list.unshift({ value, label: value });
    return list;
  }, [options, depth, value]);
  return (
    <Select
      searchable
      placeholder={t('office.pick')}
      nothingFoundMessage="—"
      {...props}
      data={data}
      disabled={props.disabled}
      renderOption={({ option }) => (
        <Group gap={0} wrap="nowrap" style={{ paddingLeft: (depth.get(option.value) ?? 0) * 14 }}>
          {(depth.get(option.value) ?? 0) > 0 && (
            <Text span c="dimmed" mr={6} aria-hidden>
              └
            </Text>
          )}
          <Text span size="sm">
            {option.label}
          </Text>
        </Group>
      )}
    />
  );
}
