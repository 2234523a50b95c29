/**
 * A technician's day drawn in SVG, no map tiles (no network): the positions projected with
 * the ground's proportions, the whole day's path faint, the path up to the chosen minute
 * strong, the start and the current point marked.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { clock, pathOf, project, type TracePoint, upTo } from '../model.ts';
import type { Position } from '../transport.ts';

export const TRACE_W = 640;
export const TRACE_H = 400;

export function Trace({
  positions,
  day,
  minute,
}: {
  positions: readonly Position[];
  day: string;
  minute: number;
}) {
  const { t } = useTranslation('workorders');
  const points = useMemo(() => project(positions, day, TRACE_W, TRACE_H), [positions, day]);
  const done = useMemo(() => upTo(points, minute), [points, minute]);
  const current: TracePoint | undefined = done[done.length - 1];
  const first = points[0];
  return (
    <svg
      viewBox={`0 0 ${TRACE_W} ${TRACE_H}`}
      role="img"
      aria-label={t('technician.traceLabel', {
        count: points.length,
        shown: done.length,
        time: clock(minute),
      })}
      style={{ width: '100%', height: '100%', display: 'block' }}
      preserveAspectRatio="xMidYMid meet"
      data-testid="trace"
      data-points={points.length}
      data-shown={done.length}
    >
      <rect x={0} y={0} width={TRACE_W} height={TRACE_H} fill="var(--mantine-color-default-hover)" rx={8} />
      <path
        d={pathOf(points)}
        fill="none"
        stroke="var(--mantine-color-gray-5)"
        strokeWidth={1.5}
        strokeDasharray="4 3"
        data-testid="trace-day"
      />
      <path
        d={pathOf(done)}
        fill="none"
        stroke="var(--mantine-color-blue-filled)"
        strokeWidth={3}
        strokeLinejoin="round"
        strokeLinecap="round"
        data-testid="trace-path"
      />
      {first && (
        <circle
          cx={first.x}
          cy={first.y}
          r={5}
          fill="var(--mantine-color-teal-filled)"
          data-testid="trace-start"
        />
      )}
      {current && (
        <circle
          cx={current.x}
          cy={current.y}
          r={7}
          fill="var(--mantine-color-red-filled)"
          stroke="white"
          strokeWidth={2}
          data-testid="trace-current"
        />
      )}
    </svg>
  );
}
