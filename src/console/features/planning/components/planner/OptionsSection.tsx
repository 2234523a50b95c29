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

/** A list of codes to pick among the reference's (offices, skills, areas), each shown with its name. */
function CodesInput({
  name,
  choices,
  placeholder,
}: {
  name: 'offices' | 'skills' | 'areas';
  choices: readonly { code: string; name: string }[] | undefined;
  placeholder?: string;
}) {
  const { t } = useTranslation('planning');
  const { control } = useFormContext<PlannerFormValues>();
  const { errorOf } = usePlannerErrors();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <MultiSelect
          label={t(`form.${name}`)}
          description={t(`form.${name}Hint`)}
          placeholder={field.value.length ? undefined : placeholder}
          searchable
          clearable
          value={field.value}
          onChange={field.onChange}
          data={mergeChoices(
            (choices ?? []).map((c) => ({ value: c.code, label: `${c.code} — ${c.name}` })),
            field.value,
          )}
          nothingFoundMessage={t('form.nothingFound')}
          error={errorOf(name)}
        />
      )}
    />
  );
}

/** An on/off option, with its hint. */
function OptionSwitch({ name, mt }: { name: 'zone' | 'firstOfDay' | 'ignoreCapacity'; mt?: number }) {
  const { t } = useTranslation('planning');
  const { control } = useFormContext<PlannerFormValues>();
  const label = name === 'zone' ? 'zoneFilter' : name;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Switch
          label={t(`form.${label}`)}
          description={t(`form.${label}Hint`)}
          checked={field.value}
          onChange={(e) => field.onChange(e.currentTarget.checked)}
          mt={mt}
        />
      )}
    />
  );
}

const COLUMN = { base: 12, sm: 6, lg: 4 };

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
      <Grid.Col span={COLUMN}>
        <CodesInput name="offices" choices={offices.data} placeholder={t('form.allOffices')} />
      </Grid.Col>
      <Grid.Col span={COLUMN}>
        <CodesInput name="skills" choices={skills.data?.map((s) => ({ code: s.skillCode, name: s.name }))} />
      </Grid.Col>
      <Grid.Col span={COLUMN}>
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
      <Grid.Col span={COLUMN}>
        <CodesInput name="areas" choices={areas.data?.map((a) => ({ code: a.areaCode, name: a.name }))} />
      </Grid.Col>
      <Grid.Col span={COLUMN}>
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
      <Grid.Col span={COLUMN}>
        <Stack gap={6}>
          <OptionSwitch name="zone" mt={4} />
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
      <Grid.Col span={COLUMN}>
        <Stack gap={6}>
          <OptionSwitch name="firstOfDay" mt={4} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={COLUMN}>
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
      <Grid.Col span={COLUMN}>
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
          <OptionSwitch name="ignoreCapacity" />
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
