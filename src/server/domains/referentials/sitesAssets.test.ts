import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getAsset,
  getCustomer,
  getSite,
  listAssets,
  listCustomers,
  listSites,
  putAsset,
  putCustomer,
  putSite,
} from '../../../contract/referentials.ts';
import { codesOf, expectErrors } from '../../testing/api.ts';
import type { TestApp, TestClient } from '../../testing/harness.ts';
import { createReferentialsTestApp } from './testApp.ts';

let t: TestApp;
type Kind = 'customers' | 'sites' | 'assets';
/** PUT and GET of a customer, site or asset by code, through its rows. */
const put = (kind: Kind, code: string, body: unknown, as: TestClient = 'root') =>
  kind === 'customers'
    ? t.api(putCustomer, { params: { customerCode: code }, body, as })
    : kind === 'sites'
      ? t.api(putSite, { params: { siteCode: code }, body, as })
      : t.api(putAsset, { params: { assetCode: code }, body, as });
const get = (kind: Kind, code: string, as: TestClient = 'root') =>
  kind === 'customers'
    ? t.api(getCustomer, { params: { customerCode: code }, as })
    : kind === 'sites'
      ? t.api(getSite, { params: { siteCode: code }, as })
      : t.api(getAsset, { params: { assetCode: code }, as });
const customer = (code: string, extra: Record<string, unknown> = {}, as: TestClient = 'root') =>
  put('customers', code, { name: code, addressDetails: { city: 'Lyon' }, ...extra }, as);
const siteBody = (extra: Record<string, unknown> = {}) => ({
  name: 'Plant',
  customerCode: 'CUST',
  location: { addressDetails: { address: '1 rue X', city: 'Lyon' } },
  ...extra,
});
const site = (code: string, extra: Record<string, unknown> = {}, as: TestClient = 'root') =>
  put('sites', code, siteBody(extra), as);
const asset = (code: string, extra: Record<string, unknown> = {}, as: TestClient = 'root') =>
  put('assets', code, { name: code, ...extra }, as);

beforeAll(async () => {
  t = await createReferentialsTestApp();
  expect((await customer('CUST')).statusCode).toBe(201);
  expect((await customer('CUST-S', { officeCode: 'SOUTH' })).statusCode).toBe(201);
  expect((await customer('CUST-N', { officeCode: 'NORTH' })).statusCode).toBe(201);
});
afterAll(() => t.close());

