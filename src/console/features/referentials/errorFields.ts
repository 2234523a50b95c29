/**
 * The one table that turns service error codes into form fields (spec: Errors,
 * Referentials, plus the derived `<prefix>.<field>.mandatory|invalid` codes the platform
 * answers for any constraint). A code found here marks its input; anything else is shown
 * in an Alert with the errorReference.
 */
import type { TFunction } from 'i18next';

export type ReferentialEntity = 'customer' | 'site' | 'asset';

/** Suffix after `referentials.<entity>.` -> form field path. */
const COMMON: Record<string, string> = {
  'code.mandatory': 'code',
  'code.invalid': 'code',
  'name.mandatory': 'name',
  'name.invalid': 'name',
  'description.invalid': 'description',
  'office.unknown': 'officeCode',
  'officecode.invalid': 'officeCode',
  'officecode.mandatory': 'officeCode',
  'custom.field.mandatory': 'customFields',
  'custom.field.invalid': 'customFields',
  'custom.field.unknown': 'customFields',
  'contact.invalid': 'contact',
  'details.invalid': 'contact.details',
  'value.mandatory': 'contact.details',
  'value.invalid': 'contact.details',
  'type.invalid': 'contact.details',
};

const TABLE: Record<ReferentialEntity, Record<string, string>> = {
  customer: {
    ...COMMON,
    'addressdetails.mandatory': 'addressDetails.city',
    'addressdetails.invalid': 'addressDetails.city',
    'city.mandatory': 'addressDetails.city',
    'city.invalid': 'addressDetails.city',
    'address.invalid': 'addressDetails.address',
    'zipcode.invalid': 'addressDetails.zipCode',
    'country.invalid': 'addressDetails.country',
    'parent.unknown': 'parentCustomerCode',
    'parent.identical': 'parentCustomerCode',
    'office.hierarchy.error': 'parentCustomerCode',
    'hierarchy.depth': 'parentCustomerCode',
    'parentcustomercode.invalid': 'parentCustomerCode',
  },
  site: {
    ...COMMON,
    'customer.unknown': 'customerCode',
    'customer.not.found': 'customerCode',
    'customercode.mandatory': 'customerCode',
    'customercode.invalid': 'customerCode',
    'location.mandatory': 'location.addressDetails.city',
    'addressdetails.mandatory': 'location.addressDetails.city',
    'address.mandatory': 'location.addressDetails.address',
    'address.invalid': 'location.addressDetails.address',
    'city.mandatory': 'location.addressDetails.city',
    'city.invalid': 'location.addressDetails.city',
    'zipcode.invalid': 'location.addressDetails.zipCode',
    'country.invalid': 'location.addressDetails.country',
    'geolocation.invalid': 'location.geolocation',
    'geolocation.incomplete': 'location.geolocation',
    'latitude.mandatory': 'location.geolocation.latitude',
    'latitude.invalid': 'location.geolocation.latitude',
    'longitude.mandatory': 'location.geolocation.longitude',
    'longitude.invalid': 'location.geolocation.longitude',
    'parent.unknown': 'parentSiteCode',
    'parent.identical': 'parentSiteCode',
    'parent.customer.mismatch': 'parentSiteCode',
    'hierarchy.error': 'parentSiteCode',
    'office.hierarchy.error': 'parentSiteCode',
    'hierarchy.depth': 'parentSiteCode',
    'parentsitecode.invalid': 'parentSiteCode',
  },
  asset: {
    ...COMMON,
    'site.unknown': 'siteCode',
    'site.not.found': 'siteCode',
    'sitecode.invalid': 'siteCode',
    'sitecode.mandatory': 'siteCode',
    'parent.unknown': 'parentAssetCode',
    'parent.identical': 'parentAssetCode',
    'hierarchy.error': 'parentAssetCode',
    'office.hierarchy.error': 'parentAssetCode',
    'hierarchy.depth': 'parentAssetCode',
    'parentassetcode.invalid': 'parentAssetCode',
    'customer.unknown': 'customerCode',
    'customer.not.found': 'customerCode',
    'customercode.invalid': 'customerCode',
    'customer.mismatch': 'customerCode',
    'serialnumber.invalid': 'serialNumber',
    'serialnumber.mandatory': 'serialNumber',
    'transfer.has.children': 'siteCode',
    'transfer.subassets': 'siteCode',
    'has.subassets': 'siteCode',
  },
};

