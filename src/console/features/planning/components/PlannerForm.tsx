/**
 * The planner's search form: where the work is (a work order, or a type and a place), the
 * period (time ranges or an appointment date, in the display time zone) and the filters and
 * options of the slot search. It starts from the URL and writes the URL on Search; the page
 * searches from the URL. Errors show on their input: the form's own checks (shapes, before
 * sending: its resolver) and the service's refusal of the search in the URL.
 */
import { Button, Collapse, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconAdjustments, IconSearch, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { Controller, type FieldErrors, FormProvider, useForm, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Can } from '../../../app/Can.tsx';
import { formResolver } from '../../../components/forms/formResolver.ts';
import { zodErrorMap } from '../../../components/forms/zodErrorMap.ts';
import type { Formats } from '../format.ts';
import { planningKeys, usePlanningApi } from '../queries.ts';
import { checkForm, formFromSearch, type PlannerField, type PlannerFormValues } from '../request.ts';
import type { PlannerSearch } from '../search.ts';
import { writeRows } from '../transport.ts';
import { OPTION_FIELDS, OptionsSection } from './planner/OptionsSection.tsx';
import { PeriodSection } from './planner/PeriodSection.tsx';
import { type PlannerErrors, PlannerErrorsContext } from './planner/plannerErrors.tsx';
import { TargetSection } from './planner/TargetSection.tsx';

/**
 * The form's check as a schema: with a work order, its type is the work order's (read now
 * if it is not yet); then the shapes (checkForm), each problem on its input.
 */
function plannerSchema(
  timeZone: string,
  typeOf: (code: string) => Promise<string>,
  errorMap: (issue: z.core.$ZodRawIssue) => string | undefined,
) {
  return z.custom<PlannerFormValues>().transform(async (values, ctx) => {
    const v = { ...values };
    if (v.target === 'workOrder' && v.wo.trim()) v.type = await typeOf(v.wo.trim().toUpperCase());
    for (const p of checkForm(v, timeZone, errorMap))
      ctx.addIssue({ code: 'custom', path: [p.field], message: p.message });
    return v;
  });
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
  serverErrors: ServerErrors;
  searching: boolean;
  onSearch: (values: PlannerFormValues) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation('planning');
  const defaults = useMemo(() => formFromSearch(search, timeZone, Date.now()), [search, timeZone]);
  const resolver = usePlannerResolver(timeZone);
  // Checked on Search only: the check may read a work order's needs, never for a half-typed code.
  const form = useForm<PlannerFormValues>({ defaultValues: defaults, resolver, reValidateMode: 'onSubmit' });
  const plannerErrors = plannerErrorsOf(form.formState.errors, serverErrors, t);

  const hasOptionError = OPTION_FIELDS.some((k) => plannerErrors.errorsOf(k).length > 0);
  const optionCount = optionCountOf(search);
  const [optionsOpen, setOptionsOpen] = useState(optionCount > 0 || hasOptionError);
  const showOptions = optionsOpen || hasOptionError;

  return (
    <FormProvider {...form}>
      <PlannerErrorsContext.Provider value={plannerErrors}>
        <Paper
          withBorder
          radius="md"
          p="md"
          component="form"
          onSubmit={form.handleSubmit(onSearch)}
          noValidate
          aria-label={t('form.label')}
        >
          <Stack gap="md">
            <TargetHeader timeZone={timeZone} />
            <TargetSection f={f} />
            <PeriodSection timeZone={timeZone} />
            <div>
              <Collapse expanded={showOptions} id="planner-options">
                <OptionsSection />
              </Collapse>
            </div>
            <FormActions
              optionCount={optionCount}
              showOptions={showOptions}
              onToggleOptions={() => setOptionsOpen((o) => !o)}
              searching={searching}
              onReset={() => {
                form.clearErrors();
                form.setValue('wo', '');
                onReset();
              }}
            />
          </Stack>
        </Paper>
      </PlannerErrorsContext.Provider>
    </FormProvider>
  );
}

type ServerErrors = Partial<Record<PlannerField, string[]>>;

/** The form's resolver: plannerSchema, reading a work order's type through the query cache. */
function usePlannerResolver(timeZone: string) {
  const { t } = useTranslation('planning');
  const qc = useQueryClient();
  const api = usePlanningApi();
  return useMemo(() => {
    const typeOf = (code: string) =>
      qc
        .fetchQuery({
          queryKey: planningKeys.needs(code),
          queryFn: ({ signal }) => api.needs(code, signal),
          staleTime: 60_000,
        })
        .then((needs) => needs.workOrderType.workOrderTypeCode)
        .catch(() => '');
    const errorMap = zodErrorMap(t);
    return formResolver<PlannerFormValues>(plannerSchema(timeZone, typeOf, errorMap), errorMap);
  }, [qc, api, timeZone, t]);
}

/** An input's errors: the form's own check, else the service's refusal of the URL's search. */
function plannerErrorsOf(
  errors: FieldErrors<PlannerFormValues>,
  serverErrors: ServerErrors,
  t: TFunction<'planning'>,
): PlannerErrors {
  const errorsOf = (field: PlannerField): string[] => {
    const own = errors[field]?.message;
    if (own) return [own.startsWith('planning:') ? t(own) : own];
    return serverErrors[field] ?? [];
  };
  return {
    errorsOf,
    errorOf: (field) => {
      const list = errorsOf(field);
      return list.length ? list.join(' ') : undefined;
    },
    refused: (field) => (serverErrors[field]?.length ?? 0) > 0,
  };
}

/** How many filters and options the URL's search sets (the toggle says it; the section opens). */
function optionCountOf(search: PlannerSearch) {
  return [
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
}

/** The switch between a work order and a type at a place, beside the display time zone. */
function TargetHeader({ timeZone }: { timeZone: string }) {
  const { t } = useTranslation('planning');
  const { control } = useFormContext<PlannerFormValues>();
  return (
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
  );
}

/** The options' toggle (saying how many are set), Search (for a role that may) and Reset. */
function FormActions({
  optionCount,
  showOptions,
  onToggleOptions,
  searching,
  onReset,
}: {
  optionCount: number;
  showOptions: boolean;
  onToggleOptions: () => void;
  searching: boolean;
  onReset: () => void;
}) {
  const { t } = useTranslation('planning');
  return (
    <Group gap="sm" justify="space-between" wrap="wrap">
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconAdjustments size={16} />}
        onClick={onToggleOptions}
        aria-expanded={showOptions}
        aria-controls="planner-options"
      >
        {optionCount ? t('form.optionsSet', { count: optionCount }) : t('form.options')}
      </Button>
      <Group gap="sm">
        <Can call={writeRows.searchSlots}>
          <Button
            type="submit"
            leftSection={<IconSearch size={16} />}
            loading={searching}
            data-testid="search-slots"
          >
            {t('form.search')}
          </Button>
        </Can>
        <Button variant="default" leftSection={<IconX size={16} />} onClick={onReset}>
          {t('form.reset')}
        </Button>
      </Group>
    </Group>
  );
}
