/**
 * One technician's lane on the board: working hours (light), absences (hatched), time taken
 * outside the caller's tree (grey), the scheduled work orders as bars coloured by status
 * with the travel drawn before each (and home after the day's last), and, while a work order
 * is moved over it, the target with its verdict. A bar is dragged with the mouse or picked
 * with Enter; its menu offers to move it with the keyboard.
 */
import { Menu, Text } from '@mantine/core';
import { IconArrowsMove, IconCalendarX, IconExternalLink } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { type DragEvent, memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { BoardTechnician } from '../../../../contract/slots.ts';
import { type Formats, fromApiDateTime } from '../../planning/index.ts';
import { workordersPaths } from '../../workorders/index.ts';
import { type Axis, instantAt, piecesOf } from '../model.ts';
import { statusColor } from '../status.ts';
import type { Dispatch, Picked, Target, Verdict } from '../useDispatch.ts';
import { type Explain, verdictText } from '../verdict.ts';

const ms = (text: string) => fromApiDateTime(text) ?? 0;
const MINUTE = 60_000;

type BoardWorkOrder = BoardTechnician['workOrders'][number];

export interface LaneProps {
  row: BoardTechnician;
  axis: Axis;
  f: Formats;
  dispatch: Dispatch;
  explain: Explain;
}

/** Memoized: the grid renders its rows again on every scroll, a lane only when its props change. */
export const Lane = memo(function Lane({ row, axis, f, dispatch, explain }: LaneProps) {
  const { t } = useTranslation('board');
  const navigate = useNavigate();
  const { picked, target, verdict } = dispatch;
  const targetHere = picked && target?.technicianCode === row.technicianCode ? target : null;

  const targetAt = (e: DragEvent<HTMLDivElement>): Target => {
    const box = e.currentTarget.getBoundingClientRect();
    const fraction = (e.clientX - box.left) / Math.max(1, box.width);
    return { technicianCode: row.technicianCode, start: instantAt(axis, fraction) };
  };

  const over = (e: DragEvent<HTMLDivElement>) => {
    if (!picked) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    dispatch.setTarget(targetAt(e));
  };

  const works = row.workOrders;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the drop target of a mouse drag; the keyboard moves with the arrows
    <div
      className="bd-lane"
      data-lane={row.technicianCode}
      data-testid="board-lane"
      // Entering a child (a bar, the working hours) moves the target as much as moving over it.
      onDragEnter={over}
      onDragOver={over}
      onDrop={(e) => {
        if (!picked) return;
        e.preventDefault();
        void dispatch.drop(targetAt(e));
      }}
    >
      {row.workingHours.map((w) => pieces(axis, ms(w.start), ms(w.end), `w${w.start}`, 'bd-work'))}
      {row.absences.map((a) => pieces(axis, ms(a.start), ms(a.end), `a${a.start}`, 'bd-absence'))}
      {row.busy.map((b) => pieces(axis, ms(b.start), ms(b.end), `b${b.start}`, 'bd-busy'))}
      {travelPieces(axis, works)}
      {works.map((w) => (
        <LaneBar
          key={w.workOrderCode}
          w={w}
          technicianCode={row.technicianCode}
          axis={axis}
          f={f}
          t={t}
          navigate={navigate}
          dispatch={dispatch}
          explain={explain}
        />
      ))}
      {targetHere && verdict && picked && (
        <LaneTarget axis={axis} f={f} t={t} start={targetHere.start} picked={picked} verdict={verdict} />
      )}
    </div>
  );
});

/** A span's pieces on the lane (one per day it covers). */
function pieces(axis: Axis, start: number, end: number, key: string, className: string) {
  return piecesOf(axis, start, end).map((p, i) => (
    <div
      // biome-ignore lint/suspicious/noArrayIndexKey: a span's pieces, one per day, in order
      key={`${key}-${i}`}
      className={className}
      style={{ left: `${p.left}%`, width: `${p.width}%` }}
      aria-hidden
    />
  ));
}

/** The travel drawn before each work order, and home after the last of its day. */
function travelPieces(axis: Axis, works: readonly BoardWorkOrder[]) {
  return works.map((w, i) => {
    const start = ms(w.start);
    const end = ms(w.end);
    const next = works[i + 1];
    // The travel home after the last of its day (a UTC day: working hours do not span midnight).
    const lastOfDay = !next || next.start.slice(0, 10) !== w.start.slice(0, 10);
    return [
      w.travelBefore && w.travelBefore.minutes > 0
        ? pieces(axis, start - w.travelBefore.minutes * MINUTE, start, `tb${w.workOrderCode}`, 'bd-travel')
        : null,
      lastOfDay && w.travelAfter && w.travelAfter.minutes > 0
        ? pieces(axis, end, end + w.travelAfter.minutes * MINUTE, `ta${w.workOrderCode}`, 'bd-travel')
        : null,
    ];
  });
}

interface LaneBarProps {
  w: BoardWorkOrder;
  technicianCode: string;
  axis: Axis;
  f: Formats;
  /** The lane's (not one translation hook per bar: the lanes are drawn while scrolling). */
  t: TFunction<'board'>;
  navigate: ReturnType<typeof useNavigate>;
  dispatch: Dispatch;
  explain: Explain;
}

