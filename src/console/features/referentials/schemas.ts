/**
 * Form schemas: the contract's body schemas, preceded by a clean-up of what inputs produce
 * (empty strings for untouched optional fields, empty numeric inputs) and followed by the
 * rules only the console can check (custom-field definitions, self-parent).
 */
import { z } from 'zod';
import type { CustomFieldDefinition, CustomFields } from '../../../contract/common.ts';
import type {
  Asset,
  AssetBodyInput as AssetBodyT,
  Customer,
  CustomerBodyInput as CustomerBodyT,
  Site,
  SiteBodyInput as SiteBodyT,
} from '../../../contract/referentials.ts';
import { AssetBody, CustomerBody, SiteBody } from '../../../contract/referentials.ts';
import { customFieldErrorMessage } from '../../components/customFields/customFieldsSchema.ts';
import { validateCustomFields } from '../../components/customFields/customFieldValues.ts';
import { codeSchema } from '../../components/records/codeRule.ts';
import type { Contact } from './types.ts';

/* ---------- form values (what the inputs hold) ---------- */

export interface ContactForm {
  name: string;
  details: { type: string; value: string; description: string }[];
}
export interface AddressForm {
  address: string;
  zipCode: string;
  city: string;
  country: string | null;
}
export interface CustomerForm {
  code: string;
  name: string;
  parentCustomerCode: string | null;
  officeCode: string | null;
  description: string;
  contact: ContactForm;
  addressDetails: AddressForm;
  customFields: CustomFields;
}
export interface SiteForm {
  code: string;
  name: string;
  customerCode: string | null;
  parentSiteCode: string | null;
  officeCode: string | null;
  description: string;
  contact: ContactForm;
  location: {
    addressDetails: AddressForm;
    geolocation: { latitude: number | string; longitude: number | string };
  };
  customFields: CustomFields;
}
export interface AssetForm {
  code: string;
  name: string;
  serialNumber: string;
  description: string;
  parentAssetCode: string | null;
  siteCode: string | null;
  customerCode: string | null;
  officeCode: string | null;
  customFields: CustomFields;
}

/* ---------- record -> form ---------- */

const s = (v: string | null | undefined) => v ?? '';

function contactToForm(c: Contact | null | undefined): ContactForm {
  return {
    name: s(c?.name),
    details: (c?.details ?? []).map((d) => ({
      type: d.type ?? 'Phone',
      value: d.value,
      description: s(d.description),
    })),
  };
}
function addressToForm(
  a: { address?: string | null; zipCode?: string | null; city: string; country?: string | null } | undefined,
): AddressForm {
  return { address: s(a?.address), zipCode: s(a?.zipCode), city: s(a?.city), country: a?.country ?? null };
}

export function customerToForm(c: Customer | null): CustomerForm {
  return {
    code: c?.customerCode ?? '',
    name: s(c?.name),
    parentCustomerCode: c?.parentCustomerCode ?? null,
    officeCode: c?.officeCode ?? null,
    description: s(c?.description),
    contact: contactToForm(c?.contact),
    addressDetails: addressToForm(c?.addressDetails),
    customFields: c?.customFields ?? {},
  };
}
export function siteToForm(x: Site | null): SiteForm {
  return {
    code: x?.siteCode ?? '',
    name: s(x?.name),
    customerCode: x?.customerCode ?? null,
    parentSiteCode: x?.parentSiteCode ?? null,
    officeCode: x?.officeCode ?? null,
    description: s(x?.description),
    contact: contactToForm(x?.contact),
    location: {
      addressDetails: addressToForm(x?.location?.addressDetails),
      geolocation: {
        latitude: x?.location?.geolocation?.latitude ?? '',
        longitude: x?.location?.geolocation?.longitude ?? '',
      },
    },
    customFields: x?.customFields ?? {},
  };
}
export function assetToForm(a: Asset | null): AssetForm {
  return {
    code: a?.assetCode ?? '',
    name: s(a?.name),
    serialNumber: s(a?.serialNumber),
    description: s(a?.description),
    parentAssetCode: a?.parentAssetCode ?? null,
    siteCode: a?.siteCode ?? null,
    customerCode: a?.customerCode ?? null,
    officeCode: a?.officeCode ?? null,
    customFields: a?.customFields ?? {},
  };
}

