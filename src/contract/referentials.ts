/**
 * Referentials (spec: endpoints 13-18, Resources: Customer, Contact, Address, Site, Asset)
 * and the console's list extensions. Conventions 4-5: a non-required field may be absent,
 * null or a string; '' and null are stored and returned as sent, absent is returned null.
 */
import { z } from 'zod';
import { historyEndpoint } from './changes.ts';
import {
  CODE_CHARACTERS,
  CODE_PATTERN,
  Code,
  CustomFieldDefinition,
  CustomFieldEntity,
  CustomFields,
  foldCode,
  Page,
  requiredText,
} from './common.ts';
import { endpoint } from './endpoint.ts';
import { derivedCode } from './errors.ts';

const BASE = '/eTech/rest/ws/referentials/v1';

/* ---------------- error codes ---------------- */

export const CUSTOMER = 'referentials.customer';
export const SITE = 'referentials.site';
export const ASSET = 'referentials.asset';
/** Prefix of the extensions not tied to one entity (offices, custom-field definitions). */
export const REFERENTIALS = 'referentials';

/** Codes of the business rules (validation codes are derived, see errors.ts). */
export const ReferentialsCodes = {
  customer: {
    notFound: 'referentials.customer.not.found',
    officeUnknown: 'referentials.customer.office.unknown',
    parentUnknown: 'referentials.customer.parent.unknown',
    parentIdentical: 'referentials.customer.parent.identical',
    hierarchyError: 'referentials.customer.office.hierarchy.error',
  },
  site: {
    notFound: 'referentials.site.not.found',
    officeUnknown: 'referentials.site.office.unknown',
    customerUnknown: 'referentials.site.customer.unknown',
    parentUnknown: 'referentials.site.parent.unknown',
    parentIdentical: 'referentials.site.parent.identical',
    hierarchyError: 'referentials.site.office.hierarchy.error',
  },
  asset: {
    notFound: 'referentials.asset.not.found',
    officeUnknown: 'referentials.asset.office.unknown',
    siteUnknown: 'referentials.asset.site.unknown',
    customerUnknown: 'referentials.asset.customer.unknown',
    customerMismatch: 'referentials.asset.customer.mismatch',
    parentUnknown: 'referentials.asset.parent.unknown',
    parentIdentical: 'referentials.asset.parent.identical',
    hierarchyError: 'referentials.asset.office.hierarchy.error',
    transferSubassets: 'referentials.asset.transfer.subassets',
  },
  continuationTokenInvalid: derivedCode.continuationTokenInvalid(REFERENTIALS),
} as const;

/** Hierarchy depth limit (conventions 6, Referentials codes): a tree of 10 levels or more is refused. */
export const MAX_HIERARCHY_LEVELS = 9;

/** Page size of the list extensions. */
export const REFERENTIALS_PAGE_SIZE = 100;
export const OFFICES_PAGE_SIZE = 1000;

/* ---------------- shared pieces ---------------- */

/** A code in a body (parent, office, customer...): uppercased; '' is kept (and then unknown). */
const CodeRef = z
  .string()
  .max(10000)
  .refine((s) => s === '' || CODE_PATTERN.test(s), `only ${CODE_CHARACTERS}`)
  .transform(foldCode);
const text = (max: number) => z.string().max(max);
const requiredCode = () =>
  requiredText(10000)
    .refine((s) => s === '' || CODE_PATTERN.test(s), `only ${CODE_CHARACTERS}`)
    .transform(foldCode);

export const ContactType = z.enum(['Mobile', 'Fax', 'Email', 'Phone']).meta({ id: 'ContactType' });

export const ContactDetail = z
  .strictObject({
    type: ContactType.nullish()
      .transform((t) => t ?? 'Phone')
      .meta({ description: 'Default `Phone`' }),
    description: text(200).nullish(),
    value: text(100),
  })
  .meta({ id: 'ContactDetail' });

export const Contact = z
  .strictObject({
    name: text(10000).nullish(),
    details: z.array(ContactDetail).max(15).nullish(),
  })
  .meta({ id: 'Contact' });

const Country = z
  .string()
  .regex(/^[A-Z]{2}$/)
  .meta({ description: 'ISO 3166-1 alpha-2, uppercase' });

export const CustomerAddressDetails = z
  .strictObject({
    address: text(10000).nullish(),
    zipCode: text(20).nullish(),
    city: requiredText(256),
    country: Country.nullish(),
  })
  .meta({ id: 'CustomerAddressDetails' });

