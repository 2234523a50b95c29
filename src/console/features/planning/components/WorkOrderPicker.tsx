/**
 * The work order to place: type the start of its code, pick one of the work orders of your
 * office tree that are still to do (the work order list, `?q=&status=`, asked once typing
 * pauses), or type it whole; and what it needs (once the code is taken, not while typing), read from the service: its type (duration, skills), its place
 * and where the search locates it, and its current schedule.
 */
import { Autocomplete, Badge, Group, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
                {[t(`status.${o.status}`, { defaultValue: o.status }), o.type, o.city]
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
      <Paper withBorder radius="md" p="sm" h="100%">
        <Text size="sm" c="dimmed">
          {t('needs.none')}
        </Text>
      </Paper>
    );
  if (needs.isPending)
    return (
      <Paper withBorder radius="md" p="sm" h="100%">
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            {t('needs.loading', { code })}
          </Text>
        </Group>
      </Paper>
    );
  if (needs.isError)
    // The reason (unknown, ambiguous) is on the work order input after a search; here, a hint.
    return (
      <Paper withBorder radius="md" p="sm" h="100%">
        <Text size="sm" c="dimmed">
          {(needs.error as { status?: number }).status === 404
            ? t('needs.notFound', { code })
            : t('needs.failed', { code })}
        </Text>
      </Paper>
    );
  const n = needs.data;
  const place = [
    n.location.address,
    [n.location.zipCode, n.location.city].filter(Boolean).join(' '),
    n.location.country,
  ]
    .filter(Boolean)
    .join(', ');
  const s = schedule.data;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="needs-card">
      <Group justify="space-between" mb={6} gap="xs">
        <AnchorLink
          to={workordersPaths.workOrder.detail}
          params={{ code: n.workOrderCode }}
          fw={700}
          size="sm"
          data-testid="needs-work-order"
        >
          {n.workOrderCode}
        </AnchorLink>
        <Badge
          variant="light"
          color={n.status === 'SCHEDULED' ? 'blue' : 'gray'}
          style={{ textTransform: 'none' }}
        >
          {t(`status.${n.status}`, { defaultValue: n.status })}
        </Badge>
      </Group>
      <SimpleGrid cols={2} spacing={6} verticalSpacing={4}>
        <Stack gap={0}>
          <Text size="xs" c="dimmed">
            {t('needs.type')}
          </Text>
          <Text size="sm" data-testid="needs-type">
            {n.workOrderType.name} ({n.workOrderType.workOrderTypeCode}) ·{' '}
            {t('needs.duration', { minutes: n.workOrderType.durationMinutes })}
          </Text>
        </Stack>
        <Stack gap={0}>
          <Text size="xs" c="dimmed">
            {t('needs.skills')}
          </Text>
          <Group gap={4}>
            {n.workOrderType.skills.length ? (
              n.workOrderType.skills.map((sk) => (
                <Badge key={sk} size="sm" variant="light" style={{ textTransform: 'none' }}>
                  {sk}
                </Badge>
              ))
            ) : (
              <Text size="sm">{t('needs.noSkill')}</Text>
            )}
          </Group>
        </Stack>
        <Stack gap={0}>
          <Text size="xs" c="dimmed">
            {t('needs.place')}
          </Text>
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
        </Stack>
        <Stack gap={0}>
          <Text size="xs" c="dimmed">
            {t('needs.schedule')}
          </Text>
          <Text size="sm" data-testid="needs-schedule">
            {s?.technicianCode && s.scheduledStart && s.scheduledEnd
              ? t('needs.scheduledOn', {
                  technician: s.technicianCode,
                  when: f.span(Date.parse(s.scheduledStart), Date.parse(s.scheduledEnd)),
                })
              : s?.crewCode && s.scheduledStart
                ? t('needs.scheduledCrew', {
                    crew: s.crewCode,
                    when: f.dateTime(Date.parse(s.scheduledStart)),
                  })
                : schedule.isPending
                  ? '…'
                  : t('needs.notScheduled')}
          </Text>
        </Stack>
      </SimpleGrid>
    </Paper>
  );
}
