/**
 * The work order panel's schedule: who and when, scheduled on a technician or a crew at a
 * start in the browser's zone (named in the field, read in the console's language), each
 * refusal on its input.
 */
import { Badge, Button, Group, SegmentedControl, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconCalendarSearch } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { type Control, Controller, type UseFormRegister, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CODE_PATTERN } from '../../../../../contract/common.ts';
import { CanPage } from '../../../../app/Can.tsx';
import { ZonedDateTimeInput } from '../../../../components/customFields/dates.tsx';
import { formResolver } from '../../../../components/forms/formResolver.ts';
import { readServiceError, type ServiceError } from '../../../../components/forms/serviceErrors.ts';
import { zodErrorMap } from '../../../../components/forms/zodErrorMap.ts';
import { ButtonLink } from '../../../../components/links.tsx';
import { errorSentence, type ScheduleLine, scheduleErrorLine } from '../../errorFields.ts';
import { type Formats, formats } from '../../format.ts';
import { planningPaths } from '../../paths.ts';
import { useSchedule, useScheduleWorkOrder } from '../../queries.ts';
import { browserTimeZone, fromApiDateTime, fromLocalInput, toApiDateTime } from '../../time.ts';
import { writeRows } from '../../transport.ts';
import { RefusalAlert } from '../RefusalAlert.tsx';
import { Section } from './Section.tsx';

interface ScheduleForm {
  kind: 'technician' | 'crew';
  resource: string;
  /** `YYYY-MM-DDTHH:MM` in the browser's zone (the schema gives the API's UTC time). */
  start: string;
}

/** The form's check: a code, and a time that exists in the zone (sent in UTC). */
const scheduleSchema = (zone: string) =>
  z.object({
    kind: z.enum(['technician', 'crew']),
    resource: z.string().trim().regex(CODE_PATTERN, { message: 'panel.resourceInvalid' }),
    start: z.string().transform((v, ctx) => {
      const at = fromLocalInput(v, zone);
      if (at !== null) return toApiDateTime(at);
      ctx.addIssue({ code: 'custom', message: 'panel.startInvalid' });
      return z.NEVER;
    }),
  });

export function ScheduleCard({ code, onScheduled }: { code: string; onScheduled?: () => void }) {
  const { t, i18n } = useTranslation('planning');
  const zone = useMemo(browserTimeZone, []);
  const f = useMemo(() => formats(i18n.language, zone), [i18n.language, zone]);
  const current = useSchedule(code);
  const form = useScheduleForm(code, zone, t, onScheduled);

  return (
    <Section title={t('panel.schedule')} testId="schedule-panel">
      <Stack gap="sm">
        <CurrentSchedule current={current} f={f} />
        <CanPage call={writeRows.schedule}>
          <form onSubmit={form.submit} noValidate aria-label={t('panel.scheduleForm')}>
            <Stack gap="xs">
              <ScheduleFields
                control={form.control}
                register={form.register}
                kind={form.kind}
                zone={zone}
                errorOf={form.errorOf}
              />
              <ScheduleOutcome workOrderError={form.workOrderError} refusal={form.refusal} done={form.done} />
              <ScheduleActions code={code} pending={form.pending} />
            </Stack>
          </form>
        </CanPage>
      </Stack>
    </Section>
  );
}

/**
 * The form's state: its values and checks, the service's refusal (each error on its line)
 * and whether the last schedule went through.
 */
function useScheduleForm(code: string, zone: string, t: TFunction<'planning'>, onScheduled?: () => void) {
  const schedule = useScheduleWorkOrder();
  const resolver = useMemo(() => formResolver<ScheduleForm>(scheduleSchema(zone), zodErrorMap(t)), [zone, t]);
  const { register, control, handleSubmit, formState } = useForm<ScheduleForm>({
    defaultValues: { kind: 'technician', resource: '', start: '' },
    resolver,
  });
  const kind = useWatch({ control, name: 'kind' });
  const checkOf = (field: 'resource' | 'start') => {
    const m = formState.errors[field]?.message;
    return m ? t(m) : undefined;
  };
  const [refusal, setRefusal] = useState<ServiceError | null>(null);
  const [done, setDone] = useState(false);

  const on = (line: ScheduleLine) =>
    refusal?.errors
      .filter((e) => scheduleErrorLine(e.code) === line)
      .map((e) => errorSentence(t, e))
      .join(' ') || undefined;

  // Every submit, even one the form's own checks refuse, makes the last answer stale.
  const clear = () => {
    setDone(false);
    setRefusal(null);
  };
  const submit = handleSubmit(({ kind, resource, start }) => {
    clear();
    const body = kind === 'technician' ? { technicianCode: resource, start } : { crewCode: resource, start };
    schedule.mutate(
      { code, body },
      {
        onSuccess: () => {
          setDone(true);
          onScheduled?.();
        },
        onError: (err) => setRefusal(readServiceError(err)),
      },
    );
  }, clear);

  return {
    register,
    control,
    kind,
    /** The form's own check first, else the service's refusal on that input. */
    errorOf: (field: 'resource' | 'start') => checkOf(field) ?? on(field),
    workOrderError: on('workOrder'),
    refusal,
    done,
    submit,
    pending: schedule.isPending,
  };
}