export const SiteAddressDetails = z
  .strictObject({
    // Required for a site (spec: location.addressDetails): '' is missing, as for city.
    address: requiredText(10000),
    zipCode: text(20).nullish(),
    city: requiredText(256),
    country: Country.nullish(),
  })
  .meta({ id: 'SiteAddressDetails' });

/** Both or none; precision beyond 16 decimal places is truncated on store (see truncateDecimals). */
export const Geolocation = z
  .strictObject({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
  })
  .meta({ id: 'Geolocation' });

/**
 * Truncates (never rounds) `x` past `places` decimal places, working on the shortest
 * decimal form of the number, which is what the sender wrote as far as a double can tell.
 */
export function truncateDecimals(x: number, places = 16): number {
  if (!Number.isFinite(x)) return x;
  const s = expandExponent(String(x));
  const dot = s.indexOf('.');
  if (dot < 0 || s.length - dot - 1 <= places) return x;
  return Number(s.slice(0, dot + 1 + places));
}

/** '1.5e-7' -> '0.00000015' (numbers in [-180, 180] only ever have a negative exponent). */
function expandExponent(s: string): string {
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, rest = '', exp] = m;
  const e = Number(exp);
  if (e >= 0) return String(Number(s));
  return `${sign}0.${'0'.repeat(-e - 1)}${lead}${rest}`;
}

/* ---------------- customer ---------------- */

export const CustomerBody = z
  .strictObject({
    name: requiredText(10000),
    parentCustomerCode: CodeRef.nullish(),
    officeCode: Code().optional().meta({
      description:
        'When absent: the parent customer office if parentCustomerCode is given (and in your office tree), otherwise the office of the calling application. May differ from the parent office.',
    }),
    contact: Contact.nullish(),
    addressDetails: CustomerAddressDetails,
    description: text(10000).nullish(),
    customFields: CustomFields.optional(),
  })
  .meta({ id: 'CustomerBody' });
export type CustomerBody = z.output<typeof CustomerBody>;
export type CustomerBodyInput = z.input<typeof CustomerBody>;

const ContactOut = z.object({
  name: z.string().nullable(),
  details: z
    .array(z.object({ type: ContactType, description: z.string().nullable(), value: z.string() }))
    .nullable(),
});
const AddressOut = z.object({
  address: z.string().nullable(),
  zipCode: z.string().nullable(),
  city: z.string(),
  country: z.string().nullable(),
});
const LastUpdate = z
  .string()
  .meta({ format: 'date-time', description: 'RFC 3339, UTC, e.g. 2026-03-01T08:00:00Z' });

export const Customer = z
  .object({
    customerCode: z.string(),
    name: z.string(),
    parentCustomerCode: z.string().nullable(),
    officeCode: z.string(),
    contact: ContactOut.nullable(),
    addressDetails: AddressOut,
    description: z.string().nullable(),
    customFields: CustomFields,
    lastUpdate: LastUpdate,
  })
  .meta({ id: 'Customer' });
export type Customer = z.infer<typeof Customer>;

/* ---------------- site ---------------- */

export const SiteBody = z
  .strictObject({
    name: requiredText(10000),
    customerCode: requiredCode(),
    parentSiteCode: CodeRef.nullish(),
    officeCode: Code().optional().meta({
      description:
        "When absent: the parent site's office, else the customer's office, else the office of the calling application.",
    }),
    contact: Contact.nullish(),
    location: z
      .strictObject({
        geolocation: Geolocation.nullish(),
        addressDetails: SiteAddressDetails,
      })
      .meta({ id: 'SiteLocation' }),
    description: text(8192).nullish(),
    customFields: CustomFields.optional(),
  })
  .meta({ id: 'SiteBody' });
export type SiteBody = z.output<typeof SiteBody>;
export type SiteBodyInput = z.input<typeof SiteBody>;

export const Site = z
  .object({
    siteCode: z.string(),
    name: z.string(),
    customerCode: z.string(),
    parentSiteCode: z.string().nullable(),
    officeCode: z.string(),
    contact: ContactOut.nullable(),
    location: z.object({
      geolocation: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
      addressDetails: AddressOut.extend({ address: z.string() }),
    }),
    description: z.string().nullable(),
    customFields: CustomFields,
    lastUpdate: LastUpdate,
  })
  .meta({ id: 'Site' });
export type Site = z.infer<typeof Site>;

