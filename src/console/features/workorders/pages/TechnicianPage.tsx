/**
 * `/technicians/$code?day=&at=`: a technician and their day on the ground (UTC):
 * the positions of the day drawn as a trace in SVG with a time slider (the trace up to the
 * chosen minute, the current point marked), the day picked in a date field, and the
 * positions table (a row sets the slider to its time).
 */
import { ActionIcon, Badge, Card, Group, Slider, Stack, Text, TextInput } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
import { useDayPositions, useTechnician } from '../queries.ts';
import { isDay, type TechnicianSearch } from '../search.ts';
import type { Position } from '../transport.ts';

const route = getRouteApi(paths.technician.detail);
const today = () => new Date().toISOString().slice(0, 10);

export function TechnicianPage() {
  const { t, i18n } = useTranslation('workorders');
  const { code } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const setSearch = (next: TechnicianSearch) =>
    void navigate({ to: paths.technician.detail, params: { code }, search: next, replace: true });
  const technician = useTechnician(code);
  const day = search.day ?? today();
  const positions = useDayPositions(code, day);
  const data = positions.data ?? [];
  const lastMinute = data.length ? minuteOfDay(data[data.length - 1].timestamp, day) : 1440;
  const firstMinute = data.length ? minuteOfDay(data[0].timestamp, day) : 0;
  const chosen = search.at ?? lastMinute;
  // The slider moves freely; the URL is written when it is let go.
  const [minute, setMinute] = useState(chosen);
  useEffect(() => setMinute(chosen), [chosen]);

  const back = (
    <AnchorLink to={paths.technician.list} size="sm">
      <BackLabel>{t('technician.back')}</BackLabel>
    </AnchorLink>
  );

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
  const tech = technician.data;
  return (
    <ListFrame>
      <RecordHeader
        back={back}
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
        actions={
          <Group gap={4} align="flex-end" wrap="nowrap">
            <ActionIcon
              variant="default"
              size="input-sm"
              aria-label={t('technician.previousDay')}
              onClick={() => setSearch({ day: addDays(day, -1) })}
              data-testid="technician-previous-day"
            >
              <IconChevronLeft size={16} />
            </ActionIcon>
            <TextInput
              type="date"
              label={t('technician.day')}
              value={day}
              onChange={(e) => {
                const v = e.currentTarget.value;
                if (isDay(v)) setSearch({ day: v });
              }}
              data-testid="technician-day"
            />
            <ActionIcon
              variant="default"
              size="input-sm"
              aria-label={t('technician.nextDay')}
              onClick={() => setSearch({ day: addDays(day, 1) })}
              data-testid="technician-next-day"
            >
              <IconChevronRight size={16} />
            </ActionIcon>
          </Group>
        }
      />
      <QueryView
        query={positions}
        loadingRows={6}
        loadingLabel={t('technician.loadingPositions')}
        isEmpty={() => data.length === 0}
        empty={
          <EmptyState title={t('technician.noPositionsTitle')} body={t('technician.noPositions', { day })} />
        }
      >
        {() => (
          <Group align="stretch" gap="md" wrap="nowrap" style={{ flex: '1 1 auto', minHeight: 0 }}>
            <Card
              withBorder
              radius="md"
              padding="sm"
              style={{ flex: '3 1 0', display: 'flex', flexDirection: 'column', minWidth: 0 }}
            >
              <Group justify="space-between" mb={4}>
                <Text size="sm" fw={600} component="h2" m={0}>
                  {t('technician.trace', { day })}
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
                  onChangeEnd={(v) => setSearch({ ...search, day, at: v })}
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
            {/* As wide as its columns (time, coordinates whole): the trace takes the rest. */}
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
                onOpen={(p) => setSearch({ ...search, day, at: minuteOfDay(p.timestamp, day) })}
                hasMore={false}
                loadingMore={false}
                loadMore={() => undefined}
                label={t('technician.positionsLabel', { day })}
              />
            </Stack>
          </Group>
        )}
      </QueryView>
    </ListFrame>
  );
}
