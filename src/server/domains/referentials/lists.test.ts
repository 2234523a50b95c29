import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getAsset,
  getCustomer,
  listAssets,
  listCustomers,
  listCustomFieldDefinitions,
  listOffices,
  listSites,
  putCustomer,
} from '../../../contract/referentials.ts';
import { parseImportText, runImport } from '../../cli/importFile.ts';
import { type ApiOptions, codesOf } from '../../testing/api.ts';
import type { TestApp, TestClient } from '../../testing/harness.ts';
import { parentsFirst } from './importers.ts';
import { createReferentialsTestApp } from './testApp.ts';

let t: TestApp;
/** The customer list, as a client. */
const customers = (query: ApiOptions<typeof listCustomers>['query'] = {}, as: TestClient = 'root') =>
  t.api(listCustomers, { query, as });
const customer = (code: string, extra: Record<string, unknown> = {}) => ({
  customerCode: code,
  name: `Name ${code}`,
  addressDetails: { city: code.endsWith('7') ? 'Grenoble' : 'Lyon' },
  ...extra,
});

beforeAll(async () => {
  t = await createReferentialsTestApp();
  // 250 customers through the import (one transaction), spread over offices.
  const rows = Array.from({ length: 250 }, (_, i) => {
    const code = `L${String(i).padStart(3, '0')}`;
    return customer(code, { officeCode: i % 5 === 0 ? 'SOUTH' : i % 5 === 1 ? 'NORTH-A' : 'ROOT' });
  });
  await runImport(t.db, { customers: rows });
});
afterAll(() => t.close());

