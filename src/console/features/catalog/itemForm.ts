/**
 * The item form: what its inputs hold, the record -> form and form -> body conversions,
 * and its schema (the contract's body schema after a clean-up of input values, plus the
 * custom-field rules of the instance's definitions). Pure, unit-tested in Node.
 */
import { z } from 'zod';
import type { CustomFieldDefinition, CustomFields } from '../../../contract/common.ts';
import { customFieldErrorMessage } from '../../components/customFields/customFieldsSchema.ts';
import {
  initialCustomFields,
  validateCustomFields,
} from '../../components/customFields/customFieldValues.ts';
import { parseNumberCell } from './csv.ts';
import { type Item, ItemBody, ItemCode } from './model.ts';

export interface ItemForm {
  code: string;
  name: string;
  category: string;
  description: string;
  unit: string;
  unitPrice: number | string;
  /** The tags of the VAT rates input, as typed. */
  vatRates: string[];
  reference: string;
  barCode: string;
  manufacturer: string;
  fixedPrice: boolean;
  serialNumberPattern: string;
  active: boolean;
  customFields: CustomFields;
}

const s = (v: string | null | undefined) => v ?? '';

/** Form values of an item; of a new item when `item` is null; of a copy with `copy`. */
export function itemToForm(
  item: Item | null,
  defs: readonly CustomFieldDefinition[] = [],
  opts: { copy?: boolean } = {},
): ItemForm {
  const creating = !item || opts.copy;
  return {
    code: opts.copy ? '' : s(item?.itemCode),
    name: s(item?.name),
    category: s(item?.category),
    description: s(item?.description),
    unit: s(item?.unit),
    unitPrice: item?.unitPrice ?? '',
    vatRates: (item?.vatRates ?? []).map(String),
    reference: s(item?.reference),
    // A bar code identifies one product: a copy starts without it.
    barCode: opts.copy ? '' : s(item?.barCode),
    manufacturer: s(item?.manufacturer),
    fixedPrice: item?.fixedPrice ?? false,
    serialNumberPattern: s(item?.serialNumberPattern),
    active: item?.active ?? true,
    customFields: creating ? initialCustomFields(defs, item?.customFields) : (item?.customFields ?? {}),
  };
}

const orNull = (v: string) => (v.trim() === '' ? null : v);

/** Input values -> body input (before the schema): empty optional text is null. */
export function cleanItemForm(v: ItemForm) {
  const price =
    typeof v.unitPrice === 'number'
      ? v.unitPrice
      : v.unitPrice === ''
        ? null
        : parseNumberCell(String(v.unitPrice));
  return {
    code: v.code,
    name: v.name.trim(),
    category: orNull(v.category.trim()),
    description: orNull(v.description),
    unit: orNull(v.unit.trim()),
    unitPrice: price === 'invalid' ? Number.NaN : price,
    vatRates:
      v.vatRates.length === 0
        ? null
        : v.vatRates.map((r) => {
            const n = parseNumberCell(r.replace(/%$/, ''));
            return n === 'invalid' || n === null ? Number.NaN : n;
          }),
    reference: orNull(v.reference.trim()),
    barCode: orNull(v.barCode.trim()),
    manufacturer: orNull(v.manufacturer.trim()),
    fixedPrice: v.fixedPrice,
    serialNumberPattern: v.serialNumberPattern === '' ? null : v.serialNumberPattern,
    active: v.active,
    customFields: v.customFields ?? {},
  };
}

/**
 * The contract's body plus the code, then the custom-field rules of the definitions. These
 * run even when another field is refused (`when`), so every error shows at the first save.
 */
export function itemFormSchema(defs: readonly CustomFieldDefinition[]) {
  const inner = ItemBody.extend({ code: ItemCode }).superRefine(
    (value, ctx) => {
      const fields = (value as { customFields?: CustomFields | null }).customFields;
      for (const [code, key] of Object.entries(validateCustomFields(defs, fields))) {
        ctx.addIssue({ code: 'custom', path: ['customFields', code], message: customFieldErrorMessage(key) });
      }
    },
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  );
  return z.preprocess((v) => cleanItemForm(v as ItemForm), inner);
}

/** Splits what the VAT input receives ("20; 5,5 10") into separate tags. */
export function splitVatInput(text: string): string[] {
  return text
    .split(/[;\s]+|,(?=\s)/)
    .map((x) => x.trim())
    .filter(Boolean);
}

/** Whether a sample serial number matches the pattern (null when the pattern is invalid). */
export function testSerial(pattern: string, sample: string): boolean | null {
  try {
    return new RegExp(pattern).test(sample);
  } catch {
    return null;
  }
}