/** Where the work order stands now: its status, resource and span, or not scheduled. */
function CurrentSchedule({ current, f }: { current: ReturnType<typeof useSchedule>; f: Formats }) {
  const { t } = useTranslation('planning');
  const s = current.data;
  const startMs = s?.scheduledStart ? fromApiDateTime(s.scheduledStart) : null;
  const endMs = s?.scheduledEnd ? fromApiDateTime(s.scheduledEnd) : null;
  return current.isPending ? (
    <Skeleton h={40} />
  ) : current.isError ? (
    <Text size="sm" c="red">
      {errorSentence(t, readServiceError(current.error).errors[0])}
    </Text>
  ) : s && startMs !== null ? (
    <Group gap="xs" data-testid="schedule-current">
      <Badge variant="light">{s.status}</Badge>
      <Text size="sm" fw={600}>
        {s.technicianCode ?? s.crewCode}
      </Text>
      <Text size="sm">{endMs !== null ? f.span(startMs, endMs) : f.dateTime(startMs)}</Text>
    </Group>
  ) : (
    <Text size="sm" c="dimmed" data-testid="schedule-current">
      {t('panel.notScheduled')}
    </Text>
  );
}

/** Who (a technician or a crew, by code) and when, each with its error. */
function ScheduleFields({
  control,
  register,
  kind,
  zone,
  errorOf,
}: {
  control: Control<ScheduleForm>;
  register: UseFormRegister<ScheduleForm>;
  kind: ScheduleForm['kind'];
  zone: string;
  errorOf: (field: 'resource' | 'start') => string | undefined;
}) {
  const { t } = useTranslation('planning');
  return (
    <>
      <Controller
        control={control}
        name="kind"
        render={({ field }) => (
          <SegmentedControl
            value={field.value}
            onChange={(v) => field.onChange(v === 'crew' ? 'crew' : 'technician')}
            data={[
              { value: 'technician', label: t('panel.technician') },
              { value: 'crew', label: t('panel.crew') },
            ]}
            aria-label={t('panel.resourceKind')}
            w="fit-content"
          />
        )}
      />
      <Group align="flex-start" gap="sm" grow>
        <TextInput
          label={kind === 'technician' ? t('panel.technicianCode') : t('panel.crewCode')}
          {...register('resource')}
          error={errorOf('resource')}
          data-testid="schedule-resource"
          required
        />
        <Controller
          control={control}
          name="start"
          render={({ field }) => (
            <ZonedDateTimeInput
              label={t('panel.start')}
              value={field.value}
              timeZone={zone}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errorOf('start')}
              data-testid="schedule-start"
              required
            />
          )}
        />
      </Group>
    </>
  );
}

/** The last answer: the refusal of the work order itself, the others with their codes, or done. */
function ScheduleOutcome({
  workOrderError,
  refusal,
  done,
}: {
  workOrderError: string | undefined;
  refusal: ServiceError | null;
  done: boolean;
}) {
  const { t } = useTranslation('planning');
  const others = refusal?.errors.filter((e) => scheduleErrorLine(e.code) === null) ?? [];
  return (
    <>
      {workOrderError && (
        <Text size="sm" c="var(--mantine-color-error)">
          {workOrderError}
        </Text>
      )}
      {refusal && <RefusalAlert refusal={refusal} items={others} title={t('panel.refused')} />}
      {done && (
        <Text size="sm" c="teal" role="status" data-testid="schedule-done">
          {t('panel.scheduled')}
        </Text>
      )}
    </>
  );
}

/** Find a slot in the planner instead, or schedule. */
function ScheduleActions({ code, pending }: { code: string; pending: boolean }) {
  const { t } = useTranslation('planning');
  return (
    <Group justify="space-between">
      <ButtonLink
        to={planningPaths.planner}
        search={{ wo: code }}
        variant="subtle"
        leftSection={<IconCalendarSearch size={16} />}
      >
        {t('panel.findSlot')}
      </ButtonLink>
      <Button type="submit" loading={pending} data-testid="schedule-submit">
        {t('panel.scheduleAction')}
      </Button>
    </Group>
  );
}
