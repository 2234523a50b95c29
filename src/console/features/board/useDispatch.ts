/**
 * Moving work by hand (issue 28, 3): a work order picked (dragged with the mouse, or picked
 * with Enter and moved with the arrows), the target under it (a technician and a start on
 * the step's grid), whether it fits there (slots/check, asked once per target after a pause:
 * not once per mouse move), and the drop, which asks the check of the exact target before it
 * schedules through the spec's scheduling PUT. What the service refuses stays on the bar (or
 * the queue card) that was moved, and the rows the drop touched are read again.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../../client/index.ts';
import type { SlotCheck } from '../../../contract/slots.ts';
import { useDebounced } from '../../components/useDebounced.ts';
import { type Axis, moveInstant } from './model.ts';
import { boardKeys, useBoardApi, useCheck } from './queries.ts';

/** Pause of the target before its check is asked (a drag crosses cells quickly). */
export const CHECK_DEBOUNCE_MS = 150;

export interface Picked {
  workOrderCode: string;
  durationMs: number;
  /** Where it is scheduled now (a bar), or null (the queue). */
  from: { technicianCode: string; start: number } | null;
  by: 'mouse' | 'keyboard';
}
export interface Target {
  technicianCode: string;
  start: number;
}
/** What the board says of the target: still asking, or the check's answer (or its failure). */
export type Verdict =
  | { state: 'checking' }
  | { state: 'known'; check: SlotCheck }
  | { state: 'failed'; error: unknown };

export type Announce = (
  event:
    | { kind: 'picked'; picked: Picked; target: Target }
    /** `picked`: the first target after the pick (said with the pick, which it would replace). */
    | { kind: 'target'; target: Target; verdict: Verdict; picked?: Picked }
    | { kind: 'refused'; workOrderCode: string; check: SlotCheck }
    | { kind: 'failed'; workOrderCode: string; error: unknown }
    | { kind: 'scheduled'; workOrderCode: string; target: Target }
    | { kind: 'unscheduled'; workOrderCode: string }
    | { kind: 'cancelled'; workOrderCode: string },
) => void;

/** Where a work order picked from the queue with the keyboard lands: the first row, two hours into the period. */
export const firstTargetOf = (technicianCode: string, axis: Axis): Target => ({
  technicianCode,
  start: axis.segments[0].start + 2 * 3_600_000,
});

const same = (a: Target | null, b: Target | null) =>
  !!a && !!b && a.technicianCode === b.technicianCode && a.start === b.start;

export function useDispatch({
  axis,
  technicianCodes,
  announce,
  reloadRows,
}: {
  axis: Axis;
  /** The rows loaded, in order (the arrows move between them). */
  technicianCodes: readonly string[];
  announce: Announce;
  reloadRows: (technicianCodes: readonly string[]) => Promise<void>;
}) {
  const { refusals, refuse, forget } = useRefusals();
  const { picked, target, pickedAt, setTarget, pick, cancel, release } = usePickedTarget(announce, forget);
  // A keyboard pick made before any row was shown lands on the first row once one is: the
  // arrows and Enter have somewhere to start from, and the pick is said then.
  const firstCode = technicianCodes[0];
  useEffect(() => {
    if (picked?.by === 'keyboard' && !target && firstCode) pick(picked, firstTargetOf(firstCode, axis));
  }, [picked, target, firstCode, axis, pick]);
  const verdict = useTargetVerdict(picked, target);
  useSpokenVerdict(picked, target, verdict, pickedAt, announce);
  const { dropping, schedule, unschedule } = useScheduleMutation(refuse, announce, reloadRows);

  const drop = useCallback(
    async (at: Target | null = target) => {
      if (!picked || !at) return;
      const moved = picked;
      release();
      if (moved.from && moved.from.technicianCode === at.technicianCode && moved.from.start === at.start)
        return;
      await schedule(moved, at);
    },
    [picked, target, release, schedule],
  );

  useKeyboardMove({ picked, target, pickedAt, axis, technicianCodes, drop, cancel, setTarget });

  // One object while nothing changes: the lanes are memoized on it (a page of rows arriving
  // does not draw the others again).
  const verdictKey = verdict ? JSON.stringify(verdict.state === 'known' ? verdict.check : verdict.state) : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the verdict changes with its key
  return useMemo(
    () => ({ picked, target, verdict, refusals, dropping, pick, setTarget, drop, cancel, unschedule }),
    [picked, target, verdictKey, refusals, dropping, pick, setTarget, drop, cancel, unschedule],
  );
}
export type Dispatch = ReturnType<typeof useDispatch>;

