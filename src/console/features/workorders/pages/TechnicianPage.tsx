/**
 * `/technicians/$code?day=&at=`: a technician and their day on the ground (UTC):
 * the positions of the day drawn as a trace in SVG with a time slider (the trace up to the
 * chosen minute, the current point marked), the day picked in a date field or stepped a day
 * at a time, and the positions table (a row sets the slider to its time). Opened without a
 * day, it shows today, or the last day with positions when today has none (issue 27, 11);
 * "Last day with positions" goes there from any day.
 */
import { ActionIcon, Badge, Button, Card, Group, Slider, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconPlayerTrackNext } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DayInput } from '../../../components/customFields/dates.tsx';
import { EmptyState } from '../../../components/layout/index.ts';
import { QueryView } from '../../../components/layout/QueryView.tsx';
import { AnchorLink, ButtonLink } from '../../../components/links.tsx';
import { ListFrame } from '../../../components/records/ListFrame.tsx';
import { BackLabel, RecordHeader } from '../../../components/records/RecordParts.tsx';
import { RecordNotFound } from '../../../components/records/RecordStates.tsx';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import { Trace } from '../components/Trace.tsx';
import { addDays, clock, minuteOfDay } from '../model.ts';
import { workordersPaths as paths } from '../paths.ts';
import { useDayPositions, useLastPositionDay, useTechnician } from '../queries.ts';
import type { TechnicianSearch } from '../search.ts';
import type { Position, Technician } from '../transport.ts';

const route = getRouteApi(paths.technician.detail);
const today = () => new Date().toISOString().slice(0, 10);

/** A UTC day as it reads in the console's language ("Jun 2, 2025", "2 juin 2025"). */
function useDayText() {
  const { i18n } = useTranslation();
  const format = useMemo(
    () => new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeZone: 'UTC' }),
    [i18n.resolvedLanguage],
  );
  return (day: string) => format.format(new Date(`${day}T00:00:00Z`));
}

export function TechnicianPage() {
  const { t } = useTranslation('workorders');
  const { code } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const setSearch = (next: TechnicianSearch) =>
    void navigate({ to: paths.technician.detail, params: { code }, search: next, replace: true });
  const technician = useTechnician(code);
  const day = search.day ?? today();
  const positions = useDayPositions(code, day);
  const lastDay = useLastPositionDay(code);
  const dayText = useDayText();
  const empty = positions.isSuccess && !positions.isPlaceholderData && positions.data.length === 0;
  // Opened on today without positions: the last day that has some instead.
  useEffect(() => {
    if (search.day === undefined && empty && lastDay.data && lastDay.data !== day)
      void navigate({
        to: paths.technician.detail,
        params: { code },
        search: { day: lastDay.data },
        replace: true,
      });
  }, [search.day, empty, lastDay.data, day, code, navigate]);

  if (!technician.data)
    return (
      <QueryView
        query={technician}
        loadingRows={4}
        loadingLabel={t('technician.loading')}
        notFound={
          <RecordNotFound
            title={t('technician.notFoundTitle')}
            body={t('technician.notFound', { code })}
            back={(_, icon) => (
              <ButtonLink to={paths.technician.list} variant="default" leftSection={icon}>
                {t('technician.back')}
              </ButtonLink>
            )}
          />
        }
      >
        {() => null}
      </QueryView>
    );
  const toLastDay =
    lastDay.data && lastDay.data !== day ? () => setSearch({ day: lastDay.data ?? day }) : undefined;
  return (
    <ListFrame>
      <TechnicianHeader
        tech={technician.data}
        controls={<DayControls day={day} onDay={(d) => setSearch({ day: d })} toLastDay={toLastDay} />}
      />
      <QueryView
        query={positions}
        loadingRows={6}
        loadingLabel={t('technician.loadingPositions')}
        isEmpty={() => (positions.data ?? []).length === 0}
        empty={
          <EmptyState
            title={t('technician.noPositionsTitle')}
            body={[
              t('technician.noPositions', { day: dayText(day) }),
              lastDay.data === null
                ? t('technician.noPositionsEver')
                : lastDay.data && toLastDay
                  ? t('technician.lastDayHint', { day: dayText(lastDay.data) })
                  : '',
            ].join(' ')}
            action={
              toLastDay && (
                <Button variant="light" onClick={toLastDay} data-testid="technician-last-day-empty">
                  {t('technician.lastDay')}
                </Button>
              )
            }
          />
        }
      >
        {(data) => (
          <Group align="stretch" gap="md" wrap="nowrap" style={{ flex: '1 1 auto', minHeight: 0 }}>
            <DayTrace
              data={data}
              day={day}
              dayText={dayText(day)}
              at={search.at}
              onAt={(at) => setSearch({ ...search, day, at })}
            />
            <DayPositions
              data={data}
              day={day}
              dayText={dayText(day)}
              onAt={(at) => setSearch({ ...search, day, at })}
            />
          </Group>
        )}
      </QueryView>
    </ListFrame>
  );
}

/** The technician's name, code, state, office and skills, with the day's controls. */
function TechnicianHeader({ tech, controls }: { tech: Technician; controls: ReactNode }) {
  const { t } = useTranslation('workorders');
  return (
    <RecordHeader
      back={
        <AnchorLink to={paths.technician.list} size="sm">
          <BackLabel>{t('technician.back')}</BackLabel>
        </AnchorLink>
      }
      title={<span data-testid="technician-name">{tech.name}</span>}
      code={tech.technicianCode}
      status={
        <Badge
          variant="light"
          color={tech.active ? 'teal' : 'gray'}
          radius="sm"
          styles={{ label: { color: 'var(--mantine-color-text)' } }}
        >
          {tech.active ? t('technician.active') : t('technician.inactive')}
        </Badge>
      }
      subtitle={t('technician.subtitle', {
        office: tech.officeCode,
        skills: tech.skills.join(', ') || '—',
      })}
      actions={controls}
    />
  );
}

