import { describe, expect, it } from 'vitest';
import type { ExcludedTechnician } from '../../../contract/slots.ts';
import { dayPeriod, reasonFocus } from './whyNot.ts';

const at = (text: string) => Date.parse(`${text}Z`);
const PERIOD = at('2030-02-04T00:00');

describe('what a reason draws on the day', () => {
  it('outranked: its best slot, on its day', () => {
    const e: ExcludedTechnician = {
      technicianCode: 'T1',
      reason: 'outranked',
      detail: { score: 61.5, start: '2030-02-06T09:00:00Z', end: '2030-02-06T10:00:00Z' },
    };
    expect(reasonFocus(e, PERIOD, 'UTC')).toEqual({
      day: '2030-02-06',
      span: { start: at('2030-02-06T09:00'), end: at('2030-02-06T10:00'), mark: 'best' },
    });
  });

  it('too far, no window: the free time in question; absent: the absence', () => {
    const free = { start: '2030-02-05T13:00:00Z', end: '2030-02-05T13:40:00Z' };
    const tooFar: ExcludedTechnician = {
      technicianCode: 'T1',
      reason: 'too.far',
      detail: {
        route: 'ok',
        free,
        freeMinutes: 40,
        neededMinutes: 90,
        travelBefore: null,
        travelAfter: null,
      },
    };
    expect(reasonFocus(tooFar, PERIOD, 'UTC').span).toMatchObject({
      start: at('2030-02-05T13:00'),
      mark: 'free',
    });
    const noWindow: ExcludedTechnician = {
      technicianCode: 'T1',
      reason: 'no.window',
      detail: { longestFree: free, freeMinutes: 40, durationMinutes: 60 },
    };
    expect(reasonFocus(noWindow, PERIOD, 'UTC').day).toBe('2030-02-05');
    const absent: ExcludedTechnician = {
      technicianCode: 'T1',
      reason: 'absent',
      detail: { absences: [{ start: '2030-02-03T23:00:00Z', end: '2030-02-08T23:00:00Z' }] },
    };
    // The absence starts on the 4th in Paris.
    expect(reasonFocus(absent, PERIOD, 'Europe/Paris')).toMatchObject({
      day: '2030-02-04',
      span: { mark: 'absence' },
    });
  });

  it('capacity full: the whole first full day; skills or inactive: the first day, nothing drawn', () => {
    const full: ExcludedTechnician = {
      technicianCode: 'T1',
      reason: 'capacity.full',
      detail: { days: ['2030-02-07'], maxWorkOrdersPerDay: 3, maxMinutesPerDay: null },
    };
    expect(reasonFocus(full, PERIOD, 'UTC')).toEqual({
      day: '2030-02-07',
      span: { start: at('2030-02-07T00:00'), end: at('2030-02-08T00:00'), mark: 'full' },
    });
    const skills: ExcludedTechnician = {
      technicianCode: 'T1',
      reason: 'skill.missing',
      detail: { skills: ['GAS'] },
    };
    expect(reasonFocus(skills, PERIOD, 'UTC')).toEqual({ day: '2030-02-04', span: null });
  });

  it('the day read is the local day, in UTC', () => {
    expect(dayPeriod('2030-02-04', 'Europe/Paris')).toEqual({
      start: '2030-02-03T23:00',
      end: '2030-02-04T23:00',
    });
  });
});