/** The refusals kept on the bar or card of the work order moved (cleared by its next move). */
function useRefusals() {
  const [refusals, setRefusals] = useState<ReadonlyMap<string, string | SlotCheck>>(new Map());
  const refuse = useCallback((code: string, why: string | SlotCheck) => {
    setRefusals((m) => new Map(m).set(code, why));
  }, []);
  const forget = useCallback((code: string) => {
    setRefusals((m) => {
      if (!m.has(code)) return m;
      const next = new Map(m);
      next.delete(code);
      return next;
    });
  }, []);
  return { refusals, refuse, forget };
}

/** The drag state: the work order picked (by the mouse or the keyboard) and the target under it. */
function usePickedTarget(announce: Announce, forget: (code: string) => void) {
  const [picked, setPicked] = useState<Picked | null>(null);
  const [target, setTargetState] = useState<Target | null>(null);
  /** When the pick happened: the key that picked (Enter on a menu item) is not also a drop. */
  const pickedAt = useRef(0);

  const setTarget = useCallback((next: Target | null) => {
    setTargetState((prev) => (same(prev, next) || (prev === null && next === null) ? prev : next));
  }, []);

  const pick = useCallback(
    (p: Picked, at: Target | null) => {
      pickedAt.current = performance.now();
      setPicked(p);
      setTargetState(at);
      forget(p.workOrderCode);
      if (p.by === 'keyboard' && at) announce({ kind: 'picked', picked: p, target: at });
    },
    [announce, forget],
  );

  /** Nothing picked any more (a drop or a cancel). */
  const release = useCallback(() => {
    setPicked(null);
    setTargetState(null);
  }, []);

  const cancel = useCallback(
    (say = true) => {
      if (picked && say) announce({ kind: 'cancelled', workOrderCode: picked.workOrderCode });
      release();
    },
    [picked, announce, release],
  );

  return { picked, target, pickedAt, setTarget, pick, cancel, release };
}

/** The target's check, asked once the target has paused (not once per mouse move). */
function useTargetVerdict(picked: Picked | null, target: Target | null): Verdict | null {
  const settled = useDebounced(target, CHECK_DEBOUNCE_MS);
  const asked =
    picked && settled && same(settled, target) ? { workOrderCode: picked.workOrderCode, ...settled } : null;
  const check = useCheck(asked);
  return !target
    ? null
    : !asked || check.isPending
      ? { state: 'checking' }
      : check.isError
        ? { state: 'failed', error: check.error }
        : check.data
          ? { state: 'known', check: check.data }
          : { state: 'checking' };
}

/** The keyboard hears the verdict of each target it moves to (the mouse sees it drawn). */
function useSpokenVerdict(
  picked: Picked | null,
  target: Target | null,
  verdict: Verdict | null,
  pickedAt: RefObject<number>,
  announce: Announce,
) {
  const spoken = useRef('');
  const spokenAt = useRef(0);
  useEffect(() => {
    if (picked?.by !== 'keyboard' || !target || !verdict || verdict.state === 'checking') return;
    const key = `${picked.workOrderCode}|${target.technicianCode}|${target.start}|${verdict.state}`;
    if (spoken.current === key) return;
    const first =
      !spoken.current.startsWith(`${picked.workOrderCode}|`) || pickedAt.current > spokenAt.current;
    spoken.current = key;
    spokenAt.current = performance.now();
    announce({ kind: 'target', target, verdict, picked: first ? picked : undefined });
  }, [picked, target, verdict, announce, pickedAt]);
}

