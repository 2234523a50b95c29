/**
 * Renders and edits a `customFields` object from the entity's definitions (extension
 * `GET .../customFieldDefinitions?entity=`). Works as a controlled react-hook-form field:
 * `<Controller name="customFields" render={({ field }) => <CustomFieldsEditor {...field} ... />} />`.
 *
 * Every input writes the value object of its definition's type (exactly one property,
 * spec: Custom fields); clearing an optional input removes the code. Codes present in the
 * value but not described by any definition are shown read-only and kept as they are.
 */
import { Badge, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CustomFieldDefinition, CustomFields, CustomFieldValue } from '../../../contract/common.ts';
import { customFieldErrorMessage } from './customFieldsSchema.ts';
import { formatCustomValue, setCustomField, unknownCodes } from './customFieldValues.ts';
import { LocalDates } from './dates.tsx';
import { FieldInput } from './FieldInput.tsx';

export interface CustomFieldsEditorProps {
  definitions: readonly CustomFieldDefinition[];
  value: CustomFields | null | undefined;
  onChange: (next: CustomFields) => void;
  onBlur?: () => void;
  /** Messages (or i18n keys such as `customFields:errors.mandatory`) by field code. */
  errors?: Record<string, string | undefined>;
  /** An error about the whole object (e.g. a server refusal not tied to one code). */
  error?: string;
  disabled?: boolean;
  /** Shown when the instance has no definitions for this entity. */
  emptyHint?: string;
}

export function CustomFieldsEditor(props: CustomFieldsEditorProps) {
  const { definitions, value, onChange, onBlur, errors, error, disabled } = props;
  const { t } = useTranslation('customFields');
  const extra = unknownCodes(definitions, value);
  const write = (code: string, next: CustomFieldValue | undefined) =>
    onChange(setCustomField(value, code, next));
  const msg = (code: string) => {
    const m = errors?.[code];
    if (!m) return undefined;
    // A date written right that does not exist (2019-02-30) is told so.
    const d = value?.[code]?.dateValue;
    if (m === customFieldErrorMessage('date') && typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d))
      return t('errors.dateNotExist');
    return t(m, { defaultValue: m });
  };

  return (
    <LocalDates>
      <Stack gap="sm" onBlur={onBlur} data-testid="custom-fields-editor">
        {definitions.length === 0 && extra.length === 0 && (
          <Text size="sm" c="dimmed">
            {props.emptyHint ?? t('none')}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          {definitions.map((def) => (
            <FieldInput
              key={def.code}
              def={def}
              value={value?.[def.code]}
              error={msg(def.code)}
              disabled={disabled}
              onChange={(next) => write(def.code, next)}
            />
          ))}
        </SimpleGrid>
        {extra.length > 0 && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('unknownTitle')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('unknownHint')}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="xs">
              {extra.map((code) => (
                <TextInput
                  key={code}
                  label={
                    <Group gap={6} component="span">
                      <span>{code}</span>
                      <Badge size="xs" variant="default" component="span">
                        {t('readOnly')}
                      </Badge>
                    </Group>
                  }
                  value={formatCustomValue(value?.[code], t('yes'), t('no'))}
                  readOnly
                  data-testid={`cf-unknown-${code}`}
                />
              ))}
            </SimpleGrid>
          </Stack>
        )}
        {error && (
          <Text size="sm" c="red" role="alert">
            {t(error, { defaultValue: error })}
          </Text>
        )}
      </Stack>
    </LocalDates>
  );
}
