/**
 * The words of a check's answer: whether the work fits the target and, if not, why (the
 * service's reason and its detail), and of a refusal kept on a bar.
 */
import type { TFunction } from 'i18next';
import type { SlotCheck } from '../../../contract/slots.ts';
import type { Formats } from '../planning/index.ts';
import { fromApiDateTime } from '../planning/index.ts';
import type { Verdict } from './useDispatch.ts';

export type Explain = (refusal: string | SlotCheck) => string;

const spanText = (f: Formats, s: { start: string; end: string }) =>
  f.span(fromApiDateTime(s.start) ?? 0, fromApiDateTime(s.end) ?? 0);

/** Why it does not fit (or how it fits: the travel before and after). */
export function checkText(t: TFunction<'board'>, c: SlotCheck, f: Formats): string {
  if (c.fits)
    return t('verdict.fits', {
      before: c.travel?.before.minutes ?? 0,
      after: c.travel?.after.minutes ?? 0,
    });
  const d = c.detail ?? {};
  switch (c.reason) {
    case 'skill.missing':
      return t('reason.skill.missing', { skills: (d.skills ?? []).join(', ') });
    case 'absent':
      return t('reason.absent', { span: (d.absences ?? []).map((a) => spanText(f, a)).join('; ') });
    case 'capacity.full':
      return d.maxWorkOrdersPerDay != null
        ? t('reason.capacity.workOrders', { count: d.maxWorkOrdersPerDay })
        : t('reason.capacity.minutes', { minutes: d.maxMinutesPerDay ?? 0 });
    case 'no.window':
      return d.workOrders?.length
        ? t('reason.no.window.overlap', { workOrders: d.workOrders.join(', ') })
        : t('reason.no.window.hours');
    case 'too.far':
      return d.route === 'none'
        ? t('reason.too.far.noRoad')
        : d.route === 'unavailable'
          ? t('reason.too.far.unavailable')
          : t('reason.too.far.travel', {
              needed: d.neededMinutes ?? 0,
              free: d.free
                ? Math.round(
                    ((fromApiDateTime(d.free.end) ?? 0) - (fromApiDateTime(d.free.start) ?? 0)) / 60_000,
                  )
                : 0,
            });
    case 'inactive':
      return t('reason.inactive');
    default:
      return t('reason.unknown');
  }
}

export function verdictText(t: TFunction<'board'>, v: Verdict, f: Formats): string {
  if (v.state === 'checking') return t('verdict.checking');
  if (v.state === 'failed') return t('verdict.failed', { message: (v.error as Error)?.message ?? '' });
  return v.check.fits ? checkText(t, v.check, f) : t('verdict.refused', { reason: checkText(t, v.check, f) });
}
