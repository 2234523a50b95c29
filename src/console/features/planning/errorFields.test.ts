import { describe, expect, it } from 'vitest';
import { SchedulingCodes } from '../../../contract/scheduling.ts';
import { SLOT_ERRORS, SlotsCodes } from '../../../contract/slots.ts';
import { errorSentence, errorsByField, scheduleErrorLine, slotErrorField } from './errorFields.ts';
import fr from './i18n/fr.ts';

const ranges = { period: 'ranges', target: 'workOrder' } as const;
const dateAndPlace = { period: 'date', target: 'place' } as const;

describe('slot search errors -> the planner inputs', () => {
  it('every business code goes to an input, never to the page alert', () => {
    for (const code of Object.keys(SLOT_ERRORS)) {
      expect(slotErrorField(code, ranges), code).not.toBeNull();
      expect(slotErrorField(code, dateAndPlace), code).not.toBeNull();
    }
  });

  it('the period codes go to the way the period is given', () => {
    for (const code of ['1002', '2003', '2004', '2005']) {
      expect(slotErrorField(code, ranges)).toBe('ranges');
      expect(slotErrorField(code, dateAndPlace)).toBe('date');
    }
    expect(slotErrorField('2014', ranges)).toBe('date');
  });

  it('the place codes go to the work order (it gives the place) or to the place inputs', () => {
    expect(slotErrorField('3011', ranges)).toBe('wo');
    expect(slotErrorField('3011', dateAndPlace)).toBe('place');
    expect(slotErrorField('3021', dateAndPlace)).toBe('coordinates');
    expect(slotErrorField('3022', dateAndPlace)).toBe('coordinates');
    expect(slotErrorField('3032', dateAndPlace)).toBe('place');
  });

  it('each other input by its code', () => {
    expect(slotErrorField('1001', dateAndPlace)).toBe('type');
    expect(slotErrorField('2001', dateAndPlace)).toBe('type');
    const expected: Record<string, string> = {
      // With a work order, its type is not an input of its own.
      '1001': 'wo',
      '2001': 'wo',
      '1003': 'zoneZip',
      '2002': 'offices',
      '2006': 'offices',
      '2007': 'areas',
      '2008': 'max',
      '2009': 'skills',
      '2010': 'wo',
      '2011': 'areaScope',
      '2012': 'portalUser',
      '2013': 'hours',
      [SlotsCodes.workOrderNotFound]: 'wo',
      [SlotsCodes.workOrderAmbiguous]: 'wo',
      [SlotsCodes.skillUnknown]: 'skills',
      [SlotsCodes.customerPortalUserUnknown]: 'portalUser',
    };
    for (const [code, field] of Object.entries(expected))
      expect(slotErrorField(code, ranges), code).toBe(field);
  });

  it('a body the service could not read is a page alert', () => {
    const { fields, page } = errorsByField(
      [
        { code: '2003', message: SLOT_ERRORS['2003'].message },
        { code: '1001', message: SLOT_ERRORS['1001'].message },
        { code: SlotsCodes.invalidJson, message: 'bad' },
        { code: SlotsCodes.fieldUnknown, message: 'bad' },
      ],
      ranges,
    );
    expect(Object.keys(fields).sort()).toEqual(['ranges', 'wo']);
    expect(page.map((e) => e.code)).toEqual([SlotsCodes.invalidJson, SlotsCodes.fieldUnknown]);
  });
});

describe('the sentence shown', () => {
  const en = (key: string, opts?: { defaultValue?: string }) => opts?.defaultValue ?? key;
  const frT = (key: string, opts?: { defaultValue?: string }) => {
    const m = /^planning:slotErrors\.(\d+)$/.exec(key);
    return m ? (fr.slotErrors as Record<string, string>)[m[1]] : (opts?.defaultValue ?? key);
  };

  it("a business code's sentence, with what the service added after it", () => {
    const e = { code: '2001', message: `${SLOT_ERRORS['2001'].message} (NOPE)` };
    expect(errorSentence(en, e)).toBe('This work order type does not exist. (NOPE)');
    expect(errorSentence(frT, e)).toBe(`${fr.slotErrors['2001']} (NOPE)`);
    expect(errorSentence(en, { code: '2003', message: SLOT_ERRORS['2003'].message })).toBe(
      SLOT_ERRORS['2003'].message,
    );
  });

  it("another code: the service's message", () => {
    expect(errorSentence(en, { code: SlotsCodes.skillUnknown, message: 'Unknown skill X.' })).toBe(
      'Unknown skill X.',
    );
  });

  it('every business code has its French sentence', () => {
    for (const code of Object.keys(SLOT_ERRORS))
      expect((fr.slotErrors as Record<string, string>)[code], code).toBeTruthy();
  });
});

describe('schedule refusals -> the line of the confirmation', () => {
  it('work order, technician or crew, start; the rest is an alert', () => {
    expect(scheduleErrorLine(SchedulingCodes.workOrderStatus)).toBe('workOrder');
    expect(scheduleErrorLine(SchedulingCodes.workOrderNotFound)).toBe('workOrder');
    for (const code of [
      SchedulingCodes.technicianAbsent,
      SchedulingCodes.technicianSkills,
      SchedulingCodes.technicianInactive,
      SchedulingCodes.technicianUnknown,
      SchedulingCodes.crewNotActive,
    ])
      expect(scheduleErrorLine(code), code).toBe('resource');
    expect(scheduleErrorLine(SchedulingCodes.startInvalid)).toBe('start');
    expect(scheduleErrorLine(SchedulingCodes.invalidJson)).toBeNull();
    expect(scheduleErrorLine('ratelimiter.toomanyrequest')).toBeNull();
  });
});