/* ---------- record -> body (the previous version, written back by Undo) ---------- */

export function customerToBody(c: Customer): CustomerBodyT {
  return {
    name: c.name,
    parentCustomerCode: c.parentCustomerCode ?? null,
    officeCode: c.officeCode,
    contact: c.contact ?? null,
    addressDetails: c.addressDetails,
    description: c.description ?? null,
    customFields: c.customFields ?? {},
  };
}
export function siteToBody(x: Site): SiteBodyT {
  return {
    name: x.name,
    customerCode: x.customerCode,
    parentSiteCode: x.parentSiteCode ?? null,
    officeCode: x.officeCode,
    contact: x.contact ?? null,
    location: { geolocation: x.location.geolocation ?? null, addressDetails: x.location.addressDetails },
    description: x.description ?? null,
    customFields: x.customFields ?? {},
  };
}
export function assetToBody(a: Asset): AssetBodyT {
  return {
    name: a.name,
    siteCode: a.siteCode ?? null,
    customerCode: a.customerCode ?? null,
    parentAssetCode: a.parentAssetCode ?? null,
    officeCode: a.officeCode,
    serialNumber: a.serialNumber ?? null,
    description: a.description ?? null,
    customFields: a.customFields ?? {},
  };
}

/* ---------- form -> body input (before the contract schema) ---------- */

/**
 * A blank optional input is sent as null (not set), except where the stored value was an
 * empty string: that one is sent back as it was (spec: General conventions 5 keeps '' and
 * null apart), so saving an untouched field never changes it.
 */
const orNull = (v: unknown, before?: unknown) =>
  typeof v === 'string' && v.trim() === '' ? (before === '' ? '' : null) : v;
type Prev = Record<string, unknown> | null | undefined;
const at = (o: unknown, key: string): unknown =>
  o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
const upper = (v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase() : v);

function cleanContact(c: ContactForm | undefined) {
  if (!c) return null;
  const details = (c.details ?? []).map((d) => ({
    type: d.type || 'Phone',
    value: d.value,
    description: orNull(d.description),
  }));
  if (s(c.name).trim() === '' && details.length === 0) return null;
  return { name: c.name, details };
}
function cleanAddress(a: AddressForm, before?: unknown) {
  return {
    address: orNull(a.address, at(before, 'address')),
    zipCode: orNull(a.zipCode, at(before, 'zipCode')),
    city: a.city,
    country: a.country || null,
  };
}
const num = (v: unknown) =>
  v === '' || v === null || v === undefined ? undefined : typeof v === 'number' ? v : Number(v);

export function cleanCustomer(v: CustomerForm, prev?: Prev) {
  return {
    code: upper(v.code),
    name: v.name,
    parentCustomerCode: v.parentCustomerCode ? upper(v.parentCustomerCode) : null,
    ...(v.officeCode ? { officeCode: v.officeCode } : {}),
    contact: cleanContact(v.contact),
    addressDetails: cleanAddress(v.addressDetails, at(prev, 'addressDetails')),
    description: orNull(v.description, at(prev, 'description')),
    customFields: v.customFields ?? {},
  };
}
export function cleanSite(v: SiteForm, prev?: Prev) {
  const lat = num(v.location.geolocation.latitude);
  const lng = num(v.location.geolocation.longitude);
  return {
    code: upper(v.code),
    name: v.name,
    customerCode: v.customerCode ? upper(v.customerCode) : undefined,
    parentSiteCode: v.parentSiteCode ? upper(v.parentSiteCode) : null,
    ...(v.officeCode ? { officeCode: v.officeCode } : {}),
    contact: cleanContact(v.contact),
    location: {
      // Both or none (spec: location.geolocation); a half pair stays for the schema to refuse.
      geolocation: lat === undefined && lng === undefined ? null : { latitude: lat, longitude: lng },
      addressDetails: {
        ...cleanAddress(v.location.addressDetails, at(at(prev, 'location'), 'addressDetails')),
        address: v.location.addressDetails.address,
      },
    },
    description: orNull(v.description, at(prev, 'description')),
    customFields: v.customFields ?? {},
  };
}
export function cleanAsset(v: AssetForm, prev?: Prev) {
  return {
    code: upper(v.code),
    name: v.name,
    siteCode: v.siteCode ? upper(v.siteCode) : null,
    customerCode: v.customerCode ? upper(v.customerCode) : null,
    parentAssetCode: v.parentAssetCode ? upper(v.parentAssetCode) : null,
    ...(v.officeCode ? { officeCode: v.officeCode } : {}),
    serialNumber: orNull(v.serialNumber, at(prev, 'serialNumber')),
    description: orNull(v.description, at(prev, 'description')),
    customFields: v.customFields ?? {},
  };
}

