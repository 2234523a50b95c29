import { Select, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { countries } from '../countries.ts';

/** ISO 3166-1 alpha-2 picker; names follow the UI language, the value is the code. */
export function CountrySelect(props: Omit<SelectProps, 'data'>) {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  const value = props.value ?? null;
  const data = useMemo(() => {
    const list = countries(language).map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));
    // A stored code this runtime does not know stays visible and selectable.
    if (value && !list.some((c) => c.value === value)) list.unshift({ value, label: value });
    return list;
  }, [language, value]);
  return <Select searchable clearable nothingFoundMessage="—" {...props} data={data} />;
}