/** `referentials.customer.parent.identical` -> `parent.identical` (null for another entity). */
export function codeSuffix(entity: ReferentialEntity, code: string): string | null {
  const prefix = `referentials.${entity}.`;
  return code.startsWith(prefix) ? code.slice(prefix.length) : null;
}

/**
 * The platform's messages start with the failing path (`contact.details.3.value: ...`);
 * when that path names a field of the form, it is more precise than the code alone.
 */
function pathFromMessage(message: string, known: ReadonlySet<string>): string | null {
  const m = /^([A-Za-z][\w]*(?:\.[\w]+)*):\s/.exec(message);
  if (!m) return null;
  const path = m[1];
  const generic = path.replace(/\.\d+(?=\.|$)/g, '.#');
  return known.has(generic) || known.has(path) ? path : null;
}

/** Field paths of each form, `#` standing for an array index. */
const KNOWN_PATHS: Record<ReferentialEntity, ReadonlySet<string>> = {
  customer: new Set([
    'name',
    'parentCustomerCode',
    'officeCode',
    'description',
    'contact.name',
    'contact.details',
    'contact.details.#.type',
    'contact.details.#.value',
    'contact.details.#.description',
    'addressDetails.address',
    'addressDetails.zipCode',
    'addressDetails.city',
    'addressDetails.country',
  ]),
  site: new Set([
    'name',
    'customerCode',
    'parentSiteCode',
    'officeCode',
    'description',
    'contact.name',
    'contact.details',
    'contact.details.#.type',
    'contact.details.#.value',
    'contact.details.#.description',
    'location.geolocation',
    'location.geolocation.latitude',
    'location.geolocation.longitude',
    'location.addressDetails.address',
    'location.addressDetails.zipCode',
    'location.addressDetails.city',
    'location.addressDetails.country',
  ]),
  asset: new Set([
    'name',
    'serialNumber',
    'description',
    'parentAssetCode',
    'siteCode',
    'customerCode',
    'officeCode',
  ]),
};

/** The form field a service error belongs to, or null when it is not tied to one field. */
export function fieldForError(
  entity: ReferentialEntity,
  error: { code: string; message?: string },
): string | null {
  const suffix = codeSuffix(entity, error.code);
  if (suffix === null) return null;
  if (error.message && /\.(mandatory|invalid)$/.test(suffix)) {
    const fromMessage = pathFromMessage(error.message, KNOWN_PATHS[entity]);
    if (fromMessage) return fromMessage;
  }
  return TABLE[entity][suffix] ?? null;
}

/** i18n key (in the `referentials` namespace) of the explanation shown for a code, if any. */
export function errorMessageKey(entity: ReferentialEntity, code: string): string {
  const suffix = codeSuffix(entity, code);
  return `serverErrors.${entity}.${(suffix ?? code).replace(/\./g, '_')}`;
}

/**
 * Custom-field codes a service message names (`Custom field COLOR is mandatory`,
 * `Unknown custom field X`; several joined by `; `), so the editor marks each input.
 */
export function customFieldCodesInMessage(message: string | undefined): string[] {
  if (!message) return [];
  const out = new Set<string>();
  for (const m of message.matchAll(/custom field ([A-Za-z0-9_.-]+)/gi)) out.add(m[1].toUpperCase());
  return [...out];
}

/**
 * The form paths a service error marks (for `applyServiceErrors`): its field, or for a
 * custom-field error each custom field the message names plus the editor's root.
 */
export function fieldsForError(
  entity: ReferentialEntity,
  error: { code: string; message?: string },
): string | string[] | null {
  const field = fieldForError(entity, error);
  if (field !== 'customFields') return field;
  return [...customFieldCodesInMessage(error.message).map((c) => `customFields.${c}`), 'customFields.root'];
}

/** The translated explanation of a service error, the service's own message by default. */
export function serviceErrorText(
  t: TFunction,
  entity: ReferentialEntity,
  err: { code: string; message: string },
): string {
  return t(errorMessageKey(entity, err.code), { ns: 'referentials', defaultValue: err.message });
}