/* ---------------- asset (shape designed per gaps.md) ---------------- */

export const AssetBody = z
  .strictObject({
    name: requiredText(10000),
    siteCode: CodeRef.nullish(),
    customerCode: CodeRef.nullish().meta({
      description:
        "When absent and siteCode is given: the site's customer. When both are given they must agree.",
    }),
    parentAssetCode: CodeRef.nullish(),
    officeCode: Code().optional().meta({
      description:
        "When absent: the parent asset's office, else the site's office, else the office of the calling application.",
    }),
    serialNumber: text(200).nullish(),
    description: text(10000).nullish(),
    customFields: CustomFields.optional(),
  })
  .meta({ id: 'AssetBody' });
export type AssetBody = z.output<typeof AssetBody>;
export type AssetBodyInput = z.input<typeof AssetBody>;

export const Asset = z
  .object({
    assetCode: z.string(),
    name: z.string(),
    siteCode: z.string().nullable(),
    customerCode: z.string().nullable(),
    parentAssetCode: z.string().nullable(),
    officeCode: z.string(),
    serialNumber: z.string().nullable(),
    description: z.string().nullable(),
    customFields: CustomFields,
    lastUpdate: LastUpdate,
  })
  .meta({ id: 'Asset' });
export type Asset = z.infer<typeof Asset>;

/* ---------------- extensions: lists, offices, definitions ---------------- */

export const Office = z
  .object({ code: z.string(), name: z.string(), parentCode: z.string().nullable() })
  .meta({ id: 'Office' });
export type Office = z.infer<typeof Office>;

const ListFilters = {
  q: z.string().max(200).optional().meta({ description: 'Text contained in the code, name or city' }),
  officeCode: Code().optional().meta({ description: 'That office and the offices below it' }),
  parentCode: Code().optional().meta({ description: 'Direct children of this record' }),
  continuationToken: z.string().optional(),
};
export const CustomerListQuery = z.strictObject(ListFilters).meta({ id: 'CustomerListQuery' });
export const SiteListQuery = z
  .strictObject({ ...ListFilters, customerCode: Code().optional() })
  .meta({ id: 'SiteListQuery' });
export const AssetListQuery = z
  .strictObject({
    ...ListFilters,
    q: z
      .string()
      .max(200)
      .optional()
      .meta({ description: 'Text contained in the code, name or serial number' }),
    siteCode: Code().optional(),
    customerCode: Code().optional(),
  })
  .meta({ id: 'AssetListQuery' });
export type CustomerListQuery = z.output<typeof CustomerListQuery>;
export type SiteListQuery = z.output<typeof SiteListQuery>;
export type AssetListQuery = z.output<typeof AssetListQuery>;

export const DefinitionsQuery = z.strictObject({
  entity: CustomFieldEntity.optional().meta({ description: 'When absent: the definitions of every entity' }),
});
export const OfficesQuery = z.strictObject({ continuationToken: z.string().optional() });

/* ---------------- endpoints ---------------- */

const path = (collection: string, param: string) => `${BASE}/${collection}/code:{${param}}`;
const validation = (prefix: string) => [
  derivedCode.invalidJson(prefix),
  derivedCode.fieldUnknown(prefix),
  `${prefix}.<field>.mandatory`,
  `${prefix}.<field>.invalid`,
  derivedCode.customFieldMandatory(prefix),
  derivedCode.customFieldUnknown(prefix),
  derivedCode.customFieldInvalid(prefix),
];
const C = ReferentialsCodes;

export const putCustomer = endpoint({
  id: 'putCustomer',
  versioned: true,
  method: 'PUT',
  path: path('customers', 'customerCode'),
  domain: 'referentials',
  range: 'standard',
  summary:
    'Creates (201) or replaces (204) a customer. Codes are unique per tenant (a root office and the offices below it): a code held by another tenant is free for yours, while a code held by another office of your tenant outside your office tree is refused with office.unknown (the answer does not say more). office.hierarchy.error: the parent is the customer itself or below it, or the resulting tree (ancestors, the customer, its deepest branch) would have 10 levels or more (9 is the maximum).',
  errorPrefix: CUSTOMER,
  params: z.object({ customerCode: Code() }),
  body: CustomerBody,
  responses: { 201: undefined, 204: undefined },
  errors: {
    400: [
      `${CUSTOMER}.code.mandatory`,
      `${CUSTOMER}.name.mandatory`,
      `${CUSTOMER}.addressdetails.mandatory`,
      `${CUSTOMER}.city.mandatory`,
      ...validation(CUSTOMER),
      C.customer.officeUnknown,
      C.customer.parentUnknown,
      C.customer.parentIdentical,
      C.customer.hierarchyError,
    ],
  },
});