describe('site PUT / GET', () => {
  it('creates, updates and reads a site with location and lastUpdate (RFC 3339, Z)', async () => {
    expect(
      (
        await site('s-1', {
          location: {
            addressDetails: { address: 'a', city: 'b' },
            geolocation: { latitude: 45.5, longitude: 4.8 },
          },
        })
      ).statusCode,
    ).toBe(201);
    expect((await site('S-1', { description: 'd'.repeat(8192) })).statusCode).toBe(204);
    const res = await get('sites', 'S-1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      siteCode: 'S-1',
      name: 'Plant',
      customerCode: 'CUST',
      parentSiteCode: null,
      officeCode: 'ROOT',
      contact: null,
      location: {
        geolocation: null,
        addressDetails: { address: '1 rue X', zipCode: null, city: 'Lyon', country: null },
      },
      description: 'd'.repeat(8192),
      customFields: {},
      lastUpdate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    expectErrors(
      await site('S-1', { description: 'd'.repeat(8193) }),
      400,
      'referentials.site.description.invalid',
    );
  });

  it('office defaults: parent site office, else customer office, else caller office', async () => {
    expect((await site('S-N', { customerCode: 'cust-n' })).statusCode).toBe(201);
    expect((await get('sites', 'S-N')).json().officeCode).toBe('NORTH');
    expect((await site('S-N-CHILD', { parentSiteCode: 'S-N', officeCode: 'north-a' })).statusCode).toBe(201);
    expect((await site('S-N-GRAND', { parentSiteCode: 'S-N-CHILD' })).statusCode).toBe(201);
    expect((await get('sites', 'S-N-GRAND')).json().officeCode).toBe('NORTH-A');
  });

  it('geolocation: both or none; ranges; truncated (not rounded) past 16 decimals', async () => {
    expectErrors(
      await site('S-GEO', {
        location: { addressDetails: { address: 'a', city: 'b' }, geolocation: { latitude: 1 } },
      }),
      400,
      'referentials.site.longitude.mandatory',
    );
    expectErrors(
      await site('S-GEO', {
        location: { addressDetails: { address: 'a', city: 'b' }, geolocation: { longitude: 1 } },
      }),
      400,
      'referentials.site.latitude.mandatory',
    );
    expectErrors(
      await site('S-GEO', {
        location: {
          addressDetails: { address: 'a', city: 'b' },
          geolocation: { latitude: 90.5, longitude: 1 },
        },
      }),
      400,
      'referentials.site.latitude.invalid',
    );
    expectErrors(
      await site('S-GEO', {
        location: {
          addressDetails: { address: 'a', city: 'b' },
          geolocation: { latitude: 1, longitude: -180.1 },
        },
      }),
      400,
      'referentials.site.longitude.invalid',
    );
    // 0.12345678901234566 has 17 decimals: truncation gives ...3456, rounding would give ...3457.
    const raw =
      '{"name":"G","customerCode":"CUST","location":{"addressDetails":{"address":"a","city":"b"},"geolocation":{"latitude":0.12345678901234566,"longitude":-179.5}}}';
    expect((await t.api(putSite, { params: { siteCode: 'S-GEO' }, raw })).statusCode).toBe(201);
    expect((await get('sites', 'S-GEO')).json().location.geolocation).toEqual({
      latitude: 0.1234567890123456,
      longitude: -179.5,
    });
    const edge = { latitude: -90, longitude: 180 };
    expect(
      (await site('S-GEO', { location: { addressDetails: { address: 'a', city: 'b' }, geolocation: edge } }))
        .statusCode,
    ).toBe(204);
    expect((await get('sites', 'S-GEO')).json().location.geolocation).toEqual(edge);
  });

  it('required fields and address of a site', async () => {
    expectErrors(
      await put('sites', 'S-REQ', {
        customerCode: 'CUST',
        location: { addressDetails: { address: 'a', city: 'b' } },
      }),
      400,
      'referentials.site.name.mandatory',
    );
    expectErrors(
      await put('sites', 'S-REQ', { name: 'x', location: { addressDetails: { address: 'a', city: 'b' } } }),
      400,
      'referentials.site.customercode.mandatory',
    );
    expectErrors(
      await put('sites', 'S-REQ', { name: 'x', customerCode: 'CUST' }),
      400,
      'referentials.site.location.mandatory',
    );
    expectErrors(
      await site('S-REQ', { location: { addressDetails: { city: 'b' } } }),
      400,
      'referentials.site.address.mandatory',
    );
    expectErrors(
      await site('S-REQ', { location: { addressDetails: { address: '', city: 'b' } } }),
      400,
      'referentials.site.address.mandatory',
    );
    expectErrors(
      await site('S-REQ', { location: { addressDetails: { address: 'a' } } }),
      400,
      'referentials.site.city.mandatory',
    );
    expectErrors(
      await site('S-REQ', { location: { addressDetails: { address: 'a', city: 'b', country: 'fr' } } }),
      400,
      'referentials.site.country.invalid',
    );
    expectErrors(
      await site('S-REQ', { contact: { details: Array.from({ length: 16 }, () => ({ value: '1' })) } }),
      400,
      'referentials.site.details.invalid',
    );
    expectErrors(await site('S-REQ', { name: '' }), 400, 'referentials.site.name.mandatory');
    expectErrors(await site('S-REQ', { customerCode: '' }), 400, 'referentials.site.customercode.mandatory');
    expectErrors(await site('S-REQ', { extra: 1 }), 400, 'referentials.site.field.unknown');
    expectErrors(
      await t.api(putSite, { params: { siteCode: 'S-REQ' }, raw: '{"name":1,' }),
      400,
      'referentials.site.invalid.json',
    );
  });

  it('a __proto__ custom field is refused as unknown (site.custom.field.unknown), never dropped', async () => {
    const raw = JSON.stringify(siteBody()).replace(/\}$/, ',"customFields":{"__proto__":{"textValue":"x"}}}');
    const res = await t.api(putSite, { params: { siteCode: 'S-PROTO' }, raw });
    expectErrors(res, 400, 'referentials.site.custom.field.unknown');
    expect(codesOf(res)).toEqual(['referentials.site.custom.field.unknown']);
    const nested = JSON.stringify(siteBody()).replace('"city":"Lyon"', '"city":"Lyon","__proto__":{"a":1}');
    const res2 = await t.api(putSite, { params: { siteCode: 'S-PROTO' }, raw: nested });
    expect(codesOf(res2)).toEqual(['referentials.site.field.unknown']);
    expectErrors(await get('sites', 'S-PROTO'), 404, 'referentials.site.not.found');
  });

  it('400 referentials.site.code.mandatory and 404 referentials.site.not.found', async () => {
    expectErrors(await site('', {}), 400, 'referentials.site.code.mandatory');
    expectErrors(await get('sites', '%20'), 400, 'referentials.site.code.mandatory');
    expectErrors(await get('sites', 'NO-SITE'), 404, 'referentials.site.not.found');
  });

  it('400 referentials.site.customer.unknown: unknown or outside the caller tree', async () => {
    expectErrors(await site('S-CU', { customerCode: 'NOBODY' }), 400, 'referentials.site.customer.unknown');
    expectErrors(
      await site('S-CU', { customerCode: 'CUST-S' }, 'north'),
      400,
      'referentials.site.customer.unknown',
    );
  });

  it('404 referentials.customer.not.found: the site is visible but not its customer', async () => {
    // Site filed in NORTH-A for a NORTH customer: NORTH-A sees the site, not the customer.
    expect((await site('S-NA', { customerCode: 'CUST-N', officeCode: 'NORTH-A' })).statusCode).toBe(201);
    expect((await get('sites', 'S-NA', 'north')).statusCode).toBe(200);
    expectErrors(await get('sites', 'S-NA', 'northA'), 404, 'referentials.customer.not.found');
    // ... and not listed to it either, while NORTH lists it.
    const listed = async (as: TestClient) =>
      (await t.api(listSites, { query: { q: 'S-NA' }, as }))
        .json()
        .data.map((s: { siteCode: string }) => s.siteCode);
    expect(await listed('north')).toEqual(['S-NA']);
    expect(await listed('northA')).toEqual([]);
  });

  it('parent rules: unknown, identical, cycle, 10 levels', async () => {
    expectErrors(await site('SP-1', { parentSiteCode: 'NOPE' }), 400, 'referentials.site.parent.unknown');
    expectErrors(await site('SP-1', { parentSiteCode: 'sp-1' }), 400, 'referentials.site.parent.identical');
    for (let i = 1; i <= 9; i++)
      expect((await site(`SP-${i}`, { parentSiteCode: i > 1 ? `SP-${i - 1}` : null })).statusCode).toBe(201);
    expectErrors(
      await site('SP-10', { parentSiteCode: 'SP-9' }),
      400,
      'referentials.site.office.hierarchy.error',
    );
    expectErrors(
      await site('SP-1', { parentSiteCode: 'SP-5' }),
      400,
      'referentials.site.office.hierarchy.error',
    );
  });

  it('office isolation: NORTH cannot read, update or reference a SOUTH site', async () => {
    expect((await site('S-SOUTH', { customerCode: 'CUST-S' })).statusCode).toBe(201);
    expect((await get('sites', 'S-SOUTH')).json().officeCode).toBe('SOUTH');
    expectErrors(await get('sites', 'S-SOUTH', 'north'), 404, 'referentials.site.not.found');
    expectErrors(
      await site('S-SOUTH', { customerCode: 'CUST-N' }, 'north'),
      400,
      'referentials.site.office.unknown',
    );
    expectErrors(
      await site('S-N2', { customerCode: 'CUST-N', parentSiteCode: 'S-SOUTH' }, 'north'),
      400,
      'referentials.site.parent.unknown',
    );
    expectErrors(
      await site('S-N2', { customerCode: 'CUST-N', officeCode: 'SOUTH' }, 'north'),
      400,
      'referentials.site.office.unknown',
    );
    expect((await get('sites', 'S-SOUTH')).json().customerCode).toBe('CUST-S');
  });
});

