import { describe, expect, it } from 'vitest';
import type { CustomFieldDefinition } from '../../../contract/common.ts';
import { type ItemForm, itemFormSchema, itemToForm, splitVatInput, testSerial } from './itemForm.ts';
import { type Item, itemToBody } from './model.ts';

const item: Item = {
  itemCode: 'PUMP-1',
  name: 'Pump',
  category: 'Pumps',
  description: null,
  unit: 'piece',
  unitPrice: 189.9,
  vatRates: [20, 5.5],
  reference: 'R1',
  barCode: '3760000000001',
  manufacturer: 'Acme',
  fixedPrice: false,
  serialNumberPattern: '^P\\d{6}$',
  active: true,
  customFields: { TIER: { dropDownValue: 'Gold' } },
  lastUpdate: '2026-11-23T08:00:00Z',
};
const tier: CustomFieldDefinition = {
  entity: 'item',
  code: 'TIER',
  label: 'Tier',
  type: 'dropDownValue',
  mandatory: true,
  values: ['Bronze', 'Silver', 'Gold'],
};

const parse = (form: ItemForm, defs: CustomFieldDefinition[] = [tier]) =>
  itemFormSchema(defs).safeParse(form);

describe('item form', () => {
  it('round-trips an item through the form to the same PUT body', () => {
    const r = parse(itemToForm(item, [tier]));
    expect(r.success).toBe(true);
    const { code, ...body } = r.data as { code: string } & Record<string, unknown>;
    expect(code).toBe('PUMP-1');
    expect(body).toEqual(itemToBody(item));
  });

  it('copies everything but the code and the bar code for "duplicate as new"', () => {
    const f = itemToForm(item, [tier], { copy: true });
    expect(f.code).toBe('');
    expect(f.barCode).toBe('');
    expect(f.name).toBe('Pump');
    expect(f.customFields).toEqual({ TIER: { dropDownValue: 'Gold' } });
  });

  it('sends empty optional text as null and uppercases the code', () => {
    const f = {
      ...itemToForm(null),
      code: ' new-1 ',
      name: 'New',
      unitPrice: '',
      customFields: { TIER: { dropDownValue: 'Gold' } },
    };
    const r = parse(f);
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({
      code: 'NEW-1',
      category: null,
      unit: null,
      unitPrice: null,
      vatRates: null,
    });
  });

  it('refuses what the contract refuses, on the field', () => {
    const f: ItemForm = {
      ...itemToForm(item, [tier]),
      unitPrice: 1.234,
      vatRates: ['20', 'abc', '120'],
      serialNumberPattern: '([',
      customFields: { TIER: { dropDownValue: 'Platinum' } },
    };
    const r = parse(f);
    expect(r.success).toBe(false);
    const paths = (r.error?.issues ?? []).map((i) => i.path.join('.')).sort();
    // The definitions' rules run along with the body's (all errors show at the first save).
    expect(paths).toEqual([
      'customFields.TIER',
      'serialNumberPattern',
      'unitPrice',
      'vatRates.1',
      'vatRates.2',
    ]);
    expect(
      parse({ ...itemToForm(item, [tier]), name: ' ' }).error?.issues.map((i) => i.path.join('.')),
    ).toEqual(['name']);
    const cf = parse({ ...itemToForm(item, [tier]), customFields: { TIER: { dropDownValue: 'Platinum' } } });
    expect(cf.error?.issues.map((i) => i.path.join('.'))).toEqual(['customFields.TIER']);
    const missing = parse({ ...itemToForm(item, [tier]), customFields: {} });
    expect(missing.error?.issues.map((i) => i.message)).toEqual(['customFields:errors.mandatory']);
  });

  it('splits pasted VAT rates and tries serial numbers', () => {
    expect(splitVatInput('20; 5,5 10')).toEqual(['20', '5,5', '10']);
    expect(testSerial('^P\\d{6}$', 'P123456')).toBe(true);
    expect(testSerial('^P\\d{6}$', 'X1')).toBe(false);
    expect(testSerial('([', 'x')).toBeNull();
  });
});