export const getCustomer = endpoint({
  id: 'getCustomer',
  versioned: true,
  method: 'GET',
  path: path('customers', 'customerCode'),
  domain: 'referentials',
  range: 'high',
  summary: 'Reads a customer of your office tree.',
  errorPrefix: CUSTOMER,
  params: z.object({ customerCode: Code() }),
  responses: { 200: Customer },
  errors: { 400: [`${CUSTOMER}.code.mandatory`], 404: [C.customer.notFound] },
});

export const putSite = endpoint({
  id: 'putSite',
  versioned: true,
  method: 'PUT',
  path: path('sites', 'siteCode'),
  domain: 'referentials',
  range: 'standard',
  summary:
    'Creates (201) or replaces (204) a site. Codes are unique per tenant, as for customers: a code held outside your office tree but in your tenant is refused with office.unknown. Hierarchy rules as for customers (no cycle, at most 9 levels). Geolocation: both or none, truncated past 16 decimal places.',
  errorPrefix: SITE,
  params: z.object({ siteCode: Code() }),
  body: SiteBody,
  responses: { 201: undefined, 204: undefined },
  errors: {
    400: [
      `${SITE}.code.mandatory`,
      `${SITE}.name.mandatory`,
      `${SITE}.customercode.mandatory`,
      `${SITE}.location.mandatory`,
      `${SITE}.addressdetails.mandatory`,
      `${SITE}.address.mandatory`,
      `${SITE}.city.mandatory`,
      `${SITE}.latitude.mandatory`,
      `${SITE}.longitude.mandatory`,
      ...validation(SITE),
      C.site.officeUnknown,
      C.site.customerUnknown,
      C.site.parentUnknown,
      C.site.parentIdentical,
      C.site.hierarchyError,
    ],
  },
});

export const getSite = endpoint({
  id: 'getSite',
  versioned: true,
  method: 'GET',
  path: path('sites', 'siteCode'),
  domain: 'referentials',
  range: 'high',
  summary:
    "Reads a site of your office tree; 404 customer.not.found when the site's customer is not visible.",
  errorPrefix: SITE,
  params: z.object({ siteCode: Code() }),
  responses: { 200: Site },
  errors: { 400: [`${SITE}.code.mandatory`], 404: [C.site.notFound, C.customer.notFound] },
});

export const putAsset = endpoint({
  id: 'putAsset',
  versioned: true,
  method: 'PUT',
  path: path('assets', 'assetCode'),
  domain: 'referentials',
  range: 'standard',
  summary:
    'Creates (201) or replaces (204) an asset. An asset with sub-assets you can see cannot change site or office (transfer.subassets); sub-assets filed outside your office tree do not hold it. Codes are unique per tenant, as for customers: a code held outside your office tree but in your tenant is refused with office.unknown. Hierarchy rules as for customers (no cycle, at most 9 levels).',
  errorPrefix: ASSET,
  params: z.object({ assetCode: Code() }),
  body: AssetBody,
  responses: { 201: undefined, 204: undefined },
  errors: {
    400: [
      `${ASSET}.code.mandatory`,
      `${ASSET}.name.mandatory`,
      ...validation(ASSET),
      C.asset.officeUnknown,
      C.asset.siteUnknown,
      C.asset.customerUnknown,
      C.asset.customerMismatch,
      C.asset.parentUnknown,
      C.asset.parentIdentical,
      C.asset.hierarchyError,
      C.asset.transferSubassets,
    ],
  },
});

export const getAsset = endpoint({
  id: 'getAsset',
  versioned: true,
  method: 'GET',
  path: path('assets', 'assetCode'),
  domain: 'referentials',
  range: 'high',
  summary: 'Reads an asset of your office tree.',
  errorPrefix: ASSET,
  params: z.object({ assetCode: Code() }),
  responses: { 200: Asset },
  errors: { 400: [`${ASSET}.code.mandatory`], 404: [C.asset.notFound] },
});

const listErrors = (prefix: string, officeUnknown: string) => ({
  400: [
    C.continuationTokenInvalid,
    officeUnknown,
    derivedCode.fieldUnknown(prefix),
    `${prefix}.<field>.invalid`,
  ],
});

