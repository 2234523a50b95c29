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
import { type DragEvent, memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { BoardTechnician } from '../../../../contract/slots.ts';
import { type Formats, fromApiDateTime } from '../../planning/index.ts';
import { workordersPaths } from '../../workorders/index.ts';
import { type Axis, instantAt, piecesOf } from '../model.ts';
import { statusColor } from '../status.ts';
import type { Dispatch, Picked, Target } from '../useDispatch.ts';
import { type Explain, verdictText } from '../verdict.ts';

const ms = (text: string) => fromApiDateTime(text) ?? 0;
const MINUTE = 60_000;

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
  const { picked, target, verdict, refusals } = dispatch;
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

  const pieces = (start: number, end: number, key: string, className: string) =>
    piecesOf(axis, start, end).map((p, i) => (
      <div
        // biome-ignore lint/suspicious/noArrayIndexKey: a span's pieces, one per day, in order
        key={`${key}-${i}`}
        className={className}
        style={{ left: `${p.left}%`, width: `${p.width}%` }}
        aria-hidden
      />
    ));

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
      {row.workingHours.map((w) => pieces(ms(w.start), ms(w.end), `w${w.start}`, 'bd-work'))}
      {row.absences.map((a) => pieces(ms(a.start), ms(a.end), `a${a.start}`, 'bd-absence'))}
      {row.busy.map((b) => pieces(ms(b.start), ms(b.end), `b${b.start}`, 'bd-busy'))}
      {works.map((w, i) => {
        const start = ms(w.start);
        const end = ms(w.end);
        const next = works[i + 1];
        // The travel home after the last of its day (a UTC day: working hours do not span midnight).
        const lastOfDay = !next || next.start.slice(0, 10) !== w.start.slice(0, 10);
        return [
          w.travelBefore && w.travelBefore.minutes > 0
            ? pieces(start - w.travelBefore.minutes * MINUTE, start, `tb${w.workOrderCode}`, 'bd-travel')
            : null,
          lastOfDay && w.travelAfter && w.travelAfter.minutes > 0
            ? pieces(end, end + w.travelAfter.minutes * MINUTE, `ta${w.workOrderCode}`, 'bd-travel')
            : null,
        ];
      })}
      {works.map((w) => {
        const start = ms(w.start);
        const end = ms(w.end);
        const refusal = refusals.get(w.workOrderCode);
        const label = t('bar.label', {
          code: w.workOrderCode,
          type: w.workOrderTypeName,
          customer: w.customerCode ?? t('bar.noCustomer'),
          status: t(`status.${w.status}`),
          span: f.span(start, end),
          technician: row.technicianCode,
        });
        const movable = w.status === 'SCHEDULED' || w.status === 'PRE_SCHEDULED';
        const pickMe = (by: Picked['by']): Picked => ({
          workOrderCode: w.workOrderCode,
          durationMs: end - start,
          from: { technicianCode: row.technicianCode, start },
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
                aria-label={`${label}${refusal ? `. ${t('bar.refused', { reason: explain(refusal) })}` : ''}. ${menuLabel}`}
                title={refusal ? `${label}\n${t('bar.refused', { reason: explain(refusal) })}` : label}
                data-picked={picked?.workOrderCode === w.workOrderCode ? '' : undefined}
                data-refused={refusal ? '' : undefined}
                data-testid="board-bar"
                data-code={w.workOrderCode}
                onDragStart={(e) => {
                  e.dataTransfer.setData('text/plain', w.workOrderCode);
                  e.dataTransfer.effectAllowed = 'move';
                  dispatch.pick(pickMe('mouse'), { technicianCode: row.technicianCode, start });
                }}
                onDragEnd={() => dispatch.cancel(false)}
              >
                {w.workOrderCode} · {w.workOrderTypeName} · {w.customerCode ?? '—'}
              </button>
            </Menu.Target>
            <Menu.Dropdown aria-label={menuLabel}>
              <Menu.Label>{w.workOrderCode}</Menu.Label>
              {refusal && (
                <Text size="xs" c="red" px="sm" pb={4} maw={280} data-testid="bar-refusal">
                  {t('bar.refused', { reason: explain(refusal) })}
                </Text>
              )}
              <Menu.Item
                leftSection={<IconArrowsMove size={14} aria-hidden />}
                disabled={!movable}
                onClick={() =>
                  dispatch.pick(pickMe('keyboard'), { technicianCode: row.technicianCode, start })
                }
                data-testid="bar-move"
              >
                {t('bar.move')}
              </Menu.Item>
              <Menu.Item
                leftSection={<IconCalendarX size={14} aria-hidden />}
                disabled={w.status !== 'SCHEDULED'}
                onClick={() => void dispatch.unschedule(w.workOrderCode, row.technicianCode)}
                data-testid="bar-unschedule"
              >
                {t('bar.unschedule')}
              </Menu.Item>
              <Menu.Item
                onClick={() =>
                  void navigate({ to: workordersPaths.workOrder.detail, params: { code: w.workOrderCode } })
                }
                leftSection={<IconExternalLink size={14} aria-hidden />}
              >
                {t('bar.open')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ));
      })}
      {targetHere && verdict && picked && (
        <>
          {piecesOf(axis, targetHere.start, targetHere.start + picked.durationMs).map((p, i) => (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: the target's pieces, one per day
              key={i}
              className="bd-ghost"
              style={{ left: `${p.left}%`, width: `${p.width}%` }}
              data-fits={verdict.state === 'known' ? String(verdict.check.fits) : undefined}
              aria-hidden
            />
          ))}
          <div
            className="bd-verdict"
            // Beside the target, on the side with room.
            style={verdictPlace(axis, targetHere.start, targetHere.start + picked.durationMs)}
            data-testid="board-verdict"
            data-fits={verdict.state === 'known' ? String(verdict.check.fits) : undefined}
          >
            {f.time(targetHere.start)} · {verdictText(t, verdict, f)}
          </div>
        </>
      )}
    </div>
  );
});

function verdictPlace(axis: Axis, start: number, end: number) {
  const pieces = piecesOf(axis, start, end);
  const left = pieces[0]?.left ?? 0;
  const last = pieces[pieces.length - 1];
  const right = last ? last.left + last.width : left;
  return right < 55 ? { left: `calc(${right}% + 4px)` } : { right: `calc(${100 - left}% + 4px)` };
}
