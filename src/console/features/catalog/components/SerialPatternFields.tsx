/**
 * The item form's serial number fields: whether serials are tracked, and the pattern they follow.
 */
import { Grid, Group, Text, TextInput } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type ItemForm, testSerial } from '../itemForm.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { useItemFieldError as useErr } from './useItemFieldError.ts';

/** The pattern, checked as a RegExp while typing, and a sample to try it on. */
export function SerialPatternFields() {
  const { t } = useTranslation('catalog');
  const { register, control } = useFormContext<ItemForm>();
  const err = useErr();
  const pattern = useWatch({ control, name: 'serialNumberPattern' });
  const [sample, setSample] = useState('');
  const compiles = pattern === '' ? null : testSerial(pattern, '') !== null;
  const result = pattern && sample ? testSerial(pattern, sample) : null;
  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, sm: 7 }}>
        <TextInput
          label={t('item.fields.serialNumberPattern')}
          description={t('item.hints.serialNumberPattern')}
          placeholder="^SN-\d{6}$"
          maxLength={1000}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...register('serialNumberPattern')}
          error={err('serialNumberPattern') ?? (compiles === false ? t('validation.pattern') : undefined)}
          rightSection={
            compiles === true ? (
              <IconCheck
                size={16}
                color="var(--mantine-color-teal-6)"
                aria-label={t('item.hints.patternOk')}
              />
            ) : undefined
          }
          data-testid="item-serial-pattern"
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 5 }}>
        <TextInput
          label={t('item.fields.serialSample')}
          description={t('item.hints.serialSample')}
          value={sample}
          disabled={!pattern || compiles === false}
          onChange={(e) => setSample(e.currentTarget.value)}
          rightSectionWidth={110}
          rightSection={
            result === null ? undefined : (
              <StatusBadge
                color={result ? 'teal' : 'red'}
                leftSection={result ? <IconCheck size={12} /> : <IconX size={12} />}
              >
                {result ? t('item.hints.matches') : t('item.hints.noMatch')}
              </StatusBadge>
            )
          }
          data-testid="item-serial-sample"
        />
      </Grid.Col>
      <Grid.Col span={12}>
        <Group gap={6}>
          <Text size="xs" c="dimmed">
            {t('item.hints.patternExamples')}
          </Text>
        </Group>
      </Grid.Col>
    </Grid>
  );
}
