/**
 * The work order to place: type the start of its code, pick one of the work orders of your
 * office tree that are still to do (the work order list, `?q=&status=`, asked once typing
 * pauses), or type it whole; and what it needs (once the code is taken, not while typing), read from the service: its type (duration, skills), its place
 * and where the search locates it, and its current schedule.
 */
import { Autocomplete, Badge, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { statusOf } from '../../../../client/index.ts';
import type { WorkOrderSchedule } from '../../../../contract/scheduling.ts';
import type { WorkOrderNeeds } from '../../../../contract/slots.ts';
import { AnchorLink } from '../../../components/links.tsx';
import { useDebounced } from '../../../components/useDebounced.ts';
import { workordersPaths } from '../../workorders/index.ts';
import type { Formats } from '../format.ts';
import { useNeeds, useSchedule, useWorkOrderChoices } from '../queries.ts';

const MAX_OPTIONS = 20;

export function WorkOrderPicker({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (code: string) => void;
  error?: string;
}) {
  const { t } = useTranslation('planning');
  const [typing, setTyping] = useState<string | null>(null);
  const [opened, setOpened] = useState(false);
  const q = useDebounced(typing?.trim() ?? '', 250);
  const choices = useWorkOrderChoices(q, opened);
  const options = useMemo(() => {
    const seen = new Map<string, { code: string; status: string; type: string; city: string | null }>();
    for (const w of choices.data ?? [])
      if (!seen.has(w.workOrderCode))
        seen.set(w.workOrderCode, {
          code: w.workOrderCode,
          status: w.status,
          type: w.workOrderTypeName,
          city: w.location.city,
        });
    return [...seen.values()].slice(0, MAX_OPTIONS);
  }, [choices.data]);
  const byCode = useMemo(() => new Map(options.map((o) => [o.code, o])), [options]);
  const commit = () => {
    if (typing !== null) onChange(typing.trim().toUpperCase());
    setTyping(null);
  };

  return (
    <Autocomplete
      label={t('form.workOrder')}
      description={t('form.workOrderHint')}
      placeholder={t('form.workOrderPlaceholder')}
      clearable
      value={typing ?? value}
      data={options.map((o) => o.code)}
      filter={({ options: o }) => o}
      error={error}
      data-testid="wo-input"
      renderOption={({ option }) => {
        const o = byCode.get(option.value);
        return (
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={500}>
              {option.value}
            </Text>
            {o && (
              <Text size="xs" c="dimmed">
                {[t(`common:workOrderStatus.${o.status}`, { defaultValue: o.status }), o.type, o.city]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            )}
          </Group>
        );
      }}
      rightSection={choices.isFetching && opened ? <Loader size="xs" /> : undefined}
      dropdownOpened={opened && options.length > 0}
      onDropdownClose={() => setOpened(false)}
      onClick={() => setOpened(true)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') setOpened(true);
        if (e.key === 'Escape') setOpened(false);
        // Enter on a typed code (no option chosen) takes it, before the form reads it.
        if (e.key === 'Enter') commit();
      }}
      onOptionSubmit={(v) => {
        setTyping(null);
        setOpened(false);
        onChange(v);
      }}
      onChange={(v) => {
        setTyping(v);
        setOpened(true);
        // Cleared: at once. Typed: taken when picked, on Enter or on leaving the field, so
        // the needs of a half-typed code are never asked for (a 404 for "WO-E2E-P").
        if (v === '') onChange('');
      }}
      onBlur={() => {
        commit();
        setOpened(false);
      }}
    />
  );
}

/** What the work order needs, and where it stands. */
export function WorkOrderNeedsCard({ code: typed, f }: { code: string; f: Formats }) {
  const { t } = useTranslation('planning');
  // Read once typing pauses, not for each letter of a code being typed.
  const code = useDebounced(typed, 400);
  const needs = useNeeds(code || undefined);
  const schedule = useSchedule(needs.data ? code : undefined);
  if (!code)
    return (
      <NeedsPlaceholder>
        <Text size="sm" c="dimmed">
          {t('needs.none')}
        </Text>
      </NeedsPlaceholder>
    );
  if (needs.isPending)
    return (
      <NeedsPlaceholder>
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            {t('needs.loading', { code })}
          </Text>
        </Group>
      </NeedsPlaceholder>
    );
  if (needs.isError)
    // The reason (unknown, ambiguous) is on the work order input after a search; here, a hint.
    return (
      <NeedsPlaceholder>
        <Text size="sm" c="dimmed">
          {statusOf(needs.error) === 404 ? t('needs.notFound', { code }) : t('needs.failed', { code })}
        </Text>
      </NeedsPlaceholder>
    );
  const n = needs.data;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="needs-card">
      <NeedsHeader code={n.workOrderCode} status={n.status} />
      <SimpleGrid cols={2} spacing={6} verticalSpacing={4}>
        <NeedsItem label={t('needs.type')}>
          <Text size="sm" data-testid="needs-type">
            {n.workOrderType.name} ({n.workOrderType.workOrderTypeCode}) ·{' '}
            {t('needs.duration', { minutes: n.workOrderType.durationMinutes })}
          </Text>
        </NeedsItem>
        <NeedsItem label={t('needs.skills')}>
          <SkillBadges skills={n.workOrderType.skills} />
        </NeedsItem>
        <NeedsItem label={t('needs.place')}>
          <NeedsPlace needs={n} />
        </NeedsItem>
        <NeedsItem label={t('needs.schedule')}>
          <Text size="sm" data-testid="needs-schedule">
            {scheduleSentence(t, f, schedule.data, schedule.isPending)}
          </Text>
        </NeedsItem>
      </SimpleGrid>
    </Paper>
  );
}

