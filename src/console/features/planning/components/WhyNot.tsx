/**
 * "Why not…?" beside the planner's timeline (issue 28, 2): every technician of the offices
 * searched without a slot in the answer, in the order the service sorts them (closest
 * first), each with its reason; picking one shows their day (the dispatch board's read of
 * that day) with what the reason is about drawn on it.
 */
import { Badge, Box, Card, Group, ScrollArea, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BoardTechnician, ExcludedTechnician } from '../../../../contract/slots.ts';
import { ErrorState } from '../../../components/layout/index.ts';
import type { Formats } from '../format.ts';
import { useTechnicianDay } from '../queries.ts';
import { fromApiDateTime, fromLocalInput } from '../time.ts';
import { dayPeriod, type ReasonMark, reasonFocus } from '../whyNot.ts';

const REASON_COLORS: Record<ExcludedTechnician['reason'], string> = {
  outranked: 'indigo',
  'too.far': 'orange',
  'no.window': 'orange',
  'capacity.full': 'red',
  'area.outside': 'grape',
  absent: 'gray',
  'skill.missing': 'gray',
  inactive: 'gray',
};

/** The reason's detail in a sentence. */
export function reasonDetail(t: TFunction<'planning'>, e: ExcludedTechnician, f: Formats): string {
  const span = (s: { start: string; end: string }) =>
    f.span(fromApiDateTime(s.start) ?? 0, fromApiDateTime(s.end) ?? 0);
  switch (e.reason) {
    case 'outranked':
      return t('whyNot.detail.outranked', { score: e.detail.score.toFixed(1), when: span(e.detail) });
    case 'too.far':
      return e.detail.route === 'none'
        ? t('whyNot.detail.noRoad')
        : e.detail.route === 'unavailable'
          ? t('whyNot.detail.noHome')
          : t('whyNot.detail.tooFar', {
              needed: e.detail.neededMinutes ?? 0,
              free: e.detail.freeMinutes ?? 0,
            });
    case 'no.window':
      return t('whyNot.detail.noWindow', { free: e.detail.freeMinutes, duration: e.detail.durationMinutes });
    case 'capacity.full':
      return t('whyNot.detail.full', { days: e.detail.days.map((d) => f.day(d)).join(', ') });
    case 'area.outside':
      return e.detail.areas.length
        ? t('whyNot.detail.areas', { areas: e.detail.areas.join(', ') })
        : t('whyNot.detail.noArea');
    case 'absent':
      return t('whyNot.detail.absent', { spans: e.detail.absences.map(span).join('; ') });
    case 'skill.missing':
      return t('whyNot.detail.skills', { skills: e.detail.skills.join(', ') });
    case 'inactive':
      return t('whyNot.detail.inactive');
  }
}

