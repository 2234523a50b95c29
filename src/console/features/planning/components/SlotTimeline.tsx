/**
 * The slots on a timeline: a row per technician (ordered by their best slot), the days of
 * the search as columns, the booked work orders on the first lane, each slot a button that
 * selects it (the selected one shows its travel before and after, hatched).
 */
import { Group, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Formats } from '../format.ts';
import { MAX_BOOKED_TECHNICIANS, useBookedWorkOrders } from '../queries.ts';
import { type Booking, type RowItem, type Slot, scoreBand, spansOf, technicianRows } from '../slotsModel.ts';
import { hhmm, MINUTE } from '../time.ts';
import { type Axis, type Bar, barOf, buildAxis, type Span, xOf } from '../timeline.ts';
import { Timeline, type TimelineBar, type TimelineRow } from './Timeline.tsx';

/** Columns at most: a longer period shows its first days holding slots (the list has them all). */
export const MAX_TIMELINE_DAYS = 62;

export function SlotTimeline({
  slots,
  picked,
  period,
  timeZone,
  f,
  selected,
  onSelect,
}: {
  slots: readonly Slot[];
  /** The work order of the search, where it is scheduled (its uuid, not shown twice). */
  picked: PickedBooking | null;
  period: Span | null;
  timeZone: string;
  f: Formats;
  selected: string | null;
  onSelect: (key: string) => void;
}) {
  const { t } = useTranslation('planning');
  const { bookings, onRowsInView } = useTimelineBookings(picked);
  const axis = useMemo(
    () => buildAxis(spansOf(slots, bookings), period, timeZone, { maxDays: MAX_TIMELINE_DAYS }),
    [slots, bookings, period, timeZone],
  );
  const rows = useMemo<TimelineRow[]>(
    () =>
      technicianRows(slots, bookings).map((row) => ({
        key: row.technicianCode,
        lanes: row.lanes,
        testId: 'timeline-technician',
        label: <TechnicianLabel code={row.technicianCode} slotCount={row.slotCount} />,
        bars: row.items.flatMap((item) => barsOf(item, { axis, selected, onSelect, f, t })),
      })),
    [slots, bookings, axis, selected, onSelect, f, t],
  );

  return (
    <Stack gap={6}>
      <Legend booked={bookings.some((b) => !b.picked)} />
      <Timeline
        onRowsInView={onRowsInView}
        axis={axis}
        rows={rows}
        ariaLabel={t('timeline.label')}
        dayLabel={(d) => (
          <Text size="xs" fw={600}>
            {f.day(d)}
          </Text>
        )}
        corner={
          <Text size="xs" c="dimmed">
            {t('timeline.hours', {
              from: hhmm(axis.startMinute),
              to: axis.endMinute === 1440 ? '24:00' : hhmm(axis.endMinute),
            })}
          </Text>
        }
        labelWidth={190}
        testId="slot-timeline"
      />
      {axis.truncated && (
        <Text size="xs" c="dimmed">
          {t('timeline.truncated', { count: axis.days.length })}
        </Text>
      )}
    </Stack>
  );
}

type PickedBooking = Booking & { uuid: string };

/**
 * The search's work order where it is scheduled, then the work orders booked on the
 * technicians whose rows were in view (read once each, a request per technician; at most
 * MAX_BOOKED_TECHNICIANS, so a search costs a few requests).
 */
function useTimelineBookings(picked: PickedBooking | null) {
  const [seen, setSeen] = useState<string[]>([]);
  const onRowsInView = useCallback(
    (keys: string[]) =>
      setSeen((prev) => {
        const next = [...prev, ...keys.filter((k) => !prev.includes(k))].slice(0, MAX_BOOKED_TECHNICIANS);
        return next.length === prev.length ? prev : next;
      }),
    [],
  );
  const booked = useBookedWorkOrders(seen, true);
  const bookings = useMemo<Booking[]>(() => {
    const out: Booking[] = picked ? [picked] : [];
    for (const w of booked) {
      const { technicianCode, scheduledStart, scheduledEnd } = w.schedule;
      if (!technicianCode || !scheduledStart || !scheduledEnd || w.uuid === picked?.uuid) continue;
      out.push({
        technicianCode,
        workOrderCode: w.workOrderCode,
        start: Date.parse(scheduledStart),
        end: Date.parse(scheduledEnd),
      });
    }
    return out;
  }, [picked, booked]);
  return { bookings, onRowsInView };
}