export const listCustomers = endpoint({
  id: 'listCustomers',
  method: 'GET',
  path: `${BASE}/customers`,
  domain: 'referentials',
  range: 'standard',
  summary: `Customers of your office tree, ${REFERENTIALS_PAGE_SIZE} a page, sorted by code.`,
  errorPrefix: CUSTOMER,
  query: CustomerListQuery,
  responses: { 200: Page(Customer) },
  errors: listErrors(CUSTOMER, C.customer.officeUnknown),
  extension: true,
});

export const listSites = endpoint({
  id: 'listSites',
  method: 'GET',
  path: `${BASE}/sites`,
  domain: 'referentials',
  range: 'standard',
  summary: `Sites of your office tree whose customer you can see (the others answer 404 to their GET), ${REFERENTIALS_PAGE_SIZE} a page, sorted by code.`,
  errorPrefix: SITE,
  query: SiteListQuery,
  responses: { 200: Page(Site) },
  errors: listErrors(SITE, C.site.officeUnknown),
  extension: true,
});

export const listAssets = endpoint({
  id: 'listAssets',
  method: 'GET',
  path: `${BASE}/assets`,
  domain: 'referentials',
  range: 'standard',
  summary: `Assets of your office tree, ${REFERENTIALS_PAGE_SIZE} a page, sorted by code.`,
  errorPrefix: ASSET,
  query: AssetListQuery,
  responses: { 200: Page(Asset) },
  errors: listErrors(ASSET, C.asset.officeUnknown),
  extension: true,
});

export const listCustomFieldDefinitions = endpoint({
  id: 'listCustomFieldDefinitions',
  method: 'GET',
  path: `${BASE}/customFieldDefinitions`,
  domain: 'referentials',
  range: 'standard',
  summary: 'Custom-field definitions of the instance, for one entity or all; a single page.',
  errorPrefix: REFERENTIALS,
  query: DefinitionsQuery,
  responses: { 200: Page(CustomFieldDefinition) },
  errors: { 400: [`${REFERENTIALS}.entity.invalid`, derivedCode.fieldUnknown(REFERENTIALS)] },
  extension: true,
});

export const listOffices = endpoint({
  id: 'listOffices',
  method: 'GET',
  path: `${BASE}/offices`,
  domain: 'referentials',
  range: 'standard',
  summary: `Your office and the offices below it, sorted by hierarchy path, ${OFFICES_PAGE_SIZE} a page. The parentCode of your own office is null.`,
  errorPrefix: REFERENTIALS,
  query: OfficesQuery,
  responses: { 200: Page(Office) },
  errors: { 400: [C.continuationTokenInvalid, derivedCode.fieldUnknown(REFERENTIALS)] },
  extension: true,
});

/** The referentials endpoints by name, in the order of the OpenAPI document (contract/domains.ts). */
/* ---------------- extension: histories (issue 29, contract in changes.ts) ---------------- */

export const getCustomerHistory = historyEndpoint({
  id: 'referentials.customers.history',
  domain: 'referentials',
  recordPath: path('customers', 'customerCode'),
  errorPrefix: CUSTOMER,
  params: z.object({ customerCode: Code() }),
  notFound: [C.customer.notFound],
  continuationTokenInvalid: C.continuationTokenInvalid,
  label: 'a customer',
});
export const getSiteHistory = historyEndpoint({
  id: 'referentials.sites.history',
  domain: 'referentials',
  recordPath: path('sites', 'siteCode'),
  errorPrefix: SITE,
  params: z.object({ siteCode: Code() }),
  notFound: [C.site.notFound, C.customer.notFound],
  continuationTokenInvalid: C.continuationTokenInvalid,
  label: 'a site',
});
export const getAssetHistory = historyEndpoint({
  id: 'referentials.assets.history',
  domain: 'referentials',
  recordPath: path('assets', 'assetCode'),
  errorPrefix: ASSET,
  params: z.object({ assetCode: Code() }),
  notFound: [C.asset.notFound],
  continuationTokenInvalid: C.continuationTokenInvalid,
  label: 'an asset',
});

export const referentialsEndpoints = {
  putCustomer,
  getCustomer,
  getCustomerHistory,
  putSite,
  getSite,
  getSiteHistory,
  putAsset,
  getAsset,
  getAssetHistory,
  listCustomers,
  listSites,
  listAssets,
  listCustomFieldDefinitions,
  listOffices,
};