/** Previous day, the day (UTC) in a date field, next day, and the last day with positions. */
function DayControls({
  day,
  onDay,
  toLastDay,
}: {
  day: string;
  onDay: (day: string) => void;
  /** Absent when the day shown is the last with positions, or none is known. */
  toLastDay?: () => void;
}) {
  const { t } = useTranslation('workorders');
  return (
    <Group gap={4} align="flex-end" wrap="nowrap">
      <ActionIcon
        variant="default"
        size="input-sm"
        aria-label={t('technician.previousDay')}
        onClick={() => onDay(addDays(day, -1))}
        data-testid="technician-previous-day"
      >
        <IconChevronLeft size={16} />
      </ActionIcon>
      <DayInput
        label={t('technician.day')}
        value={day}
        onChange={onDay}
        timeZone="UTC"
        w={170}
        data-testid="technician-day"
      />
      <ActionIcon
        variant="default"
        size="input-sm"
        aria-label={t('technician.nextDay')}
        onClick={() => onDay(addDays(day, 1))}
        data-testid="technician-next-day"
      >
        <IconChevronRight size={16} />
      </ActionIcon>
      <Button
        variant="default"
        ml="xs"
        leftSection={<IconPlayerTrackNext size={16} />}
        disabled={!toLastDay}
        onClick={toLastDay}
        data-testid="technician-last-day"
      >
        {t('technician.lastDay')}
      </Button>
    </Group>
  );
}

/** The day's trace in SVG and the slider of its minutes (the URL is written when it is let go). */
function DayTrace({
  data,
  day,
  dayText,
  at,
  onAt,
}: {
  data: Position[];
  day: string;
  dayText: string;
  at: number | undefined;
  onAt: (minute: number) => void;
}) {
  const { t } = useTranslation('workorders');
  const lastMinute = data.length ? minuteOfDay(data[data.length - 1].timestamp, day) : 1440;
  const firstMinute = data.length ? minuteOfDay(data[0].timestamp, day) : 0;
  const chosen = at ?? lastMinute;
  // The slider moves freely; the URL is written when it is let go.
  const [minute, setMinute] = useState(chosen);
  useEffect(() => setMinute(chosen), [chosen]);
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      style={{ flex: '3 1 0', display: 'flex', flexDirection: 'column', minWidth: 0 }}
    >
      <Group justify="space-between" mb={4}>
        <Text size="sm" fw={600} component="h2" m={0}>
          {t('technician.trace', { day: dayText })}
        </Text>
        <Text size="sm" c="dimmed" data-testid="trace-time">
          {t('technician.at', { time: clock(Math.min(minute, 1440)) })}
        </Text>
      </Group>
      <div style={{ flex: '1 1 auto', minHeight: 0 }}>
        <Trace positions={data} day={day} minute={minute} />
      </div>
      <Stack gap={2} mt="sm" px="xs">
        <Slider
          min={firstMinute}
          max={Math.max(lastMinute, firstMinute + 1)}
          step={1}
          value={Math.min(Math.max(minute, firstMinute), lastMinute)}
          onChange={setMinute}
          onChangeEnd={onAt}
          label={(v) => clock(v)}
          thumbLabel={t('technician.slider')}
          data-testid="trace-slider"
        />
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {clock(firstMinute)}
          </Text>
          <Text size="xs" c="dimmed">
            {clock(lastMinute)}
          </Text>
        </Group>
      </Stack>
    </Card>
  );
}

/** The day's positions, a row setting the slider to its time. */
function DayPositions({
  data,
  day,
  dayText,
  onAt,
}: {
  data: Position[];
  day: string;
  dayText: string;
  onAt: (minute: number) => void;
}) {
  const { t, i18n } = useTranslation('workorders');
  const columns: Column<Position>[] = useMemo(
    () => [
      // Coordinates whole (issue 27, 5): "-122.4194" at 14 px with the cell's padding.
      { key: 'time', header: t('technician.time'), width: 84, render: (p) => p.timestamp.slice(11, 19) },
      { key: 'lat', header: t('technician.latitude'), width: 92, render: (p) => p.latitude.toFixed(4) },
      { key: 'lon', header: t('technician.longitude'), width: 96, render: (p) => p.longitude.toFixed(4) },
      { key: 'acc', header: t('technician.accuracy'), width: 70, render: (p) => p.accuracy ?? '' },
      {
        key: 'speed',
        header: t('technician.speed'),
        width: 65,
        render: (p) => (p.speed === null ? '' : Math.round(p.speed * 3.6)),
      },
    ],
    [t],
  );
  return (
    // As wide as its columns (time, coordinates whole): the trace takes the rest.
    <Stack gap={4} style={{ flex: '0 0 430px', minWidth: 0, minHeight: 0 }}>
      <Text size="sm" fw={600} component="h2" m={0} data-testid="positions-count">
        {t('technician.positions', {
          count: data.length,
          n: new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en').format(data.length),
        })}
      </Text>
      <VirtualTable
        rows={data}
        columns={columns}
        rowKey={(p) => p.timestamp}
        onOpen={(p) => onAt(minuteOfDay(p.timestamp, day))}
        hasMore={false}
        loadingMore={false}
        loadMore={() => undefined}
        label={t('technician.positionsLabel', { day: dayText })}
      />
    </Stack>
  );
}