describe('asset PUT / GET', () => {
  beforeAll(async () => {
    expect((await site('AS-SITE', { customerCode: 'CUST' })).statusCode).toBe(201);
    expect((await site('AS-SITE2', { customerCode: 'CUST' })).statusCode).toBe(201);
    expect((await site('AS-SITE-N', { customerCode: 'CUST-N' })).statusCode).toBe(201);
  });

  it('creates and reads an asset; customerCode defaults to the site customer', async () => {
    expect(
      (await asset('a-1', { siteCode: 'as-site', serialNumber: 'SN1', description: '' })).statusCode,
    ).toBe(201);
    const res = await get('assets', 'A-1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      assetCode: 'A-1',
      name: 'a-1',
      siteCode: 'AS-SITE',
      customerCode: 'CUST',
      parentAssetCode: null,
      officeCode: 'ROOT',
      serialNumber: 'SN1',
      description: '',
      customFields: {},
      lastUpdate: expect.stringMatching(/Z$/),
    });
    expect((await asset('A-1')).statusCode).toBe(204);
    expect((await get('assets', 'A-1')).json()).toMatchObject({
      siteCode: null,
      customerCode: null,
      serialNumber: null,
      description: null,
    });
  });

  it('office defaults to the parent asset office, else the site office', async () => {
    expect((await asset('A-N', { siteCode: 'AS-SITE-N' })).statusCode).toBe(201);
    expect((await get('assets', 'A-N')).json()).toMatchObject({
      officeCode: 'NORTH',
      customerCode: 'CUST-N',
    });
    expect((await asset('A-N-SUB', { parentAssetCode: 'A-N' })).statusCode).toBe(201);
    expect((await get('assets', 'A-N-SUB')).json().officeCode).toBe('NORTH');
  });

  it('error codes of the asset PUT', async () => {
    expectErrors(await put('assets', 'A-E', {}), 400, 'referentials.asset.name.mandatory');
    expectErrors(await asset('', {}), 400, 'referentials.asset.code.mandatory');
    expectErrors(await asset('A-E', { siteCode: 'NOPE' }), 400, 'referentials.asset.site.unknown');
    expectErrors(await asset('A-E', { customerCode: 'NOPE' }), 400, 'referentials.asset.customer.unknown');
    expectErrors(
      await asset('A-E', { siteCode: 'AS-SITE', customerCode: 'CUST-N' }),
      400,
      'referentials.asset.customer.mismatch',
    );
    expectErrors(await asset('A-E', { parentAssetCode: 'NOPE' }), 400, 'referentials.asset.parent.unknown');
    expectErrors(await asset('A-E', { parentAssetCode: 'a-e' }), 400, 'referentials.asset.parent.identical');
    expectErrors(await asset('A-E', { officeCode: 'MARS' }), 400, 'referentials.asset.office.unknown');
    expectErrors(
      await asset('A-E', { serialNumber: 'x'.repeat(201) }),
      400,
      'referentials.asset.serialnumber.invalid',
    );
    expectErrors(await asset('A-E', { color: 'x' }), 400, 'referentials.asset.field.unknown');
    expectErrors(await get('assets', 'A-E'), 404, 'referentials.asset.not.found');
    expect((await asset('A-E', { siteCode: 'AS-SITE', customerCode: 'cust' })).statusCode).toBe(201);
  });

  it('hierarchy: cycle and 10 levels refused, 9 accepted', async () => {
    for (let i = 1; i <= 9; i++)
      expect((await asset(`AH-${i}`, { parentAssetCode: i > 1 ? `AH-${i - 1}` : null })).statusCode).toBe(
        201,
      );
    expectErrors(
      await asset('AH-10', { parentAssetCode: 'AH-9' }),
      400,
      'referentials.asset.office.hierarchy.error',
    );
    expectErrors(
      await asset('AH-3', { parentAssetCode: 'AH-7' }),
      400,
      'referentials.asset.office.hierarchy.error',
    );
  });

  it('transfer: refused with sub-assets (site or office), allowed without', async () => {
    expect((await asset('T-PARENT', { siteCode: 'AS-SITE' })).statusCode).toBe(201);
    expect((await asset('T-CHILD', { siteCode: 'AS-SITE', parentAssetCode: 'T-PARENT' })).statusCode).toBe(
      201,
    );
    expectErrors(
      await asset('T-PARENT', { siteCode: 'AS-SITE2' }),
      400,
      'referentials.asset.transfer.subassets',
    );
    expectErrors(
      await asset('T-PARENT', { siteCode: 'AS-SITE', officeCode: 'NORTH' }),
      400,
      'referentials.asset.transfer.subassets',
    );
    expect((await get('assets', 'T-PARENT')).json()).toMatchObject({
      siteCode: 'AS-SITE',
      officeCode: 'ROOT',
    });
    // Same site and office: an ordinary update.
    expect((await asset('T-PARENT', { siteCode: 'AS-SITE', description: 'ok' })).statusCode).toBe(204);
    // The leaf moves freely.
    expect(
      (await asset('T-CHILD', { siteCode: 'AS-SITE2', parentAssetCode: 'T-PARENT', officeCode: 'SOUTH' }))
        .statusCode,
    ).toBe(204);
    expect((await get('assets', 'T-CHILD')).json()).toMatchObject({
      siteCode: 'AS-SITE2',
      officeCode: 'SOUTH',
    });
  });

  it('transfer: sub-assets outside the caller tree neither hold it nor show in the answer', async () => {
    // ROOT files a NORTH asset with one sub-asset in SOUTH, which NORTH cannot see.
    expect((await asset('HT-PARENT', { officeCode: 'NORTH' })).statusCode).toBe(201);
    expect((await asset('HT-HIDDEN', { parentAssetCode: 'HT-PARENT', officeCode: 'SOUTH' })).statusCode).toBe(
      201,
    );
    const moved = await asset('HT-PARENT', { officeCode: 'NORTH-A' }, 'north');
    expect({ status: moved.statusCode, body: moved.body }).toEqual({ status: 204, body: '' });
    expect((await get('assets', 'HT-PARENT')).json().officeCode).toBe('NORTH-A');
    // The hidden sub-asset was not touched.
    expect((await get('assets', 'HT-HIDDEN')).json()).toMatchObject({
      parentAssetCode: 'HT-PARENT',
      officeCode: 'SOUTH',
    });
    // A sub-asset the caller sees still holds it.
    expect((await asset('HT-SEEN', { parentAssetCode: 'HT-PARENT', officeCode: 'NORTH-A' })).statusCode).toBe(
      201,
    );
    expectErrors(
      await asset('HT-PARENT', { officeCode: 'NORTH' }, 'north'),
      400,
      'referentials.asset.transfer.subassets',
    );
  });

  it('office isolation of assets', async () => {
    expect((await asset('A-S', { officeCode: 'SOUTH' })).statusCode).toBe(201);
    expectErrors(await get('assets', 'A-S', 'north'), 404, 'referentials.asset.not.found');
    expectErrors(await asset('A-S', {}, 'north'), 400, 'referentials.asset.office.unknown');
    expectErrors(
      await asset('A-N3', { parentAssetCode: 'A-S' }, 'north'),
      400,
      'referentials.asset.parent.unknown',
    );
    expectErrors(
      await asset('A-N3', { siteCode: 'S-SOUTH' }, 'north'),
      400,
      'referentials.asset.site.unknown',
    );
    expect((await get('assets', 'A-S', 'south')).json().name).toBe('A-S');
  });

  it('a __proto__ custom field is refused as unknown (asset.custom.field.unknown), never dropped', async () => {
    const raw = '{"name":"x","customFields":{"__proto__":{"timeValue":5}}}';
    const res = await t.api(putAsset, { params: { assetCode: 'A-PROTO' }, raw });
    expectErrors(res, 400, 'referentials.asset.custom.field.unknown');
    expect(codesOf(res)).toEqual(['referentials.asset.custom.field.unknown']);
    const top = await t.api(putAsset, {
      params: { assetCode: 'A-PROTO' },
      raw: '{"name":"x","__proto__":{}}',
    });
    expect(codesOf(top)).toEqual(['referentials.asset.field.unknown']);
    expectErrors(await get('assets', 'A-PROTO'), 404, 'referentials.asset.not.found');
  });

  it('custom fields of assets', async () => {
    await t.db
      .insertInto('custom_field_definitions')
      .values({
        tenant_id: t.tenants.ROOT,
        entity: 'asset',
        code: 'POWER',
        label: 'Power',
        type: 'timeValue',
        mandatory: true,
      })
      .execute();
    expectErrors(await asset('A-CF'), 400, 'referentials.asset.custom.field.mandatory');
    expectErrors(
      await asset('A-CF', { customFields: { POWER: { textValue: 'x' } } }),
      400,
      'referentials.asset.custom.field.invalid',
    );
    expect((await asset('A-CF', { customFields: { power: { timeValue: 5 } } })).statusCode).toBe(201);
    expect((await get('assets', 'A-CF')).json().customFields).toEqual({ POWER: { timeValue: 5 } });
    await t.db.deleteFrom('custom_field_definitions').where('code', '=', 'POWER').execute();
  });
});