/* ---------- schemas ---------- */

/** A new record's code: the console's code rule (components/records/codeRule.ts), 10,000 at most. */
const CodeField = codeSchema(10000);

type Rule = (v: Record<string, unknown>, ctx: z.RefinementCtx) => void;

function selfParent(parentField: string): Rule {
  return (v, ctx) => {
    const parent = v[parentField];
    if (
      typeof parent === 'string' &&
      typeof v.code === 'string' &&
      parent.toUpperCase() === v.code.toUpperCase()
    ) {
      ctx.addIssue({ code: 'custom', path: [parentField], message: 'referentials:validation.selfParent' });
    }
  };
}

const geoRanges: Rule = (v, ctx) => {
  const g = (v.location as { geolocation?: { latitude?: number; longitude?: number } | null } | undefined)
    ?.geolocation;
  if (!g) return;
  if (typeof g.latitude === 'number' && (g.latitude < -90 || g.latitude > 90))
    ctx.addIssue({
      code: 'custom',
      path: ['location', 'geolocation', 'latitude'],
      message: 'referentials:validation.latitude',
    });
  if (typeof g.longitude === 'number' && (g.longitude < -180 || g.longitude > 180))
    ctx.addIssue({
      code: 'custom',
      path: ['location', 'geolocation', 'longitude'],
      message: 'referentials:validation.longitude',
    });
};

function customFieldRules(defs: readonly CustomFieldDefinition[]): Rule {
  return (v, ctx) => {
    const errors = validateCustomFields(defs, v.customFields as CustomFields | undefined);
    for (const [code, key] of Object.entries(errors))
      ctx.addIssue({ code: 'custom', path: ['customFields', code], message: customFieldErrorMessage(key) });
  };
}

/**
 * A form schema: clean the inputs, parse with the contract's body schema (plus the code),
 * and apply the rules only the console checks. The rules run even when the contract schema
 * found issues, so the form shows every problem at once; the contract's issues keep their
 * code and get their message from the caller's error map (the UI language).
 */
function formSchema<F>(clean: (f: F) => unknown, body: z.ZodObject, rules: Rule[]) {
  const inner = body.extend({ code: CodeField });
  return z.unknown().transform((raw, ctx) => {
    const v = clean(raw as F) as Record<string, unknown>;
    const r = inner.safeParse(v, { reportInput: true });
    if (!r.success)
      for (const issue of r.error.issues)
        ctx.addIssue({ ...issue, message: undefined } as z.core.$ZodRawIssue);
    for (const rule of rules) rule(v, ctx);
    return r.success ? r.data : z.NEVER;
  });
}

/** `previous`: the version being edited, as a PUT body (null or absent when creating). */
export function customerFormSchema(defs: readonly CustomFieldDefinition[], previous?: Prev) {
  return formSchema((f: CustomerForm) => cleanCustomer(f, previous), CustomerBody, [
    selfParent('parentCustomerCode'),
    customFieldRules(defs),
  ]);
}
export function siteFormSchema(defs: readonly CustomFieldDefinition[], previous?: Prev) {
  return formSchema((f: SiteForm) => cleanSite(f, previous), SiteBody, [
    selfParent('parentSiteCode'),
    geoRanges,
    customFieldRules(defs),
  ]);
}
export function assetFormSchema(defs: readonly CustomFieldDefinition[], previous?: Prev) {
  return formSchema((f: AssetForm) => cleanAsset(f, previous), AssetBody, [
    selfParent('parentAssetCode'),
    customFieldRules(defs),
  ]);
}

/** Splits the parsed form into the path code and the PUT body. */
export function splitCode<T extends { code: string }>(v: T): { code: string; body: Omit<T, 'code'> } {
  const { code, ...body } = v;
  return { code, body };
}
