import { describe, expect, it } from 'vitest';
import { customFieldCodeOf, itemFieldForError, skillFieldForError } from './errorFields.ts';

describe('service codes to fields', () => {
  it('maps item field codes (lowercased by the platform) to form paths', () => {
    expect(itemFieldForError({ code: 'businessorganization.item.serialnumberpattern.invalid' })).toBe(
      'serialNumberPattern',
    );
    expect(itemFieldForError({ code: 'businessorganization.item.name.mandatory' })).toBe('name');
    expect(itemFieldForError({ code: 'businessorganization.item.unitprice.invalid' })).toBe('unitPrice');
    expect(itemFieldForError({ code: 'businessorganization.item.vatrates.invalid' })).toBe('vatRates');
    expect(itemFieldForError({ code: 'businessorganization.item.itemcode.invalid' })).toBe('code');
    expect(itemFieldForError({ code: 'businessorganization.item.code.mandatory' })).toBe('code');
  });
  it('puts a custom-field error on the field its message names', () => {
    expect(
      itemFieldForError({
        code: 'businessorganization.item.custom.field.invalid',
        message: 'Custom field COLOR must hold exactly one valid dropDownValue (one of red, blue)',
      }),
    ).toBe('customFields.COLOR');
    expect(
      itemFieldForError({ code: 'businessorganization.item.custom.field.mandatory', message: 'x' }),
    ).toBe('customFields.root');
    expect(
      itemFieldForError({
        code: 'businessorganization.item.custom.field.unknown',
        message: 'Unknown custom field X',
      }),
    ).toBe('customFields.root');
    expect(customFieldCodeOf('Custom field warranty_months is mandatory')).toBe('WARRANTY_MONTHS');
  });
  it('leaves other codes to the alert', () => {
    expect(itemFieldForError({ code: 'businessorganization.item.field.unknown' })).toBeNull();
    expect(itemFieldForError({ code: 'businessorganization.item.invalid.json' })).toBeNull();
    expect(itemFieldForError({ code: 'staff.skill.name.mandatory' })).toBeNull();
  });
  it('maps skill codes', () => {
    expect(skillFieldForError({ code: 'staff.skill.name.mandatory' })).toBe('name');
    expect(skillFieldForError({ code: 'staff.skill.skillcode.invalid' })).toBe('code');
    expect(skillFieldForError({ code: 'staff.skill.field.unknown' })).toBeNull();
  });
});
