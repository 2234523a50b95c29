/**
 * The planner's search form: where the work is (a work order, or a type and a place), the
 * period (time ranges or an appointment date, in the display time zone) and the filters and
 * options of the slot search. It starts from the URL and writes the URL on Search; the page
 * searches from the URL. Errors show on their input: the form's own checks (shapes, before
 * sending) and the service's refusal of the search in the URL (each business code's sentence).
 */
import {
  ActionIcon,
  Button,
  Collapse,
  Fieldset,
  Grid,
  Group,
  Input,
  MultiSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAdjustments, IconPlus, IconSearch, IconTrash, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { zodErrorMap } from '../../../components/forms/zodErrorMap.ts';
import type { Formats } from '../format.ts';
import {
  planningKeys,
  useAreas,
  useOffices,
  usePlanningApi,
  useSkills,
  useWorkOrderTypes,
} from '../queries.ts';
import {
  checkForm,
  defaultRange,
  type FormProblem,
  formFromSearch,
  type PlannerField,
  type PlannerFormValues,
} from '../request.ts';
import type { PlannerSearch } from '../search.ts';
import { WorkOrderNeedsCard, WorkOrderPicker } from './WorkOrderPicker.tsx';

/** Inputs under "Filters and options" (opened when one of them holds an error). */
const OPTION_FIELDS: readonly PlannerField[] = [
  'offices',
  'areas',
  'areaScope',
  'skills',
  'zoneZip',
  'portalUser',
  'hours',
  'max',
];

function FieldError({ field, messages }: { field: string; messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <Stack gap={2} data-testid={`error-${field}`}>
      {messages.map((m) => (
        <Input.Error key={m} role="alert">
          {m}
        </Input.Error>
      ))}
    </Stack>
  );
}

export function PlannerForm({
  search,
  timeZone,
  f,
  serverErrors,
  searching,
  onSearch,
  onReset,
}: {
  search: PlannerSearch;
  timeZone: string;
  f: Formats;
  /** The service's refusal of the URL's search, as sentences by input. */
  serverErrors: Partial<Record<PlannerField, string[]>>;
  searching: boolean;
  onSearch: (values: PlannerFormValues) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation('planning');
  const qc = useQueryClient();
  const api = usePlanningApi();
  const defaults = useMemo(() => formFromSearch(search, timeZone, Date.now()), [search, timeZone]);
  const { control, handleSubmit, register, setValue } = useForm<PlannerFormValues>({
    defaultValues: defaults,
  });
  const ranges = useFieldArray({ control, name: 'ranges' });
  const [target, period, zone, firstOfDay, wo, type] = useWatch({
    control,
    name: ['target', 'period', 'zone', 'firstOfDay', 'wo', 'type'],
  });
  const [problems, setProblems] = useState<FormProblem[]>([]);
  const hasOptionError = OPTION_FIELDS.some((k) => (serverErrors[k]?.length ?? 0) > 0);
  const optionCount = [
    search.offices,
    search.areas,
    search.areaScope,
    search.skills,
    search.zone,
    search.portalUser,
    search.firstOfDay,
    search.hours,
    search.max,
    search.ignoreCapacity,
  ].filter((x) => x !== undefined).length;
  const [optionsOpen, setOptionsOpen] = useState(optionCount > 0 || hasOptionError);
  const showOptions = optionsOpen || hasOptionError || problems.some((p) => OPTION_FIELDS.includes(p.field));

  const types = useWorkOrderTypes();
  const offices = useOffices();
  const areas = useAreas();
  const skills = useSkills();

  const errorsOf = (field: PlannerField): string[] => {
    const own = problems
      .filter((p) => p.field === field)
      .map((p) => (p.message.startsWith('planning:') ? t(p.message) : p.message));
    return own.length ? own : (serverErrors[field] ?? []);
  };
  const errorOf = (field: PlannerField) => {
    const list = errorsOf(field);
    return list.length ? list.join(' ') : undefined;
  };

  const submit = handleSubmit(async (values) => {
    const v = { ...values };
    // With a work order, its type is the work order's (read now if it is not yet).
    if (v.target === 'workOrder' && v.wo.trim()) {
      const code = v.wo.trim().toUpperCase();
      const needs = await qc
        .fetchQuery({
          queryKey: planningKeys.needs(code),
          queryFn: ({ signal }) => api.needs(code, signal),
          staleTime: 60_000,
        })
        .catch(() => null);
      v.type = needs?.workOrderType.workOrderTypeCode ?? '';
    }
    const found = checkForm(v, timeZone, zodErrorMap(t));
    setProblems(found);
    if (found.length === 0) onSearch(v);
  });

  const selectedType = types.data?.find((x) => x.workOrderTypeCode === type);

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="form"
      onSubmit={submit}
      noValidate
      aria-label={t('form.label')}
    >
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Controller
            control={control}
            name="target"
            render={({ field }) => (
              <Stack gap={4}>
                <Text size="sm" fw={500} id="target-label">
                  {t('form.target')}
                </Text>
                <SegmentedControl
                  value={field.value}
                  onChange={(v) => field.onChange(v)}
                  aria-labelledby="target-label"
                  data={[
                    { value: 'workOrder', label: t('form.targetWorkOrder') },
                    { value: 'place', label: t('form.targetPlace') },
                  ]}
                  data-testid="target-switch"
                />
              </Stack>
            )}
          />
          <Text size="xs" c="dimmed" maw={360} ta="right">
            {t('form.zone', { zone: timeZone })}
          </Text>
        </Group>

        {target === 'workOrder' ? (
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
                    <TextInput
                      aria-label={t('form.city')}
                      placeholder={t('form.city')}
                      {...register('city')}
                    />
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
                <FieldError field="place" messages={errorsOf('place')} />
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
                <FieldError field="coordinates" messages={errorsOf('coordinates')} />
              </Fieldset>
            </Grid.Col>
          </Grid>
        )}

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
              <TextInput
                type="date"
                label={t('form.appointmentDate')}
                description={t('form.appointmentHint')}
                error={errorOf('date')}
                w={240}
                data-testid="field-date"
                {...register('date')}
              />
            ) : (
              <Stack gap={6} data-testid="field-ranges">
                {ranges.fields.map((r, i) => (
                  <Group key={r.id} gap="xs" align="flex-end" wrap="nowrap">
                    <TextInput
                      type="datetime-local"
                      label={i === 0 ? t('form.from') : undefined}
                      aria-label={t('form.fromN', { n: i + 1 })}
                      w={230}
                      data-testid="range-start"
                      {...register(`ranges.${i}.start`)}
                    />
                    <TextInput
                      type="datetime-local"
                      label={i === 0 ? t('form.to') : undefined}
                      aria-label={t('form.toN', { n: i + 1 })}
                      w={230}
                      data-testid="range-end"
                      {...register(`ranges.${i}.end`)}
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
                <FieldError field="ranges" messages={errorsOf('ranges')} />
              </Stack>
            )}
          </Group>
        </Stack>

        <div>
          <Collapse expanded={showOptions} id="planner-options">
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
                  {(zone || (serverErrors.zoneZip?.length ?? 0) > 0) && (
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
          </Collapse>
        </div>

        <Group gap="sm" justify="space-between" wrap="wrap">
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconAdjustments size={16} />}
            onClick={() => setOptionsOpen((o) => !o)}
            aria-expanded={showOptions}
            aria-controls="planner-options"
          >
            {optionCount ? t('form.optionsSet', { count: optionCount }) : t('form.options')}
          </Button>
          <Group gap="sm">
            <Button
              type="submit"
              leftSection={<IconSearch size={16} />}
              loading={searching}
              data-testid="search-slots"
            >
              {t('form.search')}
            </Button>
            <Button
              variant="default"
              leftSection={<IconX size={16} />}
              onClick={() => {
                setProblems([]);
                setValue('wo', '');
                onReset();
              }}
            >
              {t('form.reset')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The choices of a multi-select, plus the values it holds that are not among them (from a link). */
function mergeChoices(data: { value: string; label: string }[], values: readonly string[]) {
  const known = new Set(data.map((d) => d.value));
  return [...data, ...values.filter((v) => !known.has(v)).map((v) => ({ value: v, label: v }))];
}
