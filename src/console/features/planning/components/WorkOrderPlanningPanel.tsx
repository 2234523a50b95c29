/**
 * The planning part of a work order's page (issue 12): its schedule (who, when; schedule it
 * on a technician or a crew at a start typed in the browser's zone, or find a slot in the
 * planner), its flags (multi-select, replaced as a whole) and its notes (text; a note of
 * report fields is shown, and replaced only by a text). Each refusal shows on the input it
 * is about; what no input takes shows in an alert with its errorReference.
 */
import {
  Badge,
  Button,
  Card,
  Group,
  MultiSelect,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCalendarSearch } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CODE_PATTERN } from '../../../../contract/common.ts';
import type { RecordTabProps } from '../../../app/feature.ts';
import { readServiceError, type ServiceError } from '../../../components/forms/serviceErrors.ts';
import { ButtonLink } from '../../../components/links.tsx';
import { errorSentence, type ScheduleLine, scheduleErrorLine } from '../errorFields.ts';
import { formats } from '../format.ts';
import { planningPaths } from '../paths.ts';
import {
  useDiagnostic,
  useFlags,
  usePutFlags,
  usePutNote,
  useSchedule,
  useScheduleWorkOrder,
} from '../queries.ts';
import { browserTimeZone, fromApiDateTime, fromLocalInput, toApiDateTime } from '../time.ts';
import { RefusalAlert } from './RefusalAlert.tsx';

/** The work order page's tab (planning's `tabs` in feature.ts); after a schedule the page reads its work order again. */
export function WorkOrderPlanningPanel({ code, onChanged }: RecordTabProps) {
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" data-testid="workorder-planning">
      <ScheduleCard code={code} onScheduled={onChanged} />
      <Stack gap="md">
        <FlagsCard code={code} />
        <NotesCard code={code} />
      </Stack>
    </SimpleGrid>
  );
}

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Card withBorder padding="md" radius="md" data-testid={testId}>
      <Title order={3} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

type Resource = 'technician' | 'crew';

function ScheduleCard({ code, onScheduled }: { code: string; onScheduled?: () => void }) {
  const { t, i18n } = useTranslation('planning');
  const zone = useMemo(browserTimeZone, []);
  const f = useMemo(() => formats(i18n.language, zone), [i18n.language, zone]);
  const current = useSchedule(code);
  const schedule = useScheduleWorkOrder();
  const [kind, setKind] = useState<Resource>('technician');
  const [resource, setResource] = useState('');
  const [start, setStart] = useState('');
  const [checks, setChecks] = useState<{ resource?: string; start?: string }>({});
  const [refusal, setRefusal] = useState<ServiceError | null>(null);
  const [done, setDone] = useState(false);

  const on = (line: ScheduleLine) =>
    refusal?.errors
      .filter((e) => scheduleErrorLine(e.code) === line)
      .map((e) => errorSentence(t, e))
      .join(' ') || undefined;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    setRefusal(null);
    const who = resource.trim();
    const at = fromLocalInput(start, zone);
    const next = {
      resource: who && CODE_PATTERN.test(who) ? undefined : t('panel.resourceInvalid'),
      start: at === null ? t('panel.startInvalid') : undefined,
    };
    setChecks(next);
    if (next.resource || next.start || at === null) return;
    const when = toApiDateTime(at);
    const body =
      kind === 'technician' ? { technicianCode: who, start: when } : { crewCode: who, start: when };
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
  };

  const s = current.data;
  const startMs = s?.scheduledStart ? fromApiDateTime(s.scheduledStart) : null;
  const endMs = s?.scheduledEnd ? fromApiDateTime(s.scheduledEnd) : null;
  const others = refusal?.errors.filter((e) => scheduleErrorLine(e.code) === null) ?? [];

  return (
    <Section title={t('panel.schedule')} testId="schedule-panel">
      <Stack gap="sm">
        {current.isPending ? (
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
        )}
        <form onSubmit={submit} noValidate aria-label={t('panel.scheduleForm')}>
          <Stack gap="xs">
            <SegmentedControl
              value={kind}
              onChange={(v) => setKind(v as Resource)}
              data={[
                { value: 'technician', label: t('panel.technician') },
                { value: 'crew', label: t('panel.crew') },
              ]}
              aria-label={t('panel.resourceKind')}
              w="fit-content"
            />
            <Group align="flex-start" gap="sm" grow>
              <TextInput
                label={kind === 'technician' ? t('panel.technicianCode') : t('panel.crewCode')}
                value={resource}
                onChange={(e) => setResource(e.currentTarget.value)}
                error={checks.resource ?? on('resource')}
                data-testid="schedule-resource"
                required
              />
              <TextInput
                type="datetime-local"
                label={t('panel.start')}
                description={t('panel.zone', { zone })}
                value={start}
                onChange={(e) => setStart(e.currentTarget.value)}
                error={checks.start ?? on('start')}
                data-testid="schedule-start"
                required
              />
            </Group>
            {on('workOrder') && (
              <Text size="sm" c="var(--mantine-color-error)">
                {on('workOrder')}
              </Text>
            )}
            {refusal && <RefusalAlert refusal={refusal} items={others} title={t('panel.refused')} />}
            {done && (
              <Text size="sm" c="teal" role="status" data-testid="schedule-done">
                {t('panel.scheduled')}
              </Text>
            )}
            <Group justify="space-between">
              <ButtonLink
                to={planningPaths.planner}
                search={{ wo: code }}
                variant="subtle"
                leftSection={<IconCalendarSearch size={16} />}
              >
                {t('panel.findSlot')}
              </ButtonLink>
              <Button type="submit" loading={schedule.isPending} data-testid="schedule-submit">
                {t('panel.scheduleAction')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Section>
  );
}

