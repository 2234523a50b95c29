import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CustomFieldDefinition, CustomFields } from '../../../contract/common.ts';
import { Field, Section } from '../records/RecordParts.tsx';
import { formatCustomValue, unknownCodes } from './customFieldValues.ts';

/**
 * The custom fields of a record on its detail page: each defined field that holds a value
 * (labelled by its definition), then the codes no definition describes, as stored.
 */
export function CustomFieldsSection({
  definitions,
  fields,
}: {
  definitions: readonly CustomFieldDefinition[];
  fields: CustomFields | null | undefined;
}) {
  const { t } = useTranslation('customFields');
  const extra = unknownCodes(definitions, fields);
  const shown = definitions.filter((d) => fields?.[d.code] !== undefined);
  return (
    <Section title={t('legend')} testId="section-custom-fields">
      {shown.length === 0 && extra.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('common:record.notSet')}
        </Text>
      )}
      {shown.map((d) => {
        const url = d.type === 'urlValue' ? fields?.[d.code]?.urlValue : undefined;
        return (
          <Field key={d.code} label={d.label || d.code}>
            {url ? (
              <Anchor href={url} target="_blank" rel="noreferrer" size="sm">
                {url}
              </Anchor>
            ) : (
              formatCustomValue(fields?.[d.code], t('yes'), t('no'))
            )}
          </Field>
        );
      })}
      {extra.map((c) => (
        <Field key={c} label={c}>
          {formatCustomValue(fields?.[c], t('yes'), t('no'))}
        </Field>
      ))}
    </Section>
  );
}
