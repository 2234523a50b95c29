import { describe, expect, it } from 'vitest';
import { diffRows, fieldLabel } from './diff.ts';

describe('history diff', () => {
  it('keeps a plain field as it is', () => {
    expect(diffRows([{ name: 'name', before: 'Acme', after: 'Acme Ltd' }])).toEqual([
      { name: 'name', before: 'Acme', after: 'Acme Ltd' },
    ]);
  });

  it('opens objects and coded lists down to the values that differ', () => {
    const rows = diffRows([
      { name: 'address', before: { city: 'Lyon', zip: '69001' }, after: { city: 'Paris', zip: '69001' } },
      {
        name: 'customFields',
        before: [
          { code: 'COLOR', value: 'red' },
          { code: 'SIZE', value: 2 },
        ],
        after: [
          { code: 'COLOR', value: 'blue' },
          { code: 'SIZE', value: 2 },
          { code: 'NEW', value: true },
        ],
      },
    ]);
    expect(rows).toEqual([
      { name: 'address.city', before: 'Lyon', after: 'Paris' },
      { name: 'customFields.COLOR', before: 'red', after: 'blue' },
      { name: 'customFields.NEW', before: null, after: true },
    ]);
  });

  it('takes the one value of a coded entry whatever its name, and leaves out fields empty on both sides', () => {
    expect(
      diffRows([
        { name: 'customFields', before: [], after: [{ code: 'NOTE', textValue: 'Call first' }] },
        { name: 'address', before: null, after: null },
        { name: 'city', before: null, after: 'Lille' },
        { name: 'customFields.TIER', before: { dropDownValue: 'GOLD' }, after: { dropDownValue: 'SILVER' } },
      ]),
    ).toEqual([
      { name: 'customFields.NOTE', before: null, after: 'Call first' },
      { name: 'city', before: null, after: 'Lille' },
      { name: 'customFields.TIER', before: 'GOLD', after: 'SILVER' },
    ]);
  });

  it('shows a created object field by field, and a list of values whole', () => {
    expect(diffRows([{ name: 'schedule', before: null, after: { technician: 'T1', start: 'x' } }])).toEqual([
      { name: 'schedule.technician', before: null, after: 'T1' },
      { name: 'schedule.start', before: null, after: 'x' },
    ]);
    expect(diffRows([{ name: 'flags', before: ['A'], after: ['A', 'B'] }])).toEqual([
      { name: 'flags', before: ['A'], after: ['A', 'B'] },
    ]);
  });

  it('names custom fields and work order parts', () => {
    expect(fieldLabel('customFields.COLOR')).toEqual({
      key: 'field.customFields',
      values: { code: 'COLOR' },
    });
    expect(fieldLabel('usedItems.SCREW')).toEqual({ key: 'field.usedItems', values: { code: 'SCREW' } });
    expect(fieldLabel('address.city')).toEqual({ key: 'field.plain', values: { name: 'address.city' } });
  });
});