/** A row's label: the technician and how many slots they have. */
function TechnicianLabel({ code, slotCount }: { code: string; slotCount: number }) {
  const { t } = useTranslation('planning');
  return (
    <Group gap={6} wrap="nowrap" justify="space-between">
      <Text size="sm" fw={600} truncate>
        {code}
      </Text>
      <Text size="xs" c="dimmed" style={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
        {t('results.slotCount', { count: slotCount })}
      </Text>
    </Group>
  );
}

/** What a row's bars are drawn with: the axis, the selected slot and the texts. */
interface BarContext {
  axis: Axis;
  selected: string | null;
  onSelect: (key: string) => void;
  f: Formats;
  t: TFunction<'planning'>;
}

/** An item's bar, none when it falls outside the axis (a day not shown). */
function barsOf(item: RowItem, ctx: BarContext): TimelineBar[] {
  const bar = barOf(ctx.axis, item.span);
  if (!bar) return [];
  return [item.kind === 'booking' ? bookingBar(item, bar, ctx) : slotBar(item, bar, ctx)];
}

/** A booked work order: the search's own (picked) or another one on the technician. */
function bookingBar(
  item: Extract<RowItem, { kind: 'booking' }>,
  bar: Bar,
  { f, t }: BarContext,
): TimelineBar {
  const b = item.booking;
  return {
    key: item.key,
    bar,
    lane: item.lane,
    tone: b.picked ? 'picked' : 'booking',
    text: b.workOrderCode,
    label: t(b.picked ? 'timeline.picked' : 'timeline.booked', {
      code: b.workOrderCode,
      technician: b.technicianCode,
      when: f.span(b.start, b.end),
    }),
    testId: b.picked ? 'timeline-picked' : 'timeline-booking',
  };
}

/** A slot: a button that selects it; the selected one shows its travel around it. */
function slotBar(
  item: Extract<RowItem, { kind: 'slot' }>,
  bar: Bar,
  { axis, selected, onSelect, f, t }: BarContext,
): TimelineBar {
  const s = item.slot;
  const isSelected = item.key === selected;
  return {
    key: item.key,
    bar,
    lane: item.lane,
    tone: scoreBand(s.score),
    text: f.time(item.span.start),
    selected: isSelected,
    onSelect: () => onSelect(item.key),
    around: isSelected ? travelAround(axis, item.span, s) : undefined,
    label: t('timeline.slot', {
      technician: s.technicians.join(', '),
      when: f.span(item.span.start, item.span.end),
      score: Math.round(s.score),
    }),
    testId: 'timeline-slot',
  };
}

/** The travel before and after a slot, hatched (a part of no length, or off the axis, is not drawn). */
function travelAround(axis: Axis, span: Span, s: Slot) {
  return [
    { start: span.start - s.travelBefore.minutes * MINUTE, end: span.start },
    { start: span.end, end: span.end + s.travelAfter.minutes * MINUTE },
  ]
    .filter((x) => x.end > x.start)
    .map((x) => ({ x0: xOf(axis, x.start), x1: xOf(axis, x.end) }))
    .filter((x) => x.x1 > x.x0);
}

function Legend({ booked }: { booked: boolean }) {
  const { t } = useTranslation('planning');
  const item = (tone: string, label: string) => (
    <Text span size="xs" c="dimmed" mr="md">
      <span
        className="pl-legend pl-bar"
        data-tone={tone}
        style={{ position: 'static', minWidth: 0, padding: 0 }}
        aria-hidden
      />
      {label}
    </Text>
  );
  return (
    <Group gap={0} wrap="wrap">
      {item('high', t('legend.high'))}
      {item('mid', t('legend.mid'))}
      {item('low', t('legend.low'))}
      {item('picked', t('legend.picked'))}
      {booked && item('booking', t('legend.booked'))}
    </Group>
  );
}