describe('codes are unique per tenant (a root office and its offices)', () => {
  const list = async (kind: 'customers' | 'assets', as: TestClient) =>
    (await t.api(kind === 'customers' ? listCustomers : listAssets, { as })).json().data as Record<
      string,
      unknown
    >[];

  it('another tenant PUTs a taken code as a free one (201): its own record; neither sees the other', async () => {
    expect((await customer('T-CUST')).statusCode).toBe(201);
    expect((await site('T-SITE', { customerCode: 'T-CUST' })).statusCode).toBe(201);
    expect((await asset('T-ASSET', { siteCode: 'T-SITE' })).statusCode).toBe(201);
    // The answers of a taken code and of a free one are the same: 201, then 204.
    for (const code of ['T-CUST', 'T-FREE-C']) {
      expect((await customer(code, { name: 'Rival' }, 'rival')).statusCode).toBe(201);
      expect((await customer(code, { name: 'Rival 2' }, 'rival')).statusCode).toBe(204);
    }
    for (const code of ['T-SITE', 'T-FREE-S']) {
      expect((await site(code, { customerCode: 'T-CUST', name: 'Rival' }, 'rival')).statusCode).toBe(201);
      expect((await site(code, { customerCode: 'T-CUST', name: 'Rival 2' }, 'rival')).statusCode).toBe(204);
    }
    for (const code of ['T-ASSET', 'T-FREE-A']) {
      expect((await asset(code, { siteCode: 'T-SITE', name: 'Rival' }, 'rival')).statusCode).toBe(201);
      expect((await asset(code, { siteCode: 'T-SITE', name: 'Rival 2' }, 'rival')).statusCode).toBe(204);
    }
    // References resolve inside the tenant: the rival's site and asset hang on its customer.
    expect((await get('sites', 'T-SITE', 'rival')).json()).toMatchObject({
      name: 'Rival 2',
      customerCode: 'T-CUST',
      officeCode: 'RIVAL',
    });
    expect((await get('assets', 'T-ASSET', 'rival')).json()).toMatchObject({
      name: 'Rival 2',
      siteCode: 'T-SITE',
      customerCode: 'T-CUST',
      officeCode: 'RIVAL',
    });
    // ROOT's records are untouched and ROOT never sees the rival's.
    expect((await get('customers', 'T-CUST')).json()).toMatchObject({ name: 'T-CUST', officeCode: 'ROOT' });
    expect((await get('sites', 'T-SITE')).json()).toMatchObject({ name: 'Plant', officeCode: 'ROOT' });
    expect((await get('assets', 'T-ASSET')).json()).toMatchObject({ name: 'T-ASSET', officeCode: 'ROOT' });
    expectErrors(await get('customers', 'T-FREE-C'), 404, 'referentials.customer.not.found');
    const rivalCodes = (await list('customers', 'rival')).map((c) => c.customerCode);
    expect(rivalCodes).toEqual(['T-CUST', 'T-FREE-C']);
    expect((await list('customers', 'root')).filter((c) => c.officeCode === 'RIVAL')).toEqual([]);
    expect((await list('assets', 'root')).filter((a) => a.officeCode === 'RIVAL')).toEqual([]);
  });

  it("a tenant cannot reach another's records as references, parents or offices", async () => {
    expect((await customer('T-ONLY-ROOT')).statusCode).toBe(201);
    expectErrors(
      await customer('T-RC', { parentCustomerCode: 'T-ONLY-ROOT' }, 'rival'),
      400,
      'referentials.customer.parent.unknown',
    );
    expectErrors(
      await site('T-RS', { customerCode: 'T-ONLY-ROOT' }, 'rival'),
      400,
      'referentials.site.customer.unknown',
    );
    expectErrors(
      await customer('T-RC', { officeCode: 'ROOT' }, 'rival'),
      400,
      'referentials.customer.office.unknown',
    );
  });

  it('inside a tenant the offices share codes: a sibling PUT on a code held in another tree is refused', async () => {
    expect((await customer('T-SHARED', { officeCode: 'SOUTH' })).statusCode).toBe(201);
    expectErrors(await customer('T-SHARED', {}, 'north'), 400, 'referentials.customer.office.unknown');
    expect((await get('customers', 'T-SHARED', 'south')).json().name).toBe('T-SHARED');
  });
});
