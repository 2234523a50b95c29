/**
 * Business organization: the item catalog (spec endpoints 10-12, Versioning 5). Items are
 * catalog data of the tenant, not office-scoped (see CATALOG_SCOPE). The fields
 * come from gaps.md ("Items of the original catalog carry..."); the item code comes from
 * the path only.
 */
import { z } from 'zod';
import { historyEndpoint } from './changes.ts';
import { Code, CustomFields, Page, PageQuery, QueryBoolean, requiredText } from './common.ts';
import { endpoint } from './endpoint.ts';
import { derivedCode } from './errors.ts';
import { isValidPattern } from './patterns.ts';
import { CATALOG_CODE_MAX, CATALOG_SCOPE } from './staff.ts';

/**
 * A price with at most 2 decimals (cents), 0..999 999 999 999.99. More decimals are refused
 * rather than rounded, so what is stored is exactly what was sent.
 */
export function hasAtMostTwoDecimals(n: number): boolean {
  return Math.round(n * 100) / 100 === n;
}
export const UNIT_PRICE_MAX = 999_999_999_999.99;

const optionalText = (max: number) => z.string().max(max).nullish();

/**
 * Body of the item PUT. Non-required fields: an empty string is kept, null is null, absent
 * is stored as null (spec: General conventions 4-5). The PUT replaces the whole item:
 * `fixedPrice` and `active` absent (or null) take their defaults, `customFields` absent is {}.
 */
export const ItemPutBody = z
  .strictObject({
    name: requiredText(10000),
    category: optionalText(200),
    description: optionalText(10000),
    /** Dimension, e.g. "piece", "hour". */
    unit: optionalText(50).meta({ description: 'Dimension, e.g. "piece", "hour"' }),
    unitPrice: z
      .number()
      .min(0)
      .max(UNIT_PRICE_MAX)
      .refine(hasAtMostTwoDecimals, 'at most 2 decimals')
      .nullish()
      .meta({ description: 'Price of one unit, >= 0, at most 2 decimals (more are refused, not rounded)' }),
    /** VAT rates in percent. */
    vatRates: z
      .array(z.number().min(0).max(100))
      .max(5)
      .nullish()
      .meta({ description: 'VAT rates in percent (0..100), at most 5' }),
    reference: optionalText(200),
    barCode: optionalText(200),
    manufacturer: optionalText(200),
    fixedPrice: z
      .boolean()
      .nullish()
      .transform((v) => v ?? false)
      .meta({ description: 'Default false (absent or null)' }),
    /** A regular expression the serial numbers of this item must match (contract/patterns.ts). */
    serialNumberPattern: z
      .string()
      .max(1000)
      .refine(isValidPattern, 'must be a regular expression without backreferences or lookarounds')
      .nullish()
      .meta({
        description:
          'Regular expression (JavaScript syntax, no flags) that serial numbers must contain a match of. Matched in linear time (RE2): backreferences and lookarounds are refused (400 <prefix>.serialnumberpattern.invalid)',
      }),
    active: z
      .boolean()
      .nullish()
      .transform((v) => v ?? true)
      .meta({ description: 'Default true (absent or null)' }),
    customFields: CustomFields.nullish(),
  })
  .meta({ id: 'ItemPutBody' });
export type ItemPutBody = z.input<typeof ItemPutBody>;
export type ItemPutInput = z.output<typeof ItemPutBody>;

/** The item as answered by the GET and in each element of the list. */
export const Item = z
  .object({
    itemCode: z.string(),
    name: z.string(),
    category: z.string().nullable(),
    description: z.string().nullable(),
    unit: z.string().nullable(),
    unitPrice: z.number().nullable(),
    vatRates: z.array(z.number()).nullable(),
    reference: z.string().nullable(),
    barCode: z.string().nullable(),
    manufacturer: z.string().nullable(),
    fixedPrice: z.boolean(),
    serialNumberPattern: z.string().nullable(),
    active: z.boolean(),
    customFields: CustomFields,
    /** RFC 3339, UTC, `Z` (gaps.md). */
    lastUpdate: z.string(),
  })
  .meta({ id: 'Item' });
