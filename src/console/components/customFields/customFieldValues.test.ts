import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CustomFieldDefinition } from '../../../contract/common.ts';
import { withCustomFieldRules } from './customFieldsSchema.ts';
import {
  dateTimeFromPicker,
  dateTimeToPicker,
  formatCustomValue,
  gpsErrors,
  initialCustomFields,
  normalizeDateTime,
  parseLatLng,
  setCustomField,
  unknownCodes,
  validateCustomField,
  validateCustomFields,
} from './customFieldValues.ts';

const def = (code: string, type: CustomFieldDefinition['type'], extra: Partial<CustomFieldDefinition> = {}) =>
  ({
    entity: 'customer',
    code,
    label: null,
    type,
    mandatory: false,
    values: null,
    ...extra,
  }) as CustomFieldDefinition;

describe('validateCustomField', () => {
  it('reports a missing mandatory value and accepts a missing optional one', () => {
    expect(validateCustomField(def('A', 'textValue', { mandatory: true }), undefined)).toBe('mandatory');
    expect(validateCustomField(def('A', 'textValue', { mandatory: true }), { textValue: '  ' })).toBe(
      'mandatory',
    );
    expect(validateCustomField(def('A', 'textValue'), undefined)).toBeNull();
  });
  it('checks each type', () => {
    expect(validateCustomField(def('D', 'dateValue'), { dateValue: '2026-02-30' })).toBe('date');
    expect(validateCustomField(def('D', 'dateValue'), { dateValue: '2026-02-28' })).toBeNull();
    expect(validateCustomField(def('T', 'dateTimeValue'), { dateTimeValue: '2026-02-28T24:00' })).toBe(
      'dateTime',
    );
    expect(validateCustomField(def('T', 'dateTimeValue'), { dateTimeValue: '2026-02-28T08:30' })).toBeNull();
    expect(
      validateCustomField(def('T', 'dateTimeValue'), { dateTimeValue: '2026-02-28T08:30:00Z' }),
    ).toBeNull();
    expect(validateCustomField(def('M', 'timeValue'), { timeValue: 1.5 })).toBe('integer');
    expect(validateCustomField(def('M', 'timeValue'), { timeValue: 90 })).toBeNull();
    expect(
      validateCustomField(def('L', 'dropDownValue', { values: ['A', 'B'] }), { dropDownValue: 'C' }),
    ).toBe('dropDown');
    expect(
      validateCustomField(def('L', 'dropDownValue', { values: ['A', 'B'] }), { dropDownValue: 'B' }),
    ).toBeNull();
    expect(validateCustomField(def('U', 'urlValue'), { urlValue: 'example.com' })).toBe('url');
    expect(validateCustomField(def('U', 'urlValue'), { urlValue: 'ftp://example.com' })).toBe('url');
    expect(validateCustomField(def('U', 'urlValue'), { urlValue: 'https://example.com/x' })).toBeNull();
    expect(
      validateCustomField(def('B', 'booleanValue', { mandatory: true }), { booleanValue: false }),
    ).toBeNull();
  });
  it('checks the GPS pair: both or none, and the ranges', () => {
    const g = def('G', 'gpsValue');
    expect(validateCustomField(g, { gpsValue: { latitude: 10 } as never })).toBe('gpsBoth');
    expect(validateCustomField(g, { gpsValue: { latitude: 91, longitude: 0 } })).toBe('latitude');
    expect(validateCustomField(g, { gpsValue: { latitude: -90, longitude: -181 } })).toBe('longitude');
    expect(validateCustomField(g, { gpsValue: { latitude: -90, longitude: 180 } })).toBeNull();
  });
  it('flags a value whose type differs from the definition', () => {
    expect(validateCustomField(def('A', 'textValue'), { booleanValue: true })).toBe('typeMismatch');
  });
});

describe('customFields object', () => {
  const defs = [def('A', 'textValue', { mandatory: true }), def('B', 'booleanValue', { mandatory: true })];
  it('never reports nor drops unknown codes', () => {
    const fields = { A: { textValue: 'x' }, B: { booleanValue: true }, LEGACY: { textValue: 'kept' } };
    expect(validateCustomFields(defs, fields)).toEqual({});
    expect(unknownCodes(defs, fields)).toEqual(['LEGACY']);
    expect(setCustomField(fields, 'A', undefined)).toEqual({
      B: { booleanValue: true },
      LEGACY: { textValue: 'kept' },
    });
  });
  it('starts mandatory booleans at false', () => {
    expect(initialCustomFields(defs, { X: { textValue: 'y' } })).toEqual({
      X: { textValue: 'y' },
      B: { booleanValue: false },
    });
  });
  it('adds issues at customFields.<code> to a form schema', () => {
    const schema = withCustomFieldRules(
      z.object({ customFields: z.record(z.string(), z.any()).optional() }),
      defs,
    );
    const r = schema.safeParse({ customFields: { B: { booleanValue: true } } });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['customFields.A', 'customFields:errors.mandatory'],
    ]);
  });
});

describe('parsers', () => {
  it('reads a pasted "lat, lng"', () => {
    expect(parseLatLng('48.8566, 2.3522')).toEqual({ latitude: 48.8566, longitude: 2.3522 });
    expect(parseLatLng(' -33.9 151.2 ')).toEqual({ latitude: -33.9, longitude: 151.2 });
    expect(parseLatLng('48,8566; 2,3522')).toEqual({ latitude: 48.8566, longitude: 2.3522 });
    expect(parseLatLng('Paris')).toBeNull();
    expect(parseLatLng('1, 2, 3')).toBeNull();
  });
  it('converts date-times between the API and the picker', () => {
    expect(normalizeDateTime('2026-03-01T08:00:00Z')).toBe('2026-03-01T08:00');
    expect(dateTimeToPicker('2026-03-01T08:00')).toBe('2026-03-01 08:00:00');
    expect(dateTimeFromPicker('2026-03-01 08:05:00')).toBe('2026-03-01T08:05');
    expect(formatCustomValue({ gpsValue: { latitude: 1, longitude: 2 } })).toBe('1, 2');
    expect(formatCustomValue({ booleanValue: false }, 'Oui', 'Non')).toBe('Non');
  });
});

describe('gpsErrors (GPS inputs checked as typed)', () => {
  it('says a coordinate out of range at once, the half pair only once the pair is left', () => {
    expect(gpsErrors(95, undefined, false)).toEqual({ latitude: 'errors.latitude' });
    expect(gpsErrors(45, -181, false)).toEqual({ longitude: 'errors.longitude' });
    expect(gpsErrors(45, undefined, false)).toEqual({});
    expect(gpsErrors(45, undefined, true)).toEqual({ pair: 'errors.gpsBoth' });
    expect(gpsErrors(undefined, undefined, true)).toEqual({});
    expect(gpsErrors(-90, 180, true)).toEqual({});
    expect(gpsErrors(Number.NaN, 3, false)).toEqual({ latitude: 'errors.latitude' });
  });
});
