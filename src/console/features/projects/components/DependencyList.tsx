/**
 * The project's dependencies as a list, beside the graph (its keyboard-first twin): declare
 * one by choosing the blocking and the blocked job (the same link call as an arrow drawn on
 * the graph; what the call cannot declare is said before the user tries), and remove one
 * (after confirmation, through the owner).
 */
import {
  ActionIcon,
  Button,
  Group,
  Select,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowRight, IconPlus, IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobRef, ProjectJob } from '../../../../contract/projectManagement.ts';
import { type DependencyRef, dependencyCall, edgeId, isDependencyJob, refText } from '../model.ts';
import { jobLabel } from './jobLabel.ts';

interface DependencyListProps {
  jobs: readonly ProjectJob[];
  dependencies: readonly DependencyRef[];
  readOnly: string | null;
  busy: boolean;
  onDeclare: (blocking: JobRef, blocked: JobRef) => Promise<boolean>;
  onRemove: (dependency: DependencyRef) => void;
}

export function DependencyList({
  jobs,
  dependencies,
  readOnly,
  busy,
  onDeclare,
  onRemove,
}: DependencyListProps) {
  const { t } = useTranslation('projects');
  const form = useDeclareForm(jobs, dependencies, onDeclare, t);

  return (
    <Stack gap="sm" p="sm" data-testid="dependency-list">
      {readOnly === null && <DeclareForm form={form} busy={busy} />}
      {dependencies.length === 0 ? (
        <Text size="sm" c="dimmed" py="md" ta="center">
          {t('dependencies.empty')}
        </Text>
      ) : (
        <DependencyTable dependencies={dependencies} removable={readOnly === null} onRemove={onRemove} />
      )}
    </Stack>
  );
}

/**
 * The declaring form's choices (kept by the list, so they outlive the form while the
 * project is read-only), what the call would be, and why it cannot be made.
 */
function useDeclareForm(
  jobs: DependencyListProps['jobs'],
  dependencies: DependencyListProps['dependencies'],
  onDeclare: DependencyListProps['onDeclare'],
  t: TFunction<'projects'>,
) {
  const [blocking, setBlocking] = useState<string | null>(null);
  const [blocked, setBlocked] = useState<string | null>(null);
  const options = jobs.filter(isDependencyJob).map((j) => ({
    value: refText(j),
    label: j.jobType === 'task' && j.name ? `${jobLabel(j, t)} · ${j.name}` : jobLabel(j, t),
  }));
  const byId = new Map(jobs.map((j) => [refText(j), j as JobRef]));
  const a = blocking ? byId.get(blocking) : undefined;
  const b = blocked ? byId.get(blocked) : undefined;
  const call = a && b ? dependencyCall(jobs, dependencies, a, b) : null;
  const reason = call && !call.ok ? t(`dependencies.reasons.${call.reason}`) : null;

  const declare = async () => {
    if (!a || !b || !call?.ok) return;
    if (await onDeclare(a, b)) {
      setBlocking(null);
      setBlocked(null);
    }
  };
  return { options, blocking, setBlocking, blocked, setBlocked, canDeclare: !!call?.ok, reason, declare };
}

/** Declare a dependency: the blocking job, the blocked job, and what the call cannot declare. */
function DeclareForm({ form, busy }: { form: ReturnType<typeof useDeclareForm>; busy: boolean }) {
  const { t } = useTranslation('projects');
  const { reason } = form;
  return (
    <Stack gap={4}>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <JobSelect end="blocking" form={form} />
        <IconArrowRight size={18} style={{ marginBottom: 9, flex: 'none' }} aria-hidden />
        <JobSelect end="blocked" form={form} />
        <Button
          leftSection={<IconPlus size={16} />}
          onClick={() => void form.declare()}
          disabled={!form.canDeclare}
          loading={busy}
          data-testid="declare-submit"
        >
          {t('dependencies.declare')}
        </Button>
      </Group>
      <Text size="xs" c={reason ? 'orange.9' : 'dimmed'}>
        {reason ?? t('dependencies.hint')}
      </Text>
    </Stack>
  );
}

/** One end of the dependency to declare: a task or work order of the project. */
function JobSelect({ end, form }: { end: 'blocking' | 'blocked'; form: ReturnType<typeof useDeclareForm> }) {
  const { t } = useTranslation('projects');
  return (
    <Select
      label={end === 'blocking' ? t('dependencies.blocking') : t('dependencies.blocked')}
      data={form.options}
      value={form[end]}
      onChange={end === 'blocking' ? form.setBlocking : form.setBlocked}
      searchable
      limit={100}
      style={{ flex: 1, minWidth: 0 }}
      comboboxProps={{ withinPortal: true }}
      data-testid={`declare-${end}`}
    />
  );
}

/** The dependencies declared, each with its removal when they can change. */
function DependencyTable({
  dependencies,
  removable,
  onRemove,
}: {
  dependencies: DependencyListProps['dependencies'];
  removable: boolean;
  onRemove: DependencyListProps['onRemove'];
}) {
  const { t } = useTranslation('projects');
  return (
    <Table verticalSpacing={6} aria-label={t('dependencies.title')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('dependencies.blocking')}</Table.Th>
          <Table.Th w={24} aria-hidden />
          <Table.Th>{t('dependencies.blocked')}</Table.Th>
          {removable && (
            <Table.Th w={44}>
              <VisuallyHidden>{t('dependencies.remove')}</VisuallyHidden>
            </Table.Th>
          )}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {dependencies.map((d) => (
          <Table.Tr key={edgeId(d.blocking, d.blocked)} data-testid="dependency-row">
            <Table.Td>{jobLabel(d.blocking, t)}</Table.Td>
            <Table.Td aria-hidden>
              <IconArrowRight size={14} />
            </Table.Td>
            <Table.Td>{jobLabel(d.blocked, t)}</Table.Td>
            {removable && (
              <Table.Td>
                <Tooltip label={t('dependencies.remove')}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => onRemove(d)}
                    aria-label={t('dependencies.removeOne', {
                      blocking: jobLabel(d.blocking, t),
                      blocked: jobLabel(d.blocked, t),
                    })}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