export type Item = z.infer<typeof Item>;

export const ItemPage = Page(Item).meta({ id: 'ItemPage' });

/**
 * Query of the items list: `continuationToken` (spec) plus console extensions (`x-extension`):
 * `q` matches code, name, reference or bar code (case-insensitive substring), `category`
 * the exact category, `active` `true|false`. Filters narrow the same keyset walk by code.
 */
export const ItemListQuery = PageQuery.extend({
  q: z.string().max(200).optional().meta({
    'x-extension': true,
    description: 'Extension: case-insensitive substring of itemCode, name, reference or barCode',
  }),
  category: z
    .string()
    .max(200)
    .optional()
    .meta({ 'x-extension': true, description: 'Extension: exact category' }),
  active: QueryBoolean()
    .optional()
    .meta({ 'x-extension': true, description: 'Extension: only active (true) or inactive (false) items' }),
}).meta({ id: 'ItemListQuery' });
export type ItemListQuery = z.input<typeof ItemListQuery>;

export const ItemCategoryList = z
  .object({ continuationToken: z.null(), data: z.array(z.string()) })
  .meta({ id: 'ItemCategoryList' });

export const ITEMS_PAGE_SIZE = 200;

/** Prefix of every item code (lowercase, like the spec's other families). */
export const ITEM_ERROR_PREFIX = 'businessorganization.item';
const item = ITEM_ERROR_PREFIX;

/** Every code the item endpoints answer with (besides the common ones). */
export const BusinessOrganizationCodes = {
  itemCodeMandatory: `${item}.code.mandatory`,
  itemCodeInvalid: derivedCode.invalid(item, 'itemCode'),
  itemNotFound: `${item}.not.found`,
  itemInvalidJson: derivedCode.invalidJson(item),
  itemFieldUnknown: derivedCode.fieldUnknown(item),
  itemNameMandatory: derivedCode.mandatory(item, 'name'),
  itemNameInvalid: derivedCode.invalid(item, 'name'),
  itemCategoryInvalid: derivedCode.invalid(item, 'category'),
  itemDescriptionInvalid: derivedCode.invalid(item, 'description'),
  itemUnitInvalid: derivedCode.invalid(item, 'unit'),
  itemUnitPriceInvalid: derivedCode.invalid(item, 'unitPrice'),
  itemVatRatesInvalid: derivedCode.invalid(item, 'vatRates'),
  itemReferenceInvalid: derivedCode.invalid(item, 'reference'),
  itemBarCodeInvalid: derivedCode.invalid(item, 'barCode'),
  itemManufacturerInvalid: derivedCode.invalid(item, 'manufacturer'),
  itemFixedPriceInvalid: derivedCode.invalid(item, 'fixedPrice'),
  itemSerialNumberPatternInvalid: derivedCode.invalid(item, 'serialNumberPattern'),
  itemActiveInvalid: derivedCode.invalid(item, 'active'),
  itemCustomFieldUnknown: derivedCode.customFieldUnknown(item),
  itemCustomFieldMandatory: derivedCode.customFieldMandatory(item),
  itemCustomFieldInvalid: derivedCode.customFieldInvalid(item),
  itemQInvalid: derivedCode.invalid(item, 'q'),
  continuationTokenInvalid: derivedCode.continuationTokenInvalid('businessOrganization'),
} as const;
const C = BusinessOrganizationCodes;

export const ITEMS_PATH = '/eTech/rest/ws/businessOrganization/v1/items';