/** A scheduled work order: its bar (one piece per day), dragged or opened as a menu. */
function LaneBar({ w, technicianCode, axis, f, t, navigate, dispatch, explain }: LaneBarProps) {
  const { picked, refusals } = dispatch;
  const start = ms(w.start);
  const end = ms(w.end);
  const refusal = refusals.get(w.workOrderCode);
  const refused = refusal ? t('bar.refused', { reason: explain(refusal) }) : undefined;
  const label = t('bar.label', {
    code: w.workOrderCode,
    type: w.workOrderTypeName,
    customer: w.customerCode ?? t('bar.noCustomer'),
    status: t(`common:workOrderStatus.${w.status}`),
    span: f.span(start, end),
    technician: technicianCode,
  });
  const movable = w.status === 'SCHEDULED' || w.status === 'PRE_SCHEDULED';
  const pickMe = (by: Picked['by']): Picked => ({
    workOrderCode: w.workOrderCode,
    durationMs: end - start,
    from: { technicianCode, start },
    by,
  });
  const color = statusColor(w.status);
  const menuLabel = t('bar.menu', { code: w.workOrderCode });
  return piecesOf(axis, start, end).map((p) => (
    <Menu key={`${w.workOrderCode}-${p.left}`} position="bottom-start" withinPortal shadow="md">
      <Menu.Target>
        <button
          type="button"
          className="bd-bar"
          style={{
            left: `${p.left}%`,
            width: `${p.width}%`,
            ['--bd-fill' as string]: `var(--mantine-color-${color}-light)`,
            ['--bd-outline' as string]: `var(--mantine-color-${color}-outline)`,
          }}
          draggable={movable}
          aria-label={`${label}${refused ? `. ${refused}` : ''}. ${menuLabel}`}
          title={refused ? `${label}\n${refused}` : label}
          data-picked={picked?.workOrderCode === w.workOrderCode ? '' : undefined}
          data-refused={refusal ? '' : undefined}
          data-testid="board-bar"
          data-code={w.workOrderCode}
          onDragStart={(e) => {
            e.dataTransfer.setData('text/plain', w.workOrderCode);
            e.dataTransfer.effectAllowed = 'move';
            dispatch.pick(pickMe('mouse'), { technicianCode, start });
          }}
          onDragEnd={() => dispatch.cancel(false)}
        >
          {w.workOrderCode} · {w.workOrderTypeName} · {w.customerCode ?? '—'}
        </button>
      </Menu.Target>
      <LaneBarMenu
        w={w}
        menuLabel={menuLabel}
        refused={refused}
        movable={movable}
        t={t}
        onMove={() => dispatch.pick(pickMe('keyboard'), { technicianCode, start })}
        onUnschedule={() => void dispatch.unschedule(w.workOrderCode, technicianCode)}
        onOpen={() =>
          void navigate({ to: workordersPaths.workOrder.detail, params: { code: w.workOrderCode } })
        }
      />
    </Menu>
  ));
}

/** A bar's menu: its refusal, if any, and move (with the keyboard), unschedule, open. */
function LaneBarMenu({
  w,
  menuLabel,
  refused,
  movable,
  t,
  onMove,
  onUnschedule,
  onOpen,
}: {
  w: BoardWorkOrder;
  menuLabel: string;
  /** The refusal kept on the bar, in words. */
  refused: string | undefined;
  movable: boolean;
  t: TFunction<'board'>;
  onMove: () => void;
  onUnschedule: () => void;
  onOpen: () => void;
}) {
  return (
    <Menu.Dropdown aria-label={menuLabel}>
      <Menu.Label>{w.workOrderCode}</Menu.Label>
      {refused && (
        <Text size="xs" c="red" px="sm" pb={4} maw={280} data-testid="bar-refusal">
          {refused}
        </Text>
      )}
      <Menu.Item
        leftSection={<IconArrowsMove size={14} aria-hidden />}
        disabled={!movable}
        onClick={onMove}
        data-testid="bar-move"
      >
        {t('bar.move')}
      </Menu.Item>
      <Menu.Item
        leftSection={<IconCalendarX size={14} aria-hidden />}
        disabled={w.status !== 'SCHEDULED'}
        onClick={onUnschedule}
        data-testid="bar-unschedule"
      >
        {t('bar.unschedule')}
      </Menu.Item>
      <Menu.Item onClick={onOpen} leftSection={<IconExternalLink size={14} aria-hidden />}>
        {t('bar.open')}
      </Menu.Item>
    </Menu.Dropdown>
  );
}

/** The target of the work order moved over this lane (its ghost) and the verdict beside it. */
function LaneTarget({
  axis,
  f,
  t,
  start,
  picked,
  verdict,
}: {
  axis: Axis;
  f: Formats;
  t: TFunction<'board'>;
  start: number;
  picked: Picked;
  verdict: Verdict;
}) {
  const fits = verdict.state === 'known' ? String(verdict.check.fits) : undefined;
  return (
    <>
      {piecesOf(axis, start, start + picked.durationMs).map((p, i) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: the target's pieces, one per day
          key={i}
          className="bd-ghost"
          style={{ left: `${p.left}%`, width: `${p.width}%` }}
          data-fits={fits}
          aria-hidden
        />
      ))}
      <div
        className="bd-verdict"
        // Beside the target, on the side with room.
        style={verdictPlace(axis, start, start + picked.durationMs)}
        data-testid="board-verdict"
        data-fits={fits}
      >
        {f.time(start)} · {verdictText(t, verdict, f)}
      </div>
    </>
  );
}

function verdictPlace(axis: Axis, start: number, end: number) {
  const pieces = piecesOf(axis, start, end);
  const left = pieces[0]?.left ?? 0;
  const last = pieces[pieces.length - 1];
  const right = last ? last.left + last.width : left;
  return right < 55 ? { left: `calc(${right}% + 4px)` } : { right: `calc(${100 - left}% + 4px)` };
}
