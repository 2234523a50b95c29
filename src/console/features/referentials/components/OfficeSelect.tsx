import { Group, Select, type SelectProps, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useOffices } from '../api.ts';
import { officeTree } from '../offices.ts';

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