describe('customer list extension', () => {
  it('pages 100 at a time sorted by code, without duplicates, until a null token', async () => {
    const pages = await t.pages<{ customerCode: string }>(listCustomers);
    for (const page of pages) expect(page.data.length).toBeLessThanOrEqual(100);
    const seen = pages.flatMap((p) => p.data.map((c) => c.customerCode));
    expect(pages).toHaveLength(3);
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);
    expect([...seen].sort()).toEqual(seen);
  });

  it('elements have the shape of the GET', async () => {
    const page = (await customers({ q: 'L001' })).json();
    const one = (await t.api(getCustomer, { params: { customerCode: 'L001' } })).json();
    expect(page.data).toEqual([one]);
  });

  it('filters: q on code, name or city; officeCode with its descendants; parentCode', async () => {
    expect((await customers({ q: 'grenoble' })).json().data).toHaveLength(25);
    expect((await customers({ q: 'name l01' })).json().data).toHaveLength(10);
    expect((await customers({ q: '%' })).json().data).toHaveLength(0);
    const north = (await customers({ officeCode: 'north' })).json();
    expect(north.data).toHaveLength(50);
    expect(north.data.every((c: { officeCode: string }) => c.officeCode === 'NORTH-A')).toBe(true);
    await t.api(putCustomer, {
      params: { customerCode: 'L000-CHILD' },
      body: { name: 'c', parentCustomerCode: 'L000', addressDetails: { city: 'x' } },
    });
    expect(
      (await customers({ parentCode: 'l000' }))
        .json()
        .data.map((c: { customerCode: string }) => c.customerCode),
    ).toEqual(['L000-CHILD']);
  });

  it('office scope: NORTH lists only its tree; an officeCode outside it is unknown', async () => {
    const res = await customers({ officeCode: 'NORTH-A' }, 'north');
    expect(res.json().data).toHaveLength(50);
    const all = (await customers({}, 'south')).json();
    expect(all.data.every((c: { officeCode: string }) => c.officeCode === 'SOUTH')).toBe(true);
    const bad = await customers({ officeCode: 'SOUTH' }, 'north');
    expect(bad.statusCode).toBe(400);
    expect(codesOf(bad)).toEqual(['referentials.customer.office.unknown']);
  });

  it('a tampered or foreign continuation token is a 400 referentials.continuationToken.invalid', async () => {
    const token = (await customers()).json().continuationToken as string;
    const [payload, sig] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ e: 'listCustomers', p: 'L200' })).toString('base64url')}.${sig}`;
    for (const bad of ['garbage', `${payload}.AAAA${sig.slice(4)}`, forged, `${token}.x`]) {
      const res = await customers({ continuationToken: bad });
      expect(res.statusCode).toBe(400);
      expect(codesOf(res)).toEqual(['referentials.continuationToken.invalid']);
    }
    // A token of the customer list is not one of the site list.
    const res = await t.api(listSites, { query: { continuationToken: token } });
    expect(codesOf(res)).toEqual(['referentials.continuationToken.invalid']);
  });

  it('a token is bound to the filters it came with: reused with other filters it is a 400', async () => {
    const first = (await customers({ q: 'L' })).json();
    expect(first.continuationToken).toEqual(expect.any(String));
    const token = first.continuationToken;
    expect((await customers({ q: 'L', continuationToken: token })).statusCode).toBe(200);
    for (const other of [{ q: 'L0', continuationToken: token }, { continuationToken: token }]) {
      const res = await customers(other);
      expect(res.statusCode, JSON.stringify(other)).toBe(400);
      expect(codesOf(res)).toEqual(['referentials.continuationToken.invalid']);
    }
  });

  it('keyset order holds for long codes sharing a 600-character prefix', async () => {
    const prefix = 'Z'.repeat(600);
    const rows = Array.from({ length: 120 }, (_, i) =>
      customer(`${prefix}${String(119 - i).padStart(3, '0')}`),
    );
    await runImport(t.db, { customers: rows });
    const pages = await t.pages<{ customerCode: string }>(listCustomers, { query: { q: 'ZZZZ' } });
    const seen = pages.flatMap((p) => p.data.map((c) => c.customerCode.slice(600)));
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => String(i).padStart(3, '0')));
  });

  it('an unknown query parameter is refused', async () => {
    // Outside the row's query: its path with a query of its own.
    const res = await t.call('GET', `${listCustomers.path}?colour=red`);
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toEqual(['referentials.customer.field.unknown']);
  });
});

describe('site and asset list extensions', () => {
  beforeAll(async () => {
    await runImport(t.db, {
      sites: [
        {
          siteCode: 'LS-2',
          name: 'Two',
          customerCode: 'L002',
          parentSiteCode: 'LS-1',
          location: { addressDetails: { address: 'a', city: 'Paris' } },
        },
        {
          siteCode: 'LS-1',
          name: 'One',
          customerCode: 'L002',
          location: { addressDetails: { address: 'a', city: 'Lille' } },
        },
        {
          siteCode: 'LS-3',
          name: 'Three',
          customerCode: 'L003',
          location: { addressDetails: { address: 'a', city: 'Lille' } },
        },
      ],
      assets: [
        { assetCode: 'LA-2', name: 'Pump', parentAssetCode: 'LA-1', siteCode: 'LS-1', serialNumber: 'XYZ-9' },
        { assetCode: 'LA-1', name: 'Boiler', siteCode: 'LS-1' },
        { assetCode: 'LA-3', name: 'Fan', siteCode: 'LS-3' },
      ],
    });
  });

  it('sites: filters customerCode, parentCode, q', async () => {
    const sites = (query: ApiOptions<typeof listSites>['query']) =>
      t.api(listSites, { query }).then((r) => r.json().data.map((s: { siteCode: string }) => s.siteCode));
    expect(await sites({})).toEqual(['LS-1', 'LS-2', 'LS-3']);
    expect(await sites({ customerCode: 'l002' })).toEqual(['LS-1', 'LS-2']);
    expect(await sites({ parentCode: 'LS-1' })).toEqual(['LS-2']);
    expect(await sites({ q: 'lille' })).toEqual(['LS-1', 'LS-3']);
    expect((await t.api(listSites)).json().data[0].location.addressDetails.city).toBe('Lille');
  });

  it('assets: filters siteCode, customerCode, parentCode, q (serial number)', async () => {
    const assets = (query: ApiOptions<typeof listAssets>['query']) =>
      t.api(listAssets, { query }).then((r) => r.json().data.map((s: { assetCode: string }) => s.assetCode));
    expect(await assets({})).toEqual(['LA-1', 'LA-2', 'LA-3']);
    expect(await assets({ siteCode: 'LS-1' })).toEqual(['LA-1', 'LA-2']);
    expect(await assets({ customerCode: 'L003' })).toEqual(['LA-3']);
    expect(await assets({ parentCode: 'LA-1' })).toEqual(['LA-2']);
    expect(await assets({ q: 'xyz' })).toEqual(['LA-2']);
  });
});

describe('offices and custom-field definitions', () => {
  it('offices: the caller office and its descendants, sorted by path, own parent hidden', async () => {
    const root = (await t.api(listOffices)).json();
    expect(root.continuationToken).toBeNull();
    expect(root.data).toEqual([
      { code: 'ROOT', name: 'Head office', parentCode: null },
      { code: 'NORTH', name: 'North', parentCode: 'ROOT' },
      { code: 'NORTH-A', name: 'North A', parentCode: 'NORTH' },
      { code: 'SOUTH', name: 'South', parentCode: 'ROOT' },
    ]);
    const north = (await t.api(listOffices, { as: 'north' })).json();
    expect(north.data).toEqual([
      { code: 'NORTH', name: 'North', parentCode: null },
      { code: 'NORTH-A', name: 'North A', parentCode: 'NORTH' },
    ]);
  });

  it('customFieldDefinitions by entity, or all', async () => {
    await t.db
      .insertInto('custom_field_definitions')
      .values([
        {
          tenant_id: t.tenants.ROOT,
          entity: 'site',
          code: 'ZONE',
          label: 'Zone',
          type: 'dropDownValue',
          mandatory: false,
          values: JSON.stringify(['A', 'B']),
        },
        {
          tenant_id: t.tenants.ROOT,
          entity: 'asset',
          code: 'POWER',
          label: null,
          type: 'timeValue',
          mandatory: true,
        },
      ])
      .execute();
    const site = (await t.api(listCustomFieldDefinitions, { query: { entity: 'site' } })).json();
    expect(site).toEqual({
      continuationToken: null,
      data: [
        {
          entity: 'site',
          code: 'ZONE',
          label: 'Zone',
          type: 'dropDownValue',
          mandatory: false,
          values: ['A', 'B'],
        },
      ],
    });
    expect((await t.api(listCustomFieldDefinitions)).json().data).toHaveLength(2);
    const bad = await t.api(listCustomFieldDefinitions, { query: { entity: 'planet' } });
    expect(bad.statusCode).toBe(400);
    expect(codesOf(bad)).toEqual(['referentials.entity.invalid']);
    await t.db.deleteFrom('custom_field_definitions').execute();
  });
});

describe('importers', () => {
  it('is idempotent: a second import changes nothing', async () => {
    const doc = {
      customers: [customer('IMP-C', { parentCustomerCode: 'IMP-P' }), customer('IMP-P')],
      sites: [
        {
          siteCode: 'IMP-S',
          name: 's',
          customerCode: 'IMP-C',
          location: {
            addressDetails: { address: 'a', city: 'b' },
            geolocation: { latitude: 1.5, longitude: 2 },
          },
        },
      ],
      assets: [{ assetCode: 'IMP-A', name: 'a', siteCode: 'IMP-S' }],
    };
    const first = await runImport(t.db, doc);
    expect(first.map((r) => [r.key, r.created, r.updated])).toEqual([
      ['customers', 2, 0],
      ['sites', 1, 0],
      ['assets', 1, 0],
    ]);
    const before = (await t.api(getAsset, { params: { assetCode: 'IMP-A' } })).json();
    const second = await runImport(t.db, doc);
    expect(second.map((r) => [r.key, r.created, r.updated])).toEqual([
      ['customers', 0, 0],
      ['sites', 0, 0],
      ['assets', 0, 0],
    ]);
    expect((await t.api(getAsset, { params: { assetCode: 'IMP-A' } })).json()).toEqual(before);
    expect(before.customerCode).toBe('IMP-C');
    expect((await t.api(getCustomer, { params: { customerCode: 'IMP-C' } })).json().parentCustomerCode).toBe(
      'IMP-P',
    );
  });

  it("a row lands in its officeCode's tenant: a code taken in another tenant is a new record there", async () => {
    await runImport(t.db, {
      customers: [customer('IMP-T')],
      assets: [{ assetCode: 'IMP-TA', name: 'root' }],
    });
    const doc = {
      customers: [
        customer('IMP-T', { officeCode: 'RIVAL', name: 'rival' }),
        customer('IMP-T2', { officeCode: 'RIVAL', parentCustomerCode: 'IMP-T' }),
        // No officeCode: the tenant (and office) of its parent, held by RIVAL only.
        customer('IMP-T3', { parentCustomerCode: 'IMP-T2' }),
      ],
      assets: [{ assetCode: 'IMP-TA', name: 'rival', officeCode: 'RIVAL', customerCode: 'IMP-T' }],
    };
    const first = await runImport(t.db, doc);
    expect(first.map((r) => [r.key, r.created, r.updated])).toEqual([
      ['customers', 3, 0],
      ['assets', 1, 0],
    ]);
    expect((await runImport(t.db, doc)).map((r) => [r.key, r.created, r.updated])).toEqual([
      ['customers', 0, 0],
      ['assets', 0, 0],
    ]);
    const read = (kind: 'customers' | 'assets', code: string, as: TestClient) =>
      (kind === 'customers'
        ? t.api(getCustomer, { params: { customerCode: code }, as })
        : t.api(getAsset, { params: { assetCode: code }, as })
      ).then((r) => r.json());
    expect(await read('customers', 'IMP-T', 'rival')).toMatchObject({ name: 'rival', officeCode: 'RIVAL' });
    expect(await read('customers', 'IMP-T2', 'rival')).toMatchObject({ parentCustomerCode: 'IMP-T' });
    expect(await read('customers', 'IMP-T3', 'rival')).toMatchObject({ officeCode: 'RIVAL' });
    expect(await read('customers', 'IMP-T', 'root')).toMatchObject({
      name: 'Name IMP-T',
      officeCode: 'ROOT',
    });
    expect(await read('assets', 'IMP-TA', 'rival')).toMatchObject({ name: 'rival', customerCode: 'IMP-T' });
    expect(await read('assets', 'IMP-TA', 'root')).toMatchObject({ name: 'root', officeCode: 'ROOT' });
  });

  it('a refused row fails the whole import with the API code and the element', async () => {
    const doc = { customers: [customer('IMP-OK'), customer('IMP-BAD', { parentCustomerCode: 'NOBODY' })] };
    await expect(runImport(t.db, doc)).rejects.toThrow(/referentials\.customer\.parent\.unknown.*IMP-BAD/);
    expect((await t.api(getCustomer, { params: { customerCode: 'IMP-OK' } })).statusCode).toBe(404);
  });

  it('a __proto__ custom field in the file is refused by JSON path, not dropped', async () => {
    const doc = parseImportText(
      '{"customers":[{"customerCode":"IMP-PROTO","name":"x","addressDetails":{"city":"c"},"customFields":{"__proto__":{"textValue":"x"}}}]}',
    );
    await expect(runImport(t.db, doc)).rejects.toThrow(
      /^customers\[0\]\.customFields: unknown field __proto__$/,
    );
    expect((await t.api(getCustomer, { params: { customerCode: 'IMP-PROTO' } })).statusCode).toBe(404);
  });

  it('parentsFirst orders parents before children and survives a cycle', () => {
    const rows = [
      { c: 'C', p: 'B' },
      { c: 'B', p: 'A' },
      { c: 'A', p: null },
      { c: 'X', p: 'Y' },
      { c: 'Y', p: 'X' },
    ];
    const sorted = parentsFirst(
      rows,
      (r) => r.c,
      (r) => r.p,
    ).map((r) => r.c);
    expect(sorted.indexOf('A')).toBeLessThan(sorted.indexOf('B'));
    expect(sorted.indexOf('B')).toBeLessThan(sorted.indexOf('C'));
    expect(sorted).toHaveLength(5);
  });
});
