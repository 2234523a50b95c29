/**
 * The slot search's filters and options (under "Filters and options"): offices, skills added
 * to the type's, customer portal user, areas and their scope, the zone filter, the first slot
 * of the day, starting hours, the maximum and the capacity model.
 */
import { Grid, MultiSelect, NumberInput, Select, Stack, Switch, TagsInput, TextInput } from '@mantine/core';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useAreas, useOffices, useSkills } from '../../queries.ts';
import type { PlannerField, PlannerFormValues } from '../../request.ts';
import { mergeChoices, usePlannerErrors } from './plannerErrors.tsx';

/** Inputs of this section (it opens when one of them holds an error). */
export const OPTION_FIELDS: readonly PlannerField[] = [
  'offices',
  'areas',
  'areaScope',
  'skills',
  'zoneZip',
  'portalUser',
  'hours',
  'max',
];

export function OptionsSection() {
  const { t } = useTranslation('planning');
  const { control, register } = useFormContext<PlannerFormValues>();
  const [zone, firstOfDay] = useWatch({ control, name: ['zone', 'firstOfDay'] });
  const { errorOf, refused } = usePlannerErrors();
  const offices = useOffices();
  const areas = useAreas();
  const skills = useSkills();
  return (
    <Grid gap="md" mt="xs">
      <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
        <Controller
          control={control}
          name="offices"
          render={({ field }) => (
            <MultiSelect
              label={t('form.offices')}
              description={t('form.officesHint')}
              placeholder={field.value.length ? undefined : t('form.allOffices')}
              searchable
              clearable
              value={field.value}
              onChange={field.onChange}
              data={mergeChoices(
                (offices.data ?? []).map((o) => ({ value: o.code, label: `${o.code} — ${o.name}` })),
                field.value,
              )}
              nothingFoundMessage={t('form.nothingFound')}
              error={errorOf('offices')}
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
        <Controller
          control={control}
          name="skills"
          render={({ field }) => (
            <MultiSelect
              label={t('form.skills')}
              description={t('form.skillsHint')}
              searchable
              clearable
              value={field.value}
              onChange={field.onChange}
              data={mergeChoices(
                (skills.data ?? []).map((s) => ({
                  value: s.skillCode,
                  label: `${s.skillCode} — ${s.name}`,
                })),
                field.value,
              )}
              nothingFoundMessage={t('form.nothingFound')}
              error={errorOf('skills')}
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
        <Controller
          control={control}
          name="portalUser"
          render={({ field }) => (
            <TextInput
              label={t('form.portalUser')}
              description={t('form.portalUserHint')}
              value={field.value}
              onChange={field.onChange}
              error={errorOf('portalUser')}
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
        <Controller
          control={control}
          name="areas"
          render={({ field }) => (
            <MultiSelect
              label={t('form.areas')}
              description={t('form.areasHint')}
              searchable
              clearable
              value={field.value}
              onChange={field.onChange}
              data={mergeChoices(
                (areas.data ?? []).map((a) => ({
                  value: a.areaCode,
                  label: `${a.areaCode} — ${a.name}`,
                })),
                field.value,
              )}
              nothingFoundMessage={t('form.nothingFound')}
              error={errorOf('areas')}
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
        <Controller
          control={control}
          name="areaScope"
          render={({ field }) => (
            <Select
              label={t('form.areaScope')}
              description={t('form.areaScopeHint')}
              value={field.value}
              onChange={(v) => field.onChange(v ?? '')}
              allowDeselect={false}
              data={[
                { value: '', label: t('form.areaScopeDefault') },
                { value: 'RESOURCE', label: t('form.areaScopeResource') },
                { value: 'TIMESLOT', label: t('form.areaScopeTimeslot') },
                ...(['', 'RESOURCE', 'TIMESLOT'].includes(field.value)
                  ? []
                  : [{ value: field.value, label: field.value }]),
              ]}
              error={errorOf('areaScope')}
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
        <Stack gap={6}>
          <Controller
            control={control}
            name="zone"
            render={({ field }) => (
              <Switch
                label={t('form.zoneFilter')}
                description={t('form.zoneFilterHint')}
                checked={field.value}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
                mt={4}
              />
            )}
          />
          {(zone || refused('zoneZip')) && (
            <TextInput
              label={t('form.zoneZip')}
              error={errorOf('zoneZip')}
              w={200}
              {...register('zoneZip')}
            />
          )}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
        <Stack gap={6}>
          <Controller
            control={control}
            name="firstOfDay"
            render={({ field }) => (
              <Switch
                label={t('form.firstOfDay')}
                description={t('form.firstOfDayHint')}
                checked={field.value}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
                mt={4}
              />
            )}
          />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
        <Controller
          control={control}
          name="hours"
          render={({ field }) => (
            <TagsInput
              label={t('form.hours')}
              description={firstOfDay ? t('form.hoursFirstOfDay') : t('form.hoursHint')}
              placeholder={field.value.length ? undefined : t('form.hoursPlaceholder')}
              value={field.value}
              onChange={field.onChange}
              clearable
              error={errorOf('hours')}
            />
          )}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
        <Stack gap="sm">
          <Controller
            control={control}
            name="max"
            render={({ field }) => (
              <NumberInput
                label={t('form.max')}
                description={t('form.maxHint')}
                placeholder="50"
                allowDecimal={false}
                allowNegative={false}
                value={field.value}
                onChange={(v) => field.onChange(v === '' ? '' : String(v))}
                error={errorOf('max')}
                w={200}
              />
            )}
          />
          <Controller
            control={control}
            name="ignoreCapacity"
            render={({ field }) => (
              <Switch
                label={t('form.ignoreCapacity')}
                description={t('form.ignoreCapacityHint')}
                checked={field.value}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
              />
            )}
          />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
