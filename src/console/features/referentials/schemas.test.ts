import { describe, expect, it } from 'vitest';
import type { CustomFieldDefinition } from '../../../contract/common.ts';
import type { Asset, Customer, Site } from '../../../contract/referentials.ts';
import {
  assetFormSchema,
  assetToBody,
  assetToForm,
  type CustomerForm,
  customerFormSchema,
  customerToBody,
  customerToForm,
  type SiteForm,
  siteFormSchema,
  siteToBody,
  siteToForm,
  splitCode,
} from './schemas.ts';

const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (r.error?.issues ?? []).map((i) => `${i.path.join('.')}|${i.message}`);

describe('customer form -> body', () => {
  const form = (): CustomerForm => ({
    ...customerToForm(null),
    code: ' acme ',
    name: 'Acme',
    addressDetails: { address: '', zipCode: '', city: 'Lyon', country: null },
  });

  it('empty optional inputs become null, the code is trimmed and uppercased', () => {
    const r = customerFormSchema([]).safeParse(form());
    expect(r.success).toBe(true);
    const { code, body } = splitCode(r.data as { code: string });
    expect(code).toBe('ACME');
    expect(body).toEqual({
      name: 'Acme',
      parentCustomerCode: null,
      contact: null,
      addressDetails: { address: null, zipCode: null, city: 'Lyon', country: null },
      description: null,
      customFields: {},
    });
    // No officeCode: the service takes the parent's or the caller's office.
    expect('officeCode' in body).toBe(false);
  });

  it("a blank input sends back the stored '' (edit), null otherwise", () => {
    const previous = { description: '', addressDetails: { city: 'Lyon', zipCode: '', address: null } };
    const r = customerFormSchema([], previous).safeParse(form());
    expect(r.data).toMatchObject({
      description: '',
      addressDetails: { zipCode: '', address: null },
    });
    // Typed text always wins.
    const v = form();
    v.description = 'x';
    expect(customerFormSchema([], previous).safeParse(v).data).toMatchObject({ description: 'x' });
  });

  it('filled inputs are kept as typed; contact details default to Phone', () => {
    const v = form();
    v.description = 'VIP';
    v.officeCode = 'NORTH';
    v.parentCustomerCode = 'group';
    v.addressDetails.country = 'FR';
    v.contact = { name: 'Ann', details: [{ type: '', value: '0102', description: '' }] };
    const r = customerFormSchema([]).safeParse(v);
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({
      parentCustomerCode: 'GROUP',
      officeCode: 'NORTH',
      description: 'VIP',
      addressDetails: { country: 'FR' },
      contact: { name: 'Ann', details: [{ type: 'Phone', value: '0102', description: null }] },
    });
  });

  it('refuses itself as parent (case-insensitive), a missing city and 16 contact details', () => {
    const v = form();
    v.parentCustomerCode = 'ACME';
    v.addressDetails.city = '';
    v.contact = {
      name: '',
      details: Array.from({ length: 16 }, (_, i) => ({
        type: 'Email',
        value: `a${i}@x.io`,
        description: '',
      })),
    };
    const r = customerFormSchema([]).safeParse(v);
    expect(r.success).toBe(false);
    const found = issues(r as never);
    expect(found).toContain('parentCustomerCode|referentials:validation.selfParent');
    expect(found.some((i) => i.startsWith('addressDetails.city|'))).toBe(true);
    expect(found.some((i) => i.startsWith('contact.details|'))).toBe(true);
  });

  it('refuses a country outside ISO alpha-2 and applies custom-field definitions', () => {
    const defs: CustomFieldDefinition[] = [
      {
        entity: 'customer',
        code: 'TIER',
        label: 'Tier',
        type: 'dropDownValue',
        mandatory: true,
        values: ['A', 'B'],
      },
    ];
    const v = form();
    v.addressDetails.country = 'fr';
    const r = customerFormSchema(defs).safeParse(v);
    const found = issues(r as never);
    expect(found.some((i) => i.startsWith('addressDetails.country|'))).toBe(true);
    expect(found).toContain('customFields.TIER|customFields:errors.mandatory');
    v.addressDetails.country = 'FR';
    v.customFields = { TIER: { dropDownValue: 'A' } };
    expect(customerFormSchema(defs).safeParse(v).success).toBe(true);
  });

  it("the contract's issues take their message from the caller's error map", () => {
    const v = form();
    v.addressDetails.city = '';
    v.parentCustomerCode = 'acme';
    const r = customerFormSchema([]).safeParse(v, {
      error: (i) => (i.code === 'too_small' || i.code === 'invalid_type' ? 'REQUIRED' : undefined),
    });
    expect(issues(r as never)).toEqual([
      'addressDetails.city|REQUIRED',
      'parentCustomerCode|referentials:validation.selfParent',
    ]);
  });
});