/** The card before its work order's needs are read: nothing typed, reading, or not read. */
function NeedsPlaceholder({ children }: { children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="sm" h="100%">
      {children}
    </Paper>
  );
}

/** The work order (a link to it) and its status. */
function NeedsHeader({ code, status }: { code: string; status: string }) {
  const { t } = useTranslation('planning');
  return (
    <Group justify="space-between" mb={6} gap="xs">
      <AnchorLink
        to={workordersPaths.workOrder.detail}
        params={{ code }}
        fw={700}
        size="sm"
        data-testid="needs-work-order"
      >
        {code}
      </AnchorLink>
      <Badge
        variant="light"
        color={status === 'SCHEDULED' ? 'blue' : 'gray'}
        style={{ textTransform: 'none' }}
      >
        {t(`common:workOrderStatus.${status}`, { defaultValue: status })}
      </Badge>
    </Group>
  );
}

/** One of the card's items: its label above it. */
function NeedsItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** The skills the work order's type needs, or none. */
function SkillBadges({ skills }: { skills: readonly string[] }) {
  const { t } = useTranslation('planning');
  return (
    <Group gap={4}>
      {skills.length ? (
        skills.map((sk) => (
          <Badge key={sk} size="sm" variant="light" style={{ textTransform: 'none' }}>
            {sk}
          </Badge>
        ))
      ) : (
        <Text size="sm">{t('needs.noSkill')}</Text>
      )}
    </Group>
  );
}

/** The work order's address, and where the search locates it (or that it cannot). */
function NeedsPlace({ needs: n }: { needs: WorkOrderNeeds }) {
  const { t } = useTranslation('planning');
  const place = [
    n.location.address,
    [n.location.zipCode, n.location.city].filter(Boolean).join(' '),
    n.location.country,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <>
      <Text size="sm">
        <IconMapPin size={13} style={{ verticalAlign: -2, marginRight: 3 }} aria-hidden />
        {place || t('needs.noPlace')}
      </Text>
      <Text size="xs" c={n.target ? 'dimmed' : 'var(--mantine-color-error)'}>
        {n.target
          ? t(`needs.located.${n.target.source}`, {
              lat: n.target.latitude.toFixed(4),
              lon: n.target.longitude.toFixed(4),
            })
          : t('needs.notLocated')}
      </Text>
    </>
  );
}

/** Where the work order is scheduled: on a technician (a span) or a crew (a start), or not yet. */
function scheduleSentence(
  t: TFunction<'planning'>,
  f: Formats,
  s: WorkOrderSchedule | undefined,
  pending: boolean,
): string {
  return s?.technicianCode && s.scheduledStart && s.scheduledEnd
    ? t('needs.scheduledOn', {
        technician: s.technicianCode,
        when: f.span(Date.parse(s.scheduledStart), Date.parse(s.scheduledEnd)),
      })
    : s?.crewCode && s.scheduledStart
      ? t('needs.scheduledCrew', {
          crew: s.crewCode,
          when: f.dateTime(Date.parse(s.scheduledStart)),
        })
      : pending
        ? '…'
        : t('needs.notScheduled');
}
