/**
 * The input of one custom field, by its definition's type (text, number, yes/no, list, date,
 * date-time, GPS, minutes).
 */
import { Fieldset, Group, NumberInput, Radio, Select, Text, TextInput } from '@mantine/core';
import type { TFunction } from 'i18next';
import { type ReactElement, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CustomFieldDefinition, CustomFieldType, CustomFieldValue } from '../../../contract/common.ts';
import { CoordinatesInput } from './CoordinatesInput.tsx';
import {
  dateTimeFromPicker,
  dateTimeToPicker,
  formatCustomValue,
  gpsErrors,
  presentType,
} from './customFieldValues.ts';
import { DateTimeInput, StrictDateInput } from './dates.tsx';

export interface FieldInputProps {
  def: CustomFieldDefinition;
  value: CustomFieldValue | undefined;
  error?: string;
  disabled?: boolean;
  onChange: (next: CustomFieldValue | undefined) => void;
}

export function FieldInput({ def, value, error, disabled, onChange }: FieldInputProps) {
  const { t } = useTranslation('customFields');
  const label = def.label || def.code;
  const common: CommonProps = {
    label,
    withAsterisk: def.mandatory,
    error,
    disabled,
    'data-testid': `cf-${def.code}`,
  };
  const present = presentType(value);
  if (present !== null && present !== def.type) {
    // The stored value has another type than the definition (the configuration changed):
    // show it as it is, keep it, and let the user clear it.
    return (
      <TextInput
        {...common}
        readOnly
        value={formatCustomValue(value, t('yes'), t('no'))}
        description={t('typeMismatchHint', { type: t(`types.${present}`) })}
      />
    );
  }
  const v = value ? (value as Record<string, unknown>)[def.type] : undefined;
  return INPUT_OF_TYPE[def.type]({ def, v, common, t, onChange });
}

/** What every input of a field is given. */
interface CommonProps {
  label: string;
  withAsterisk: boolean;
  error: string | undefined;
  disabled: boolean | undefined;
  'data-testid': string;
}

/** One type's input: `v` is the stored value of the definition's type, if any. */
interface TypedInputProps {
  def: CustomFieldDefinition;
  v: unknown;
  common: CommonProps;
  t: TFunction<'customFields'>;
  onChange: (next: CustomFieldValue | undefined) => void;
}

/**
 * The input of each type. Called, not mounted: the element FieldInput returns is the input
 * itself, as when these were the cases of one switch.
 */
