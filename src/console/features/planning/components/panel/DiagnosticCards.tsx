/**
 * The work order panel's flags (a multi-select, replaced as a whole) and notes (text, by note
 * code).
 */
import { Button, Group, MultiSelect, Skeleton, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CODE_PATTERN } from '../../../../../contract/common.ts';
import { Can, CanPage, useCan } from '../../../../app/Can.tsx';
import { formResolver } from '../../../../components/forms/formResolver.ts';
import { readServiceError, type ServiceError } from '../../../../components/forms/serviceErrors.ts';
import { zodErrorMap } from '../../../../components/forms/zodErrorMap.ts';
import { errorSentence } from '../../errorFields.ts';
import { formats } from '../../format.ts';
import { useDiagnostic, useFlags, usePutFlags, usePutNote } from '../../queries.ts';
import { browserTimeZone } from '../../time.ts';
import { writeRows } from '../../transport.ts';
import { RefusalAlert } from '../RefusalAlert.tsx';
import { Section } from './Section.tsx';

export function FlagsCard({ code }: { code: string }) {
  const { t } = useTranslation('planning');
  const diagnostic = useDiagnostic(code);
  const flags = useFlags();
  const put = usePutFlags(code);
  const can = useCan(writeRows.flags);
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
          readOnly={!can.allowed}
          description={can.reason}
          error={onInput.map((e) => errorSentence(t, e)).join(' ') || undefined}
          nothingFoundMessage={t('form.nothingFound')}
          data-testid="flags-input"
        />
        {refusal && <RefusalAlert refusal={refusal} items={others} title={t('panel.refused')} />}
        {can.allowed && (
          <Group justify="flex-end">
            <Button variant="default" disabled={!changed || put.isPending} onClick={() => setValue(saved)}>
              {t('panel.reset')}
            </Button>
            <Button onClick={save} disabled={!changed} loading={put.isPending} data-testid="flags-save">
              {t('panel.saveFlags')}
            </Button>
          </Group>
        )}
      </Stack>
    </Section>
  );
}

interface NoteForm {
  noteCode: string;
  content: string;
}
/** The form's check: a note code of the allowed letters (the content is the service's to judge). */
const NOTE_SCHEMA = z.object({
  noteCode: z.string().trim().regex(CODE_PATTERN, { message: 'panel.noteCodeInvalid' }),
  content: z.string(),
});

export function NotesCard({ code }: { code: string }) {
  const { t, i18n } = useTranslation('planning');
  const f = useMemo(() => formats(i18n.language, browserTimeZone()), [i18n.language]);
  const diagnostic = useDiagnostic(code);
  const put = usePutNote(code);
  const resolver = useMemo(() => formResolver<NoteForm>(NOTE_SCHEMA, zodErrorMap(t)), [t]);
  const { register, handleSubmit, reset, formState } = useForm<NoteForm>({
    defaultValues: { noteCode: '', content: '' },
    resolver,
  });
  const codeCheck = formState.errors.noteCode?.message;
  const [refusal, setRefusal] = useState<ServiceError | null>(null);
  const notes = diagnostic.data?.notes ?? [];

  const edit = (n: (typeof notes)[number]) => {
    reset({ noteCode: n.noteCode, content: n.content ?? '' });
    setRefusal(null);
  };
  const submit = handleSubmit(({ noteCode, content }) => {
    setRefusal(null);
    put.mutate(
      { noteCode, body: { content } },
      {
        onSuccess: () => reset({ noteCode: '', content: '' }),
        onError: (err) => setRefusal(readServiceError(err)),
      },
    );
  });
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
                    <Can call={writeRows.note}>
                      <Button size="compact-xs" variant="subtle" onClick={() => edit(n)}>
                        {t('panel.editNote')}
                      </Button>
                    </Can>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <CanPage call={writeRows.note}>
          <form onSubmit={submit} noValidate aria-label={t('panel.noteForm')}>
            <Stack gap="xs">
              <TextInput
                label={t('panel.noteCode')}
                {...register('noteCode')}
                error={codeCheck ? t(codeCheck) : undefined}
                required
                data-testid="note-code"
              />
              <Textarea
                label={t('panel.noteContent')}
                {...register('content')}
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
        </CanPage>
      </Stack>
    </Section>
  );
}
