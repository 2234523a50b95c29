/** The planner's period: time ranges (in the display time zone), or an appointment date. */
import { ActionIcon, Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DayInput, ZonedDateTimeInput } from '../../../../components/customFields/dates.tsx';
import { defaultRange, type PlannerFormValues } from '../../request.ts';
import { FieldError, usePlannerErrors } from './plannerErrors.tsx';

export function PeriodSection({ timeZone }: { timeZone: string }) {
  const { t } = useTranslation('planning');
  const { control } = useFormContext<PlannerFormValues>();
  const ranges = useFieldArray({ control, name: 'ranges' });
  const period = useWatch({ control, name: 'period' });
  const { errorOf } = usePlannerErrors();
  return (
    <Stack gap={6}>
      <Group gap="md" align="flex-end" wrap="wrap">
        <Controller
          control={control}
          name="period"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="period-label">
                {t('form.period')}
              </Text>
              <SegmentedControl
                value={field.value}
                onChange={(v) => field.onChange(v)}
                aria-labelledby="period-label"
                data={[
                  { value: 'ranges', label: t('form.periodRanges') },
                  { value: 'date', label: t('form.periodDate') },
                ]}
                data-testid="period-switch"
              />
            </Stack>
          )}
        />
        {period === 'date' ? (
          <Controller
            control={control}
            name="date"
            render={({ field }) => (
              <DayInput
                label={t('form.appointmentDate')}
                description={t('form.appointmentHint')}
                error={errorOf('date')}
                w={240}
                data-testid="field-date"
                value={field.value ?? ''}
                timeZone={timeZone}
                onChange={field.onChange}
                onBlur={field.onBlur}
              />
            )}
          />
        ) : (
          <Stack gap={6} data-testid="field-ranges">
            {ranges.fields.map((r, i) => (
              <Group key={r.id} gap="xs" align="flex-end" wrap="nowrap">
                <Controller
                  control={control}
                  name={`ranges.${i}.start`}
                  render={({ field }) => (
                    <ZonedDateTimeInput
                      label={i === 0 ? t('form.from') : undefined}
                      aria-label={t('form.fromN', { n: i + 1 })}
                      w={250}
                      data-testid="range-start"
                      value={field.value}
                      timeZone={timeZone}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name={`ranges.${i}.end`}
                  render={({ field }) => (
                    <ZonedDateTimeInput
                      label={i === 0 ? t('form.to') : undefined}
                      aria-label={t('form.toN', { n: i + 1 })}
                      w={250}
                      data-testid="range-end"
                      value={field.value}
                      timeZone={timeZone}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                    />
                  )}
                />
                {ranges.fields.length > 1 && (
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="lg"
                    mb={2}
                    onClick={() => ranges.remove(i)}
                    aria-label={t('form.removeRange', { n: i + 1 })}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                )}
                {i === ranges.fields.length - 1 && (
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    mb={6}
                    leftSection={<IconPlus size={14} />}
                    onClick={() => ranges.append(defaultRange(Date.now(), timeZone))}
                    disabled={ranges.fields.length >= 20}
                  >
                    {t('form.addRange')}
                  </Button>
                )}
              </Group>
            ))}
            <FieldError field="ranges" />
          </Stack>
        )}
      </Group>
    </Stack>
  );
}