export function WhyNot({
  excluded,
  periodStart,
  timeZone,
  f,
}: {
  excluded: readonly ExcludedTechnician[];
  periodStart: number;
  timeZone: string;
  f: Formats;
}) {
  const { t } = useTranslation('planning');
  const [picked, setPicked] = useState<string | null>(null);
  const chosen = excluded.find((e) => e.technicianCode === picked) ?? null;
  return (
    <Card withBorder padding="sm" data-testid="why-not">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Title order={3} size="h5">
            {t('whyNot.title')}
          </Title>
          <Badge variant="light" color="gray" style={{ textTransform: 'none' }}>
            {t('whyNot.count', { count: excluded.length })}
          </Badge>
        </Group>
        {excluded.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('whyNot.none')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={360} type="auto" offsetScrollbars>
            <Stack
              gap={4}
              component="ul"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
              aria-label={t('whyNot.title')}
            >
              {excluded.map((e) => (
                <li key={e.technicianCode}>
                  <UnstyledButton
                    w="100%"
                    p={6}
                    style={{
                      borderRadius: 6,
                      // An outline, not a fill: the reason's badge keeps its contrast.
                      outline:
                        picked === e.technicianCode
                          ? '2px solid var(--mantine-primary-color-filled)'
                          : undefined,
                    }}
                    aria-pressed={picked === e.technicianCode}
                    onClick={() => setPicked(picked === e.technicianCode ? null : e.technicianCode)}
                    data-testid="why-not-row"
                  >
                    <Group justify="space-between" gap={4} wrap="nowrap">
                      <Text size="sm" fw={600}>
                        {e.technicianCode}
                      </Text>
                      <Badge
                        size="sm"
                        variant="light"
                        color={REASON_COLORS[e.reason]}
                        style={{ textTransform: 'none' }}
                      >
                        {t(`whyNot.reason.${e.reason}`)}
                      </Badge>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {reasonDetail(t, e, f)}
                    </Text>
                  </UnstyledButton>
                </li>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        {chosen && <TechnicianDay excluded={chosen} periodStart={periodStart} timeZone={timeZone} f={f} />}
      </Stack>
    </Card>
  );
}

/** Hours drawn of the day. */
const FIRST_HOUR = 6;
const LAST_HOUR = 21;

const MARK_STYLE: Record<ReasonMark, { background: string; border: string }> = {
  best: { background: 'var(--mantine-color-yellow-light)', border: 'var(--mantine-color-yellow-filled)' },
  free: { background: 'var(--mantine-color-teal-light)', border: 'var(--mantine-color-teal-filled)' },
  absence: { background: 'var(--mantine-color-red-light)', border: 'var(--mantine-color-red-filled)' },
  full: { background: 'var(--mantine-color-red-light)', border: 'var(--mantine-color-red-filled)' },
};

function TechnicianDay({
  excluded,
  periodStart,
  timeZone,
  f,
}: {
  excluded: ExcludedTechnician;
  periodStart: number;
  timeZone: string;
  f: Formats;
}) {
  const { t } = useTranslation('planning');
  const focus = reasonFocus(excluded, periodStart, timeZone);
  const period = dayPeriod(focus.day, timeZone);
  const day = useTechnicianDay(excluded.technicianCode, period);
  const place = dayPlacer(focus.day, timeZone);
  const row = day.data;
  const mark = focus.span ? place(focus.span.start, focus.span.end) : null;
  const label = t('whyNot.dayLabel', { technician: excluded.technicianCode, day: f.longDate(focus.day) });
  return (
    <Stack gap={4} data-testid="why-not-day">
      <Text size="xs" fw={600}>
        {label}
      </Text>
      {day.isError ? (
        <ErrorState error={day.error} onRetry={() => void day.refetch()} />
      ) : (
        <Box
          role="img"
          aria-label={`${label}: ${t(`whyNot.reason.${excluded.reason}`)}, ${reasonDetail(t, excluded, f)}`}
          aria-busy={day.isPending}
          pos="relative"
          h={34}
          style={{ background: 'var(--mantine-color-gray-light)', borderRadius: 4, overflow: 'hidden' }}
        >
          {row && <DayBars row={row} place={place} />}
          {mark && focus.span && (
            <Box
              pos="absolute"
              top={1}
              bottom={1}
              style={{
                ...mark,
                background: MARK_STYLE[focus.span.mark].background,
                border: `2px dashed ${MARK_STYLE[focus.span.mark].border}`,
                borderRadius: 4,
                opacity: 0.85,
              }}
              data-testid="why-not-mark"
            />
          )}
        </Box>
      )}
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {String(FIRST_HOUR).padStart(2, '0')}:00
        </Text>
        <Text size="xs" c="dimmed">
          {LAST_HOUR}:00
        </Text>
      </Group>
    </Stack>
  );
}

/** Where a span falls on the drawn hours of the day, as CSS; null for none of it. */
type Placer = (start: number, end: number) => { left: string; width: string } | null;

function dayPlacer(day: string, timeZone: string): Placer {
  const from = fromLocalInput(`${day}T${String(FIRST_HOUR).padStart(2, '0')}:00`, timeZone) ?? 0;
  const to = fromLocalInput(`${day}T${LAST_HOUR}:00`, timeZone) ?? from + 1;
  return (start, end) => {
    const a = Math.max(start, from);
    const b = Math.min(end, to);
    if (b <= a) return null;
    return { left: `${((a - from) / (to - from)) * 100}%`, width: `${((b - a) / (to - from)) * 100}%` };
  };
}

const ms = (text: string) => fromApiDateTime(text) ?? 0;

/** The technician's day as the board reads it: working hours, absences, then what is booked. */
function DayBars({ row, place }: { row: BoardTechnician; place: Placer }) {
  return (
    <>
      {row.workingHours.map((w) => {
        const p = place(ms(w.start), ms(w.end));
        return p && <DayBand key={w.start} place={p} background="var(--mantine-color-body)" />;
      })}
      {row.absences.map((a) => {
        const p = place(ms(a.start), ms(a.end));
        return p && <DayBand key={a.start} place={p} background={ABSENCE_HATCH} />;
      })}
      {[
        ...row.workOrders.map((w) => ({ key: w.workOrderCode, start: w.start, end: w.end })),
        ...row.busy.map((b) => ({ key: b.start, ...b })),
      ].map((w) => {
        const p = place(ms(w.start), ms(w.end));
        return p && <BookedBar key={w.key} label={w.key} place={p} />;
      })}
    </>
  );
}

const ABSENCE_HATCH =
  'repeating-linear-gradient(45deg, var(--mantine-color-red-light) 0 4px, transparent 4px 8px)';

/** A span of the day's whole height: working hours, or an absence (hatched). */
function DayBand({ place, background }: { place: { left: string; width: string }; background: string }) {
  return <Box pos="absolute" top={0} bottom={0} style={{ ...place, background }} />;
}

/** A work order, or time busy otherwise, on the day. */
function BookedBar({ label, place }: { label: string; place: { left: string; width: string } }) {
  return (
    <Box
      pos="absolute"
      top={6}
      bottom={6}
      px={3}
      style={{
        ...place,
        background: 'var(--mantine-color-blue-light)',
        border: '1px solid var(--mantine-color-blue-outline)',
        borderRadius: 3,
        fontSize: 10,
        lineHeight: '20px',
        overflow: 'hidden',
        whiteSpace: 'nowrap',
      }}
    >
      {label}
    </Box>
  );
}
