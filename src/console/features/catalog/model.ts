/**
 * Shapes of the Catalog pages (items, skills, characteristics): the contract's own schemas
 * (`src/contract/businessOrganization.ts`, `src/contract/staff.ts`), which the forms and the
 * CSV import validate with, plus the few helpers the pages share.
 */
import type { z } from 'zod';
import { type Item, ItemPutBody, UNIT_PRICE_MAX } from '../../../contract/businessOrganization.ts';
import { isValidPattern as isLinearPattern } from '../../../contract/patterns.ts';
import { CATALOG_CODE_MAX, type Characteristic, type Skill, SkillPutBody } from '../../../contract/staff.ts';
import { codeSchema } from '../../components/records/codeRule.ts';

export { CATALOG_CODE_MAX, type Characteristic, type Item, type Skill, UNIT_PRICE_MAX };

/** Body of the item PUT (the contract's schema; `itemCode` is in the path). */
export const ItemBody = ItemPutBody;
export type ItemBody = z.input<typeof ItemPutBody>;

export const SkillBody = SkillPutBody;
export type SkillBody = z.input<typeof SkillPutBody>;

/** True when the text is a pattern the server matches (linear time, the server's rule). */
export const isValidPattern = isLinearPattern;

/** VAT rates of one item (contract: `vatRates` max 5). */
export const MAX_VAT_RATES = 5;

/** Item code (path segment): the console's code rule, stored uppercase. */
export const ItemCode = codeSchema(CATALOG_CODE_MAX);

/** The item's fields in the order of the form, the CSV columns and the body. */
export const ITEM_BODY_FIELDS = [
  'name',
  'category',
  'description',
  'unit',
  'unitPrice',
  'vatRates',
  'reference',
  'barCode',
  'manufacturer',
  'fixedPrice',
  'serialNumberPattern',
  'active',
] as const satisfies readonly (keyof ItemBody)[];
export type ItemBodyField = (typeof ITEM_BODY_FIELDS)[number];

/** The PUT body that writes an item back as it is (Undo, CSV update of other columns). */
export function itemToBody(item: Item): ItemBody {
  const body: ItemBody = { name: item.name };
  for (const f of ITEM_BODY_FIELDS) {
    if (f === 'name') continue;
    const v = item[f];
    if (v !== undefined) (body as Record<string, unknown>)[f] = v;
  }
  body.customFields = item.customFields ?? {};
  return body;
}