const INPUT_OF_TYPE: Record<CustomFieldType, (p: TypedInputProps) => ReactElement> = {
  textValue: ({ def, v, common, onChange }) => (
    <TextInput
      {...common}
      value={typeof v === 'string' ? v : ''}
      onChange={(e) => {
        const s = e.currentTarget.value;
        onChange(s === '' && !def.mandatory ? undefined : { textValue: s });
      }}
    />
  ),
  // Yes, No, and for an optional field "Not set" (the code absent): a choice can be undone.
  booleanValue: ({ def, v, common, t, onChange }) => (
    <Radio.Group
      label={common.label}
      withAsterisk={def.mandatory}
      error={common.error}
      value={v === true ? 'yes' : v === false ? 'no' : 'unset'}
      onChange={(c) => onChange(c === 'unset' ? undefined : { booleanValue: c === 'yes' })}
      data-testid={`cf-${def.code}`}
    >
      <Group gap="md" mt={6}>
        {!def.mandatory && <Radio value="unset" label={t('notSet')} disabled={common.disabled} />}
        <Radio value="yes" label={t('yes')} disabled={common.disabled} />
        <Radio value="no" label={t('no')} disabled={common.disabled} />
      </Group>
    </Radio.Group>
  ),
  dateValue: ({ def, v, common, t, onChange }) => (
    <StrictDateInput
      {...common}
      value={typeof v === 'string' ? v : null}
      placeholder={t('datePlaceholder')}
      clearable={!def.mandatory}
      onChange={(d) => onChange(d ? { dateValue: d } : undefined)}
    />
  ),
  dateTimeValue: ({ def, v, common, t, onChange }) => (
    <DateTimeInput
      {...common}
      value={dateTimeToPicker(typeof v === 'string' ? v : null)}
      placeholder={t('dateTimePlaceholder')}
      clearable={!def.mandatory}
      onChange={(d) => {
        const s = dateTimeFromPicker(d);
        onChange(s ? { dateTimeValue: s } : undefined);
      }}
    />
  ),
  timeValue: ({ v, common, t, onChange }) => (
    <NumberInput
      {...common}
      value={typeof v === 'number' ? v : ''}
      // A decimal is kept as typed and refused by the check ("Enter a whole number"):
      // allowDecimal={false} dropped the point, so "1.5" became 15 minutes silently.
      description={t('timeHint')}
      suffix={` ${t('minutesSuffix')}`}
      onChange={(n) =>
        onChange(
          n === '' || n === undefined ? undefined : { timeValue: typeof n === 'number' ? n : Number(n) },
        )
      }
    />
  ),
  dropDownValue: ({ def, v, common, t, onChange }) => (
    <Select
      {...common}
      data={dropDownData(def.values, typeof v === 'string' ? v : null)}
      value={typeof v === 'string' ? v : null}
      // Clicking the chosen value again keeps it; the clear button (optional fields) empties it.
      allowDeselect={false}
      clearable={!def.mandatory}
      clearButtonProps={{ 'aria-label': t('clear', { label: common.label }) }}
      searchable={(def.values?.length ?? 0) > 8}
      onChange={(s) => onChange(s === null ? undefined : { dropDownValue: s })}
    />
  ),
  urlValue: ({ v, common, onChange }) => (
    <TextInput
      {...common}
      type="url"
      placeholder="https://"
      value={typeof v === 'string' ? v : ''}
      onChange={(e) => {
        const s = e.currentTarget.value;
        onChange(s === '' ? undefined : { urlValue: s });
      }}
    />
  ),
  gpsValue: ({ def, v, common, onChange }) => (
    <GpsInput
      def={def}
      value={v as { latitude?: number; longitude?: number } | undefined}
      error={common.error}
      disabled={common.disabled}
      onChange={onChange}
    />
  ),
};

/** Keeps a stored value visible even when the definition no longer lists it. */
export function dropDownData(values: string[] | null, current: string | null): string[] {
  const data = [...(values ?? [])];
  if (current !== null && !data.includes(current)) data.push(current);
  return data;
}

export function GpsInput(props: {
  def: CustomFieldDefinition;
  value: { latitude?: number; longitude?: number } | undefined;
  error?: string;
  disabled?: boolean;
  onChange: (next: CustomFieldValue | undefined) => void;
}) {
  const { def, value, error, disabled, onChange } = props;
  const { t } = useTranslation('customFields');
  // Checked as typed: each coordinate's range at once, the pair once the user leaves it.
  const [left, setLeft] = useState(false);
  const live = gpsErrors(value?.latitude, value?.longitude, left);
  const write = (lat: number | undefined, lng: number | undefined) => {
    if (lat === undefined && lng === undefined) onChange(undefined);
    // A half-filled pair is kept in the form value so that validation can report it.
    else onChange({ gpsValue: { latitude: lat, longitude: lng } as { latitude: number; longitude: number } });
  };
  const pairError = live.pair ? t(live.pair) : error && !live.latitude && !live.longitude ? error : undefined;
  return (
    <Fieldset
      legend={
        <Text component="span" size="sm" fw={500}>
          {def.label || def.code}
          {def.mandatory && (
            <Text component="span" c="red" aria-hidden>
              {' *'}
            </Text>
          )}
        </Text>
      }
      variant="unstyled"
      style={{ gridColumn: '1 / -1' }}
      data-testid={`cf-${def.code}`}
      disabled={disabled}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setLeft(true);
      }}
    >
      <CoordinatesInput
        latitude={value?.latitude}
        longitude={value?.longitude}
        onChange={write}
        errors={{
          latitude: live.latitude ? t(live.latitude) : undefined,
          longitude: live.longitude ? t(live.longitude) : undefined,
        }}
        testId={`cf-${def.code}`}
        disabled={disabled}
      />
      {pairError && (
        <Text size="xs" c="red" mt={4} role="alert" data-testid={`cf-${def.code}-error`}>
          {pairError}
        </Text>
      )}
    </Fieldset>
  );
}
