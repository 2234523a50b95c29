/**
 * A timeline: days as columns, rows of bars (technicians and their slots and work orders,
 * crews and their members' intervals). The rows are virtualized (only those in view are in
 * the DOM), the day headers and the row labels stay in view while it scrolls both ways.
 * Positions come from ../timeline.ts in day units; this component only scales them to its
 * column width, which fills the width it is given (at least `minDayWidth`).
 */
import './timeline.css';
import { useElementSize } from '@mantine/hooks';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type CSSProperties, type ReactNode, useEffect, useRef } from 'react';
import type { Axis, Bar } from '../timeline.ts';

export type BarTone = 'high' | 'mid' | 'low' | 'booking' | 'picked' | 'main' | 'secondary';

export interface TimelineBar {
  key: string;
  bar: Bar;
  lane: number;
  tone: BarTone;
  /** What a screen reader says of the bar (and its tooltip). */
  label: string;
  /** Shown inside the bar when it is wide enough. */
  text?: string;
  selected?: boolean;
  /** A bar that can be chosen is a button. */
  onSelect?: () => void;
  testId?: string;
  /** Hatched parts drawn around the bar (the travel of the selected slot), in day units. */
  around?: { x0: number; x1: number }[];
}

export interface TimelineRow {
  key: string;
  label: ReactNode;
  /** A heading row of a group (a crew): shaded. */
  group?: boolean;
  lanes: number;
  bars: TimelineBar[];
  testId?: string;
}

const LANE = 26;
const PAD = 6;

export function Timeline({
  axis,
  rows,
  dayLabel,
  corner,
  ariaLabel,
  labelWidth = 170,
  minDayWidth = 120,
  maxHeight = 520,
  hourLines = true,
  testId,
  onRowsInView,
}: {
  axis: Axis;
  rows: readonly TimelineRow[];
  dayLabel: (day: string) => ReactNode;
  corner?: ReactNode;
  ariaLabel: string;
  labelWidth?: number;
  minDayWidth?: number;
  maxHeight?: number;
  /** Faint lines at each hour of the columns (not for whole-day columns). */
  hourLines?: boolean;
  testId?: string;
  /** Told the keys of the rows in view (and just around) when they change. */
  onRowsInView?: (keys: string[]) => void;
}) {
  const { ref: sizeRef, width } = useElementSize();
  const scrollRef = useRef<HTMLElement>(null);
  const days = axis.days.length;
  const available = Math.max(0, (width || 900) - labelWidth - 2);
  const dayWidth = Math.max(minDayWidth, days ? Math.floor(available / days) : minDayWidth);
  const trackWidth = dayWidth * days;
  const hours = (axis.endMinute - axis.startMinute) / 60;
  const heightOf = (r: TimelineRow) => Math.max(1, r.lanes) * LANE + PAD;

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => heightOf(rows[i]),
    getItemKey: (i) => rows[i].key,
    overscan: 8,
  });
  // A row's height follows its lanes, which change with the data (bookings read later).
  // biome-ignore lint/correctness/useExhaustiveDependencies: measured again when the rows change
  useEffect(() => {
    virtualizer.measure();
  }, [rows, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const inView = items
    .map((v) => rows[v.index]?.key)
    .filter((k): k is string => !!k)
    .join('\n');
  useEffect(() => {
    if (inView) onRowsInView?.(inView.split('\n'));
  }, [inView, onRowsInView]);
  const total = virtualizer.getTotalSize();
  const trackStyle = {
    width: trackWidth,
    '--pl-day-width': `${dayWidth}px`,
    '--pl-hour-width': `${dayWidth / hours}px`,
    '--pl-hour-line': hourLines && dayWidth / hours >= 8 ? 'var(--mantine-color-gray-light)' : 'transparent',
  } as CSSProperties;

  return (
    <div ref={sizeRef} style={{ width: '100%' }}>
      <section
        ref={scrollRef}
        className="pl-timeline"
        style={{ maxHeight }}
        aria-label={ariaLabel}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached with the keyboard
        tabIndex={0}
        data-testid={testId}
      >
        <div style={{ width: labelWidth + trackWidth, position: 'relative' }}>
          <div className="pl-head">
            <div className="pl-corner" style={{ width: labelWidth }}>
              {corner}
            </div>
            {axis.days.map((d) => {
              const weekday = new Date(`${d}T00:00:00Z`).getUTCDay();
              return (
                <div
                  key={d}
                  className="pl-day"
                  style={{ width: dayWidth }}
                  data-weekend={weekday === 0 || weekday === 6 ? '' : undefined}
                  data-testid="timeline-day"
                >
                  {dayLabel(d)}
                </div>
              );
            })}
          </div>
          <div style={{ height: total, position: 'relative' }}>
            {items.map((v) => {
              const row = rows[v.index];
              return (
                <div
                  key={row.key}
                  className="pl-row"
                  data-group={row.group ? '' : undefined}
                  style={{ top: v.start, height: v.size, width: labelWidth + trackWidth }}
                  data-testid={row.testId ?? 'timeline-row'}
                >
                  <div className="pl-label" style={{ width: labelWidth }}>
                    {row.label}
                  </div>
                  <div className="pl-track" style={{ ...trackStyle, height: v.size }}>
                    {row.bars.map((b) => (
                      <BarView key={b.key} b={b} dayWidth={dayWidth} />
                    ))}
                  </div>
                </div>
              );
            })}
          </div>
        </div>
      </section>
    </div>
  );
}

function BarView({ b, dayWidth }: { b: TimelineBar; dayWidth: number }) {
  const left = b.bar.x0 * dayWidth;
  const width = Math.max(6, (b.bar.x1 - b.bar.x0) * dayWidth);
  const top = b.lane * LANE + PAD / 2 + 2;
  const style: CSSProperties = { left, width, top, height: LANE - 4 };
  const common = {
    className: 'pl-bar',
    style,
    title: b.label,
    'data-tone': b.tone,
    'data-selected': b.selected ? '' : undefined,
    'data-cut-start': b.bar.clippedStart ? '' : undefined,
    'data-cut-end': b.bar.clippedEnd ? '' : undefined,
    'data-testid': b.testId,
  };
  const text = b.text && width >= 44 ? b.text : null;
  return (
    <>
      {b.around?.map((a) => (
        <div
          key={`${a.x0}-${a.x1}`}
          className="pl-travel"
          aria-hidden
          style={{
            left: a.x0 * dayWidth,
            width: Math.max(2, (a.x1 - a.x0) * dayWidth),
            top,
            height: LANE - 4,
          }}
        />
      ))}
      {b.onSelect ? (
        <button
          type="button"
          {...common}
          aria-label={b.label}
          aria-pressed={b.selected ? 'true' : 'false'}
          onClick={b.onSelect}
        >
          {text}
        </button>
      ) : (
        <div {...common} role="img" aria-label={b.label}>
          {text}
        </div>
      )}
    </>
  );
}
