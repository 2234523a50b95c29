/**
 * Rules of the item catalog. Items are catalog data of the tenant (migration 090), not
 * office-scoped: one catalog shared by every office (like the custom-field definitions),
 * read by every application; only applications and users of a root office write it.
 */
import {
  BusinessOrganizationCodes,
  ITEM_ERROR_PREFIX,
  ITEMS_PAGE_SIZE,
  type Item,
  type ItemPutInput,
  listItems as listItemsEndpoint,
} from '../../../contract/businessOrganization.ts';
import { type CustomFields, foldCode, type Page } from '../../../contract/common.ts';
import type { Db } from '../../db/index.ts';
import { checkCustomFields } from '../../platform/customFields.ts';
import { ApiError } from '../../platform/errors.ts';
import { assertRootOffice, type OfficeScope } from '../../platform/officeScope.ts';
import { type PageTokens, toPage } from '../../platform/pagination.ts';
// The service's one RFC 3339 formatter (gaps.md: `2026-03-01T08:00:00Z`).
import { rfc3339 } from '../../platform/time.ts';
import type { WriteOutcome } from '../../platform/upsert.ts';
import { type IfMatch, versionedWrite, type Written } from '../../platform/versions.ts';
import {
  distinctCategories,
  findItem,
  type ItemFilters,
  type ItemRow,
  itemsAfter,
  upsertItem,
} from './queries.ts';

/** Tokens are shared by the list and its deprecated path: same operation, same positions. */
const TOKEN_NAMESPACE = listItemsEndpoint.id;

/**
 * The item PUT: the writer must belong to a root office (the catalog is instance-wide).
 * With If-Match, only the version given is replaced (platform/versions.ts).
 */
export function putItem(
  db: Db,
  scope: OfficeScope,
  code: string,
  input: ItemPutInput,
  ifMatch?: IfMatch,
): Promise<Written> {
  assertRootOffice(scope, 'The item catalog');
  const key = foldCode(code);
  return versionedWrite(
    db,
    { table: 'items', key: 'code', value: key, prefix: ITEM_ERROR_PREFIX, label: `Item ${key}` },
    ifMatch,
    (trx) => writeItem(trx, key, input),
  );
}

/**
 * Creates or replaces the item `code` (already uppercased by the contract). Custom fields
 * are checked against the 'item' definitions before anything is written. The import
 * writes through here too.
 */
export async function writeItem(db: Db, code: string, input: ItemPutInput): Promise<WriteOutcome> {
  const customFields = await checkCustomFields(db, 'item', ITEM_ERROR_PREFIX, input.customFields);
  // Absent is stored as null, an empty string stays empty (General conventions 4-5).
  return upsertItem(db, {
    code: foldCode(code),
    name: input.name,
    category: input.category ?? null,
    description: input.description ?? null,
    unit: input.unit ?? null,
    unit_price: input.unitPrice ?? null,
    vat_rates: input.vatRates ?? null,
    reference: input.reference ?? null,
    bar_code: input.barCode ?? null,
    manufacturer: input.manufacturer ?? null,
    fixed_price: input.fixedPrice,
    serial_number_pattern: input.serialNumberPattern ?? null,
    active: input.active,
    custom_fields: customFields,
  });
}

/** The item and its version (the GET answers it as ETag). */
export async function getItem(db: Db, code: string): Promise<{ record: Item; version: string }> {
  const row = await findItem(db, foldCode(code));
  if (!row) throw new ApiError(404, BusinessOrganizationCodes.itemNotFound, `Item ${code} not found`);
  return { record: toItem(row), version: row.version };
}

export async function listItems(
  db: Db,
  tokens: PageTokens,
  query: ItemFilters & { continuationToken?: string },
): Promise<Page<Item>> {
  const after = tokens.decode<string>(
    TOKEN_NAMESPACE,
    query.continuationToken,
    BusinessOrganizationCodes.continuationTokenInvalid,
  );
  const rows = await itemsAfter(
    db,
    query,
    typeof after === 'string' ? after : undefined,
    ITEMS_PAGE_SIZE + 1,
  );
  return toPage(rows, ITEMS_PAGE_SIZE, toItem, (r) => r.code, tokens, TOKEN_NAMESPACE);
}

/** Extension for the console: every category in use, one page. */
export async function listItemCategories(db: Db): Promise<{ continuationToken: null; data: string[] }> {
  return { continuationToken: null, data: await distinctCategories(db) };
}

/** jsonb comes back parsed from both drivers; a string is parsed for safety. */
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

function toItem(row: ItemRow): Item {
  return {
    itemCode: row.code,
    name: row.name,
    category: row.category,
    description: row.description,
    unit: row.unit,
    // numeric(14,2) arrives as a string such as '12.50'
    unitPrice: row.unit_price === null ? null : Number(row.unit_price),
    vatRates: json<number[] | null>(row.vat_rates),
    reference: row.reference,
    barCode: row.bar_code,
    manufacturer: row.manufacturer,
    fixedPrice: row.fixed_price,
    serialNumberPattern: row.serial_number_pattern,
    active: row.active,
    customFields: json<CustomFields>(row.custom_fields) ?? {},
    lastUpdate: rfc3339(row.last_update),
  };
}