export const putItem = endpoint({
  id: 'businessOrganization.items.put',
  versioned: true,
  method: 'PUT',
  path: `${ITEMS_PATH}/code:{itemCode}`,
  domain: 'businessOrganization',
  range: 'standard',
  summary: `Create the item if the code does not exist, otherwise update it (the whole item). ${CATALOG_SCOPE}`,
  errorPrefix: item,
  params: z.object({ itemCode: Code(CATALOG_CODE_MAX) }),
  body: ItemPutBody,
  responses: { 201: undefined, 204: undefined },
  errors: {
    400: [
      C.itemCodeMandatory,
      C.itemCodeInvalid,
      C.itemInvalidJson,
      C.itemFieldUnknown,
      C.itemNameMandatory,
      C.itemNameInvalid,
      C.itemCategoryInvalid,
      C.itemDescriptionInvalid,
      C.itemUnitInvalid,
      C.itemUnitPriceInvalid,
      C.itemVatRatesInvalid,
      C.itemReferenceInvalid,
      C.itemBarCodeInvalid,
      C.itemManufacturerInvalid,
      C.itemFixedPriceInvalid,
      C.itemSerialNumberPatternInvalid,
      C.itemActiveInvalid,
      C.itemCustomFieldUnknown,
      C.itemCustomFieldMandatory,
      C.itemCustomFieldInvalid,
    ],
  },
});

export const getItem = endpoint({
  id: 'businessOrganization.items.get',
  versioned: true,
  method: 'GET',
  path: `${ITEMS_PATH}/code:{itemCode}`,
  domain: 'businessOrganization',
  range: 'high',
  summary: 'The item, with its customFields',
  errorPrefix: item,
  params: z.object({ itemCode: Code(CATALOG_CODE_MAX) }),
  responses: { 200: Item },
  errors: { 400: [C.itemCodeMandatory, C.itemCodeInvalid], 404: [C.itemNotFound] },
});

const listItemsRow = {
  method: 'GET',
  domain: 'businessOrganization',
  range: 'low',
  errorPrefix: item,
  query: ItemListQuery,
  responses: { 200: ItemPage },
  errors: { 400: [C.continuationTokenInvalid, C.itemQInvalid, C.itemCategoryInvalid, C.itemActiveInvalid] },
} as const;

export const listItems = endpoint({
  ...listItemsRow,
  id: 'businessOrganization.items.list',
  path: ITEMS_PATH,
  summary: `Items, ${ITEMS_PAGE_SIZE} per page, sorted by itemCode, with customFields. Extensions (x-extension): q, category, active. ${CATALOG_SCOPE}`,
});

/** The item list's former path (spec: Versioning 5): same operation, same tokens. */
export const listItemsDeprecated = endpoint({
  ...listItemsRow,
  id: 'referentials.items.list',
  path: '/eTech/rest/ws/referentials/v1/items',
  summary: `Former path of the items list; use ${ITEMS_PATH}`,
  deprecated: { successor: ITEMS_PATH },
});

export const listItemCategories = endpoint({
  id: 'businessOrganization.itemCategories.list',
  method: 'GET',
  path: '/eTech/rest/ws/businessOrganization/v1/itemCategories',
  domain: 'businessOrganization',
  range: 'standard',
  summary: 'Distinct non-empty item categories, sorted (one page)',
  errorPrefix: item,
  responses: { 200: ItemCategoryList },
  extension: true,
});

/** The businessOrganization endpoints by name, in the order of the OpenAPI document (contract/domains.ts). */
export const getItemHistory = historyEndpoint({
  id: 'businessOrganization.items.history',
  domain: 'businessOrganization',
  recordPath: `${ITEMS_PATH}/code:{itemCode}`,
  errorPrefix: item,
  params: z.object({ itemCode: Code(CATALOG_CODE_MAX) }),
  notFound: [C.itemNotFound],
  continuationTokenInvalid: C.continuationTokenInvalid,
  label: 'an item (extension)',
});

export const businessOrganizationEndpoints = {
  putItem,
  getItem,
  getItemHistory,
  listItems,
  listItemsDeprecated,
  listItemCategories,
};