describe('site form -> body: the geolocation pair', () => {
  const form = (): SiteForm => ({
    ...siteToForm(null),
    code: 's1',
    name: 'Depot',
    customerCode: 'acme',
    location: {
      addressDetails: { address: '1 rue A', zipCode: '', city: 'Lyon', country: 'FR' },
      geolocation: { latitude: '' as number | string, longitude: '' as number | string },
    },
  });

  it('no coordinates -> geolocation null', () => {
    const r = siteFormSchema([]).safeParse(form());
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ code: 'S1', customerCode: 'ACME', location: { geolocation: null } });
  });

  it('both coordinates -> the pair (numbers, also from text inputs)', () => {
    const v = form();
    v.location.geolocation = { latitude: '45.75', longitude: 4.85 };
    const r = siteFormSchema([]).safeParse(v);
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ location: { geolocation: { latitude: 45.75, longitude: 4.85 } } });
  });

  it('half a pair is refused on the missing coordinate; ranges are checked', () => {
    const v = form();
    v.location.geolocation = { latitude: 45, longitude: '' };
    expect(
      issues(siteFormSchema([]).safeParse(v) as never).some((i) =>
        i.startsWith('location.geolocation.longitude|'),
      ),
    ).toBe(true);
    v.location.geolocation = { latitude: 95, longitude: 10 };
    expect(issues(siteFormSchema([]).safeParse(v) as never)).toContain(
      'location.geolocation.latitude|referentials:validation.latitude',
    );
  });

  it('a site needs its city, its customer, and not itself as parent', () => {
    const v = form();
    v.location.addressDetails.city = '';
    v.customerCode = null;
    v.parentSiteCode = 's1';
    const found = issues(siteFormSchema([]).safeParse(v) as never);
    expect(found.some((i) => i.startsWith('location.addressDetails.city|'))).toBe(true);
    expect(found.some((i) => i.startsWith('customerCode|'))).toBe(true);
    expect(found).toContain('parentSiteCode|referentials:validation.selfParent');
  });
});

describe('asset form -> body', () => {
  it('name required; serial number, site, customer and parent sent', () => {
    const v = { ...assetToForm(null), code: 'pump-1', name: '' };
    expect(issues(assetFormSchema([]).safeParse(v) as never).some((i) => i.startsWith('name|'))).toBe(true);
    const r = assetFormSchema([]).safeParse({
      ...v,
      name: 'Pump',
      serialNumber: 'SN-1',
      siteCode: 's1',
      customerCode: 'acme',
      parentAssetCode: 'rack',
    });
    expect(r.success).toBe(true);
    expect(r.data).toEqual({
      code: 'PUMP-1',
      name: 'Pump',
      siteCode: 'S1',
      customerCode: 'ACME',
      parentAssetCode: 'RACK',
      serialNumber: 'SN-1',
      description: null,
      customFields: {},
    });
  });
  it('refuses itself as parent', () => {
    const r = assetFormSchema([]).safeParse({
      ...assetToForm(null),
      code: 'p',
      name: 'P',
      parentAssetCode: 'P',
    });
    expect(issues(r as never)).toContain('parentAssetCode|referentials:validation.selfParent');
  });
});

describe('undo: the previous version as a PUT body', () => {
  it('customer: only body fields, absent ones as null, office kept', () => {
    const rec = {
      customerCode: 'ACME',
      name: 'Acme',
      officeCode: 'NORTH',
      addressDetails: { city: 'Lyon', address: null, zipCode: '69000', country: 'FR' },
      lastUpdate: '2026-01-01T00:00:00Z',
    } as Customer;
    const body = customerToBody(rec);
    expect(body).toEqual({
      name: 'Acme',
      parentCustomerCode: null,
      officeCode: 'NORTH',
      contact: null,
      addressDetails: { city: 'Lyon', address: null, zipCode: '69000', country: 'FR' },
      description: null,
      customFields: {},
    });
    expect(customerFormSchema([]).safeParse({ ...customerToForm(rec) }).success).toBe(true);
  });

  it('site: location kept whole, lastUpdate and siteCode dropped', () => {
    const rec = {
      siteCode: 'S1',
      name: 'Depot',
      customerCode: 'ACME',
      officeCode: 'ROOT',
      description: '',
      location: { geolocation: { latitude: 1, longitude: 2 }, addressDetails: { address: 'a', city: 'c' } },
      customFields: { X: { textValue: 'y' } },
      lastUpdate: '2026-01-01T00:00:00Z',
    } as unknown as Site;
    expect(siteToBody(rec)).toEqual({
      name: 'Depot',
      customerCode: 'ACME',
      parentSiteCode: null,
      officeCode: 'ROOT',
      contact: null,
      location: { geolocation: { latitude: 1, longitude: 2 }, addressDetails: { address: 'a', city: 'c' } },
      // An empty string is kept as an empty string (spec: General conventions 5).
      description: '',
      customFields: { X: { textValue: 'y' } },
    });
  });

  it('asset: every field of the agreed body', () => {
    const rec = {
      assetCode: 'P',
      name: 'Pump',
      officeCode: 'ROOT',
      siteCode: 'S1',
      serialNumber: 'SN',
    } as Asset;
    expect(assetToBody(rec)).toEqual({
      name: 'Pump',
      siteCode: 'S1',
      customerCode: null,
      parentAssetCode: null,
      officeCode: 'ROOT',
      serialNumber: 'SN',
      description: null,
      customFields: {},
    });
  });
});
