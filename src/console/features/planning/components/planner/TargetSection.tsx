/**
 * The planner's "where": a work order (its picker and what it needs), or a work order type
 * and a place (address, zip code, city, country, or coordinates).
 */
import { Fieldset, Grid, Select, Text, TextInput } from '@mantine/core';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Formats } from '../../format.ts';
import { useWorkOrderTypes } from '../../queries.ts';
import type { PlannerFormValues } from '../../request.ts';
import { WorkOrderNeedsCard, WorkOrderPicker } from '../WorkOrderPicker.tsx';
import { FieldError, usePlannerErrors } from './plannerErrors.tsx';

export function TargetSection({ f }: { f: Formats }) {
  const { t } = useTranslation('planning');
  const { control, register } = useFormContext<PlannerFormValues>();
  const [target, wo, type] = useWatch({ control, name: ['target', 'wo', 'type'] });
  const { errorOf } = usePlannerErrors();
  const types = useWorkOrderTypes();
  const selectedType = types.data?.find((x) => x.workOrderTypeCode === type);
  return target === 'workOrder' ? (
    <Grid gap="md" data-testid="field-wo">
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Controller
          control={control}
          name="wo"
          render={({ field }) => (
            <WorkOrderPicker value={field.value} onChange={field.onChange} error={errorOf('wo')} />
          )}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 7 }}>
        <WorkOrderNeedsCard code={wo.trim().toUpperCase()} f={f} />
      </Grid.Col>
    </Grid>
  ) : (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 4 }} data-testid="field-type">
        <Controller
          control={control}
          name="type"
          render={({ field }) => (
            <Select
              label={t('form.type')}
              placeholder={types.isPending ? t('form.loading') : t('form.typePlaceholder')}
              searchable
              clearable
              value={field.value || null}
              onChange={(v) => field.onChange(v ?? '')}
              data={(types.data ?? []).map((x) => ({
                value: x.workOrderTypeCode,
                label: `${x.workOrderTypeCode} — ${x.name}`,
              }))}
              nothingFoundMessage={t('form.nothingFound')}
              description={
                selectedType
                  ? t('form.typeNeeds', {
                      minutes: selectedType.durationMinutes,
                      skills: selectedType.skills.join(', ') || t('needs.noSkill'),
                    })
                  : t('form.typeHint')
              }
              error={errorOf('type') ?? (types.isError ? t('form.referenceFailed') : undefined)}
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Fieldset
          variant="unstyled"
          legend={
            <Text size="sm" fw={500} component="span">
              {t('form.place')}
            </Text>
          }
          data-testid="field-place"
        >
          <Text size="xs" c="dimmed">
            {t('form.placeHint')}
          </Text>
          <Grid gap="xs" mt={4}>
            <Grid.Col span={12}>
              <TextInput
                aria-label={t('form.address')}
                placeholder={t('form.address')}
                {...register('address')}
              />
            </Grid.Col>
            <Grid.Col span={3}>
              <TextInput aria-label={t('form.zip')} placeholder={t('form.zip')} {...register('zip')} />
            </Grid.Col>
            <Grid.Col span={6}>
              <TextInput aria-label={t('form.city')} placeholder={t('form.city')} {...register('city')} />
            </Grid.Col>
            <Grid.Col span={3}>
              <TextInput
                aria-label={t('form.country')}
                placeholder={t('form.countryPlaceholder')}
                maxLength={2}
                {...register('country')}
              />
            </Grid.Col>
          </Grid>
          <FieldError field="place" />
          <Grid gap="xs" mt="xs" data-testid="field-coordinates">
            <Grid.Col span={6}>
              <TextInput
                aria-label={t('form.latitude')}
                placeholder={t('form.latitude')}
                inputMode="decimal"
                {...register('lat')}
              />
            </Grid.Col>
            <Grid.Col span={6}>
              <TextInput
                aria-label={t('form.longitude')}
                placeholder={t('form.longitude')}
                inputMode="decimal"
                {...register('lon')}
              />
            </Grid.Col>
          </Grid>
          <FieldError field="coordinates" />
        </Fieldset>
      </Grid.Col>
    </Grid>
  );
}