/** The schedule mutation (the drop's check, then the PUT) and the unschedule, with the rows they touch read again. */
function useScheduleMutation(
  refuse: (code: string, why: string | SlotCheck) => void,
  announce: Announce,
  reloadRows: (technicianCodes: readonly string[]) => Promise<void>,
) {
  const api = useBoardApi();
  const client = useQueryClient();
  const [dropping, setDropping] = useState(false);

  const schedule = useCallback(
    async (moved: Picked, at: Target) => {
      setDropping(true);
      const touched = [at.technicianCode, ...(moved.from ? [moved.from.technicianCode] : [])];
      try {
        // The exact target's check (asked already while it was hovered, else now).
        const result = await client.fetchQuery({
          queryKey: boardKeys.check(moved.workOrderCode, at.technicianCode, at.start),
          queryFn: ({ signal }) => api.check(moved.workOrderCode, at.technicianCode, at.start, signal),
          staleTime: 5_000,
        });
        if (!result.fits) {
          refuse(moved.workOrderCode, result);
          announce({ kind: 'refused', workOrderCode: moved.workOrderCode, check: result });
          return;
        }
        await api.schedule(moved.workOrderCode, at.technicianCode, at.start);
        announce({ kind: 'scheduled', workOrderCode: moved.workOrderCode, target: at });
        await Promise.all([reloadRows(touched), client.invalidateQueries({ queryKey: boardKeys.queue })]);
      } catch (error) {
        refuse(moved.workOrderCode, error instanceof ApiError ? error.message : String(error));
        announce({ kind: 'failed', workOrderCode: moved.workOrderCode, error });
        // Someone else may have changed these rows: show them as they are now.
        if (
          error instanceof ApiError &&
          (error.status === 412 || error.status === 400 || error.status === 409)
        )
          await Promise.all([reloadRows(touched), client.invalidateQueries({ queryKey: boardKeys.queue })]);
      } finally {
        setDropping(false);
        // Checks answered before this drop may no longer hold.
        client.removeQueries({ queryKey: ['board', 'check'] });
      }
    },
    [client, api, refuse, announce, reloadRows],
  );

  /** From a bar's menu: back to the queue. */
  const unschedule = useCallback(
    async (workOrderCode: string, technicianCode: string) => {
      setDropping(true);
      try {
        await api.unschedule(workOrderCode);
        announce({ kind: 'unscheduled', workOrderCode });
      } catch (error) {
        refuse(workOrderCode, error instanceof ApiError ? error.message : String(error));
        announce({ kind: 'failed', workOrderCode, error });
      } finally {
        // Done or refused, the row shows the work order as it is now.
        await Promise.all([
          reloadRows([technicianCode]),
          client.invalidateQueries({ queryKey: boardKeys.queue }),
        ]);
        setDropping(false);
      }
    },
    [api, client, refuse, announce, reloadRows],
  );

  return { dropping, schedule, unschedule };
}

/** The keyboard's move: arrows along the time grid and between rows, Enter drops, Escape cancels. */
function useKeyboardMove({
  picked,
  target,
  pickedAt,
  axis,
  technicianCodes,
  drop,
  cancel,
  setTarget,
}: {
  picked: Picked | null;
  target: Target | null;
  pickedAt: RefObject<number>;
  axis: Axis;
  technicianCodes: readonly string[];
  drop: () => Promise<void>;
  cancel: () => void;
  setTarget: (next: Target | null) => void;
}) {
  useEffect(() => {
    if (picked?.by !== 'keyboard') return;
    const onKey = (e: KeyboardEvent) => {
      if (!target || e.timeStamp <= pickedAt.current) return;
      let next: Target | null = null;
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight')
        next = { ...target, start: moveInstant(axis, target.start, e.key === 'ArrowLeft' ? -1 : 1) };
      else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
        const i = technicianCodes.indexOf(target.technicianCode);
        const j = Math.min(Math.max(i + (e.key === 'ArrowUp' ? -1 : 1), 0), technicianCodes.length - 1);
        next = { ...target, technicianCode: technicianCodes[j] ?? target.technicianCode };
      } else if (e.key === 'Enter') {
        e.preventDefault();
        void drop();
        return;
      } else if (e.key === 'Escape') {
        e.preventDefault();
        cancel();
        return;
      } else return;
      e.preventDefault();
      setTarget(next);
      document
        .querySelector(`[data-lane="${CSS.escape(next.technicianCode)}"]`)
        ?.scrollIntoView({ block: 'nearest' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [picked, target, pickedAt, axis, technicianCodes, drop, cancel, setTarget]);
}
