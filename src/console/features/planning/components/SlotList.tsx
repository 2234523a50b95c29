/**
 * The slots as a list (virtualized: up to 700): when, who, the travel before and after,
 * the score and why; a row selects its slot, its button schedules it (with a work order).
 */
import { Button, Group, SegmentedControl, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, VirtualTable } from '../../../components/VirtualTable.tsx';
import type { Formats } from '../format.ts';
import { type Slot, slotKey, slotSpan } from '../slotsModel.ts';
import { ScoreBadge, scoreSummary, TravelText } from './SlotParts.tsx';

type Sort = 'score' | 'start';

export function SlotList({
  slots,
  f,
  selected,
  onSelect,
  onSchedule,
}: {
  slots: readonly Slot[];
  f: Formats;
  selected: string | null;
  onSelect: (key: string) => void;
  /** Absent without a work order to schedule. */
  onSchedule?: (slot: Slot) => void;
}) {
  const { t } = useTranslation('planning');
  const [sort, setSort] = useState<Sort>('score');
  const rows = useMemo(
    () =>
      sort === 'score'
        ? [...slots]
        : [...slots].sort(
            (a, b) => a.start.localeCompare(b.start) || a.technicians[0].localeCompare(b.technicians[0]),
          ),
    [slots, sort],
  );
  const columns = slotColumns(t, f, selected, onSelect);
  if (onSchedule) columns.push(scheduleColumn(t, f, onSchedule));

  return (
    <Stack gap="xs" style={{ minHeight: 0 }}>
      <SortControl sort={sort} onSort={setSort} />
      <div style={{ display: 'flex', flexDirection: 'column', maxHeight: 520 }}>
        <VirtualTable
          rows={rows}
          columns={columns}
          rowKey={slotKey}
          onOpen={(s) => onSelect(slotKey(s))}
          hasMore={false}
          loadingMore={false}
          loadMore={() => {}}
          label={t('list.label')}
        />
      </div>
    </Stack>
  );
}

/** The list's order: by score (the service's) or by start. */
function SortControl({ sort, onSort }: { sort: Sort; onSort: (sort: Sort) => void }) {
  const { t } = useTranslation('planning');
  return (
    <Group gap="sm">
      <Text size="sm" id="slot-sort-label">
        {t('list.sortBy')}
      </Text>
      <SegmentedControl
        size="xs"
        value={sort}
        onChange={(v) => onSort(v === 'start' ? 'start' : 'score')}
        data={[
          { value: 'score', label: t('list.byScore') },
          { value: 'start', label: t('list.byStart') },
        ]}
        aria-labelledby="slot-sort-label"
      />
    </Group>
  );
}

/** The columns every list has: when (selects the slot), who, the travel either side, the score and why. */
function slotColumns(
  t: TFunction<'planning'>,
  f: Formats,
  selected: string | null,
  onSelect: (key: string) => void,
): Column<Slot>[] {
  return [
    {
      key: 'when',
      header: t('list.when'),
      width: 200,
      render: (s) => {
        const span = slotSpan(s);
        const isSelected = slotKey(s) === selected;
        return (
          <UnstyledButton
            onClick={() => onSelect(slotKey(s))}
            aria-pressed={isSelected}
            aria-label={t('list.select', {
              technician: s.technicians.join(', '),
              when: f.span(span.start, span.end),
            })}
            data-testid="list-select"
          >
            <Group gap={6} wrap="nowrap">
              {isSelected && <IconCheck size={14} aria-hidden />}
              <Text span size="sm" fw={500}>
                {f.span(span.start, span.end)}
              </Text>
            </Group>
          </UnstyledButton>
        );
      },
    },
    { key: 'technician', header: t('list.technician'), width: 95, render: (s) => s.technicians.join(', ') },
    travelColumn('before', t('list.travelBefore')),
    travelColumn('after', t('list.travelAfter')),
    { key: 'score', header: t('list.score'), width: 62, render: (s) => <ScoreBadge score={s.score} /> },
    {
      key: 'why',
      header: t('list.why'),
      render: (s) => (
        <Text span size="xs" title={t('list.whyTitle', { summary: scoreSummary(s) })}>
          {scoreSummary(s)}
        </Text>
      ),
    },
  ];
}

/** The travel before or after the slot, in short. */
function travelColumn(direction: 'before' | 'after', header: string): Column<Slot> {
  return {
    key: direction,
    header,
    width: 150,
    render: (s) => (
      <Text span size="xs">
        <TravelText
          travel={direction === 'before' ? s.travelBefore : s.travelAfter}
          direction={direction}
          compact
        />
      </Text>
    ),
  };
}

/** The button that schedules the row's slot (only with a work order to schedule). */
function scheduleColumn(
  t: TFunction<'planning'>,
  f: Formats,
  onSchedule: (slot: Slot) => void,
): Column<Slot> {
  return {
    key: 'schedule',
    header: t('list.action'),
    width: 118,
    render: (s) => (
      <Button
        size="compact-sm"
        variant="light"
        onClick={() => onSchedule(s)}
        aria-label={t('list.scheduleOne', {
          technician: s.technicians.join(', '),
          when: f.dateTime(Date.parse(s.start)),
        })}
      >
        {t('list.schedule')}
      </Button>
    ),
  };
}