function FlagsCard({ code }: { code: string }) {
  const { t } = useTranslation('planning');
  const diagnostic = useDiagnostic(code);
  const flags = useFlags();
  const put = usePutFlags(code);
  const saved = useMemo(() => (diagnostic.data?.flags ?? []).map((f) => String(f.flagId)), [diagnostic.data]);
  const [value, setValue] = useState<string[]>(saved);
  const [refusal, setRefusal] = useState<ServiceError | null>(null);
  useEffect(() => setValue(saved), [saved]);
  const changed = value.join(',') !== saved.join(',');
  const save = () => {
    setRefusal(null);
    put.mutate({ ids: value.map(Number) }, { onError: (e) => setRefusal(readServiceError(e)) });
  };
  const onInput = refusal?.errors.filter((e) => e.code.startsWith('diagnostic.flags.ids')) ?? [];
  const others = refusal?.errors.filter((e) => !onInput.includes(e)) ?? [];
  return (
    <Section title={t('panel.flags')} testId="flags-panel">
      <Stack gap="xs">
        <MultiSelect
          label={t('panel.flagsLabel')}
          placeholder={value.length === 0 ? t('panel.noFlag') : undefined}
          data={(flags.data ?? []).map((f) => ({ value: String(f.flagId), label: f.label }))}
          value={value}
          onChange={setValue}
          searchable
          clearable
          disabled={diagnostic.isPending || flags.isPending}
          error={onInput.map((e) => errorSentence(t, e)).join(' ') || undefined}
          nothingFoundMessage={t('form.nothingFound')}
          data-testid="flags-input"
        />
        {refusal && <RefusalAlert refusal={refusal} items={others} title={t('panel.refused')} />}
        <Group justify="flex-end">
          <Button variant="default" disabled={!changed || put.isPending} onClick={() => setValue(saved)}>
            {t('panel.reset')}
          </Button>
          <Button onClick={save} disabled={!changed} loading={put.isPending} data-testid="flags-save">
            {t('panel.saveFlags')}
          </Button>
        </Group>
      </Stack>
    </Section>
  );
}

function NotesCard({ code }: { code: string }) {
  const { t, i18n } = useTranslation('planning');
  const f = useMemo(() => formats(i18n.language, browserTimeZone()), [i18n.language]);
  const diagnostic = useDiagnostic(code);
  const put = usePutNote(code);
  const [noteCode, setNoteCode] = useState('');
  const [content, setContent] = useState('');
  const [refusal, setRefusal] = useState<ServiceError | null>(null);
  const [codeCheck, setCodeCheck] = useState<string>();
  const notes = diagnostic.data?.notes ?? [];

  const edit = (n: (typeof notes)[number]) => {
    setNoteCode(n.noteCode);
    setContent(n.content ?? '');
    setRefusal(null);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setRefusal(null);
    const c = noteCode.trim();
    setCodeCheck(c && CODE_PATTERN.test(c) ? undefined : t('panel.noteCodeInvalid'));
    if (!c || !CODE_PATTERN.test(c)) return;
    put.mutate(
      { noteCode: c, body: { content } },
      {
        onSuccess: () => {
          setNoteCode('');
          setContent('');
        },
        onError: (err) => setRefusal(readServiceError(err)),
      },
    );
  };
  const onContent = refusal?.errors.filter((e) => e.code.startsWith('diagnostic.notes.content')) ?? [];
  const others = refusal?.errors.filter((e) => !onContent.includes(e)) ?? [];

  return (
    <Section title={t('panel.notes')} testId="notes-panel">
      <Stack gap="sm">
        {diagnostic.isPending ? (
          <Skeleton h={40} />
        ) : notes.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('panel.noNote')}
          </Text>
        ) : (
          <Table verticalSpacing={4} data-testid="notes-table">
            <Table.Tbody>
              {notes.map((n) => (
                <Table.Tr key={n.noteCode}>
                  <Table.Td w={120}>
                    <Text size="sm" fw={600} ff="monospace">
                      {n.noteCode}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {f.dateTime(Date.parse(n.lastUpdate))}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                      {n.content ??
                        Object.entries(n.reportFields ?? {})
                          .map(([k, v]) => `${k}: ${v === null ? '—' : String(v)}`)
                          .join('\n')}
                    </Text>
                  </Table.Td>
                  <Table.Td w={80}>
                    <Button size="compact-xs" variant="subtle" onClick={() => edit(n)}>
                      {t('panel.editNote')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <form onSubmit={submit} noValidate aria-label={t('panel.noteForm')}>
          <Stack gap="xs">
            <TextInput
              label={t('panel.noteCode')}
              value={noteCode}
              onChange={(e) => setNoteCode(e.currentTarget.value)}
              error={codeCheck}
              required
              data-testid="note-code"
            />
            <Textarea
              label={t('panel.noteContent')}
              value={content}
              onChange={(e) => setContent(e.currentTarget.value)}
              autosize
              minRows={2}
              maxRows={8}
              error={onContent.map((e) => errorSentence(t, e)).join(' ') || undefined}
              data-testid="note-content"
            />
            {refusal && <RefusalAlert refusal={refusal} items={others} title={t('panel.refused')} />}
            <Group justify="flex-end">
              <Button type="submit" loading={put.isPending} data-testid="note-save">
                {t('panel.saveNote')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Section>
  );
}
