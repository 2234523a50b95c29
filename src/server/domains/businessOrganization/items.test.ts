import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BusinessOrganizationCodes as C,
  getItem,
  listItemCategories,
  listItems,
  listItemsDeprecated,
  putItem,
} from '../../../contract/businessOrganization.ts';
import { listSkills } from '../../../contract/staff.ts';
import { asTenant } from '../../db/tenant.ts';
import { type ApiOptions, codesOf } from '../../testing/api.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { businessOrganizationImporters } from './importers.ts';

const UNLIMITED = {
  high: { perMinute: 1e9, perHour: 1e9 },
  standard: { perMinute: 1e9, perHour: 1e9 },
  low: { perMinute: 1e9, perHour: 1e9 },
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: UNLIMITED });
});
afterAll(() => t?.close());
/** Statements of ROOT's tenant, as a request of ROOT makes them (db/tenant.ts). */
const inRoot = <T>(fn: () => Promise<T>) => asTenant(t.tenants.ROOT, fn);

const put = (code: string, body: unknown) => t.api(putItem, { params: { itemCode: code }, body });
const get = (code: string) => t.api(getItem, { params: { itemCode: code } });
const row = (code: string) =>
  t.db.selectFrom('items').selectAll().where('code', '=', code).executeTakeFirst();

const FULL = {
  name: 'Copper pipe 15 mm',
  category: 'Plumbing',
  description: 'Sold by the metre',
  unit: 'metre',
  unitPrice: 12.5,
  vatRates: [20, 5.5],
  reference: 'CU-15',
  barCode: '3560070894222',
  manufacturer: 'Acme',
  fixedPrice: true,
  serialNumberPattern: '^SN-\\d{6}$',
  active: false,
};

describe('PUT and GET /businessOrganization/v1/items/code:{itemCode}', () => {
  it('creates (201), reads every field back, updates (204), code case-insensitive', async () => {
    let res = await put('pipe-15', FULL);
    expect(res.statusCode).toBe(201);
    expect(res.body).toBe('');

    res = await get('PIPE-15');
    expect(res.statusCode).toBe(200);
    const item = res.json();
    expect(item).toEqual({ itemCode: 'PIPE-15', ...FULL, customFields: {}, lastUpdate: item.lastUpdate });
    expect(item.lastUpdate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    res = await put('Pipe-15', { ...FULL, unitPrice: 13 });
    expect(res.statusCode).toBe(204);
    expect((await get('pipe-15')).json().unitPrice).toBe(13);
  });

  it('a PUT replaces the whole item: absent fields become null, flags take their defaults', async () => {
    expect((await put('pipe-15', { name: 'Pipe' })).statusCode).toBe(204);
    const item = (await get('pipe-15')).json();
    expect(item).toMatchObject({
      name: 'Pipe',
      category: null,
      description: null,
      unit: null,
      unitPrice: null,
      vatRates: null,
      reference: null,
      barCode: null,
      manufacturer: null,
      fixedPrice: false,
      serialNumberPattern: null,
      active: true,
      customFields: {},
    });
  });

  it('keeps empty string, null and absent apart for every optional text field', async () => {
    const fields = [
      'category',
      'description',
      'unit',
      'reference',
      'barCode',
      'manufacturer',
      'serialNumberPattern',
    ];
    const empty = Object.fromEntries(fields.map((f) => [f, '']));
    expect([201, 204]).toContain((await put('round', { name: 'R', ...empty })).statusCode);
    expect((await get('round')).json()).toMatchObject(empty);

    const nulls = Object.fromEntries(fields.map((f) => [f, null]));
    await put('round', {
      name: 'R',
      ...nulls,
      unitPrice: null,
      vatRates: null,
      fixedPrice: null,
      active: null,
    });
    expect((await get('round')).json()).toMatchObject({
      ...nulls,
      unitPrice: null,
      vatRates: null,
      fixedPrice: false,
      active: true,
    });

    await put('round', { name: 'R', vatRates: [], unitPrice: 0 });
    expect((await get('round')).json()).toMatchObject({ ...nulls, vatRates: [], unitPrice: 0 });
  });

  it('an identical PUT answers 204 and leaves lastUpdate alone', async () => {
    await put('same', FULL);
    const before = await row('SAME');
    await new Promise((r) => setTimeout(r, 20));
    expect((await put('SAME', FULL)).statusCode).toBe(204);
    expect((await row('SAME'))?.last_update).toEqual(before?.last_update);
  });

  const refusals: [string, unknown, string][] = [
    ['itemCode in the body', { name: 'x', itemCode: 'X' }, C.itemFieldUnknown],
    ['an unknown field', { name: 'x', colour: 'red' }, C.itemFieldUnknown],
    ['name missing', { category: 'x' }, C.itemNameMandatory],
    ['name null', { name: null }, C.itemNameMandatory],
    ['name empty', { name: '' }, C.itemNameMandatory],
    ['name too long', { name: 'x'.repeat(10001) }, C.itemNameInvalid],
    ['category too long', { name: 'x', category: 'x'.repeat(201) }, C.itemCategoryInvalid],
    ['description too long', { name: 'x', description: 'x'.repeat(10001) }, C.itemDescriptionInvalid],
    ['unit too long', { name: 'x', unit: 'x'.repeat(51) }, C.itemUnitInvalid],
    ['unitPrice negative', { name: 'x', unitPrice: -1 }, C.itemUnitPriceInvalid],
    ['unitPrice with 3 decimals', { name: 'x', unitPrice: 1.005 }, C.itemUnitPriceInvalid],
    ['unitPrice as a string', { name: 'x', unitPrice: '12' }, C.itemUnitPriceInvalid],
    ['vatRates above 100', { name: 'x', vatRates: [101] }, C.itemVatRatesInvalid],
    ['vatRates negative', { name: 'x', vatRates: [-1] }, C.itemVatRatesInvalid],
    ['vatRates with 6 elements', { name: 'x', vatRates: [1, 2, 3, 4, 5, 6] }, C.itemVatRatesInvalid],
    ['vatRates not an array', { name: 'x', vatRates: 20 }, C.itemVatRatesInvalid],
    ['reference too long', { name: 'x', reference: 'x'.repeat(201) }, C.itemReferenceInvalid],
    ['barCode too long', { name: 'x', barCode: 'x'.repeat(201) }, C.itemBarCodeInvalid],
    ['manufacturer too long', { name: 'x', manufacturer: 'x'.repeat(201) }, C.itemManufacturerInvalid],
    ['fixedPrice not a boolean', { name: 'x', fixedPrice: 'yes' }, C.itemFixedPriceInvalid],
    ['active not a boolean', { name: 'x', active: 1 }, C.itemActiveInvalid],
    ['an invalid regex', { name: 'x', serialNumberPattern: '^SN-(\\d+$' }, C.itemSerialNumberPatternInvalid],
    ['another invalid regex', { name: 'x', serialNumberPattern: '[z-a]' }, C.itemSerialNumberPatternInvalid],
    ['customFields not an object', { name: 'x', customFields: [1] }, C.itemCustomFieldInvalid],
  ];
  it.each(refusals)('400 on %s, nothing written', async (_label, body, code) => {
    const res = await put('refused', body);
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toContain(code);
    expect(res.json().errorReference).toBeTruthy();
    expect(await row('REFUSED')).toBeUndefined();
  });

  it('400 on a refused update leaves the stored item unchanged', async () => {
    await put('kept', FULL);
    const before = (await get('kept')).json();
    for (const [, body] of refusals) expect((await put('kept', body)).statusCode).toBe(400);
    expect((await get('kept')).json()).toEqual(before);
  });

  it('400 businessorganization.item.invalid.json on malformed JSON or a duplicate key', async () => {
    for (const raw of ['{"name":', '{"name":"a","name":"b"}', '"x"', '']) {
      const res = await t.api(putItem, {
        params: { itemCode: 'refused' },
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, raw).toBe(400);
      expect(codesOf(res)).toEqual([C.itemInvalidJson]);
    }
    expect(await row('REFUSED')).toBeUndefined();
  });

  it('400 businessorganization.item.code.mandatory when the code is empty (PUT and GET)', async () => {
    let res = await put('', { name: 'x' });
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toEqual([C.itemCodeMandatory]);
    res = await get('');
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toEqual([C.itemCodeMandatory]);
  });

  it('400 businessorganization.item.itemcode.invalid when the code is longer than 200', async () => {
    const res = await put('A'.repeat(201), { name: 'x' });
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toEqual([C.itemCodeInvalid]);
  });

  it('404 businessorganization.item.not.found on an unknown code', async () => {
    const res = await get('nope');
    expect(res.statusCode).toBe(404);
    expect(codesOf(res)).toEqual([C.itemNotFound]);
  });

  it('is instance-wide: every office reads it, only a root office writes it (403 access.forbiden, nothing written)', async () => {
    const before = await row('PIPE-15');
    for (const as of ['north', 'northA', 'south'] as const) {
      expect((await t.api(getItem, { params: { itemCode: 'pipe-15' }, as })).statusCode).toBe(200);
      expect((await t.api(listItems, { query: { q: 'pipe-15' }, as })).json().data).toHaveLength(1);
      for (const code of ['pipe-15', 'north-new']) {
        const res = await t.api(putItem, { params: { itemCode: code }, as, body: { name: 'Pipe' } });
        expect(res.statusCode).toBe(403);
        expect(codesOf(res)).toEqual(['access.forbiden']);
      }
    }
    expect(await row('PIPE-15')).toEqual(before);
    expect(await row('NORTH-NEW')).toBeUndefined();
    expect((await put('root-new', { name: 'Pipe' })).statusCode).toBe(201);
    expect((await put('root-new', { name: 'Pipe 2' })).statusCode).toBe(204);
    const res = await t.api(putItem, {
      params: { itemCode: 'pipe-15' },
      as: 'readonly',
      body: { name: 'Pipe' },
    });
    expect(res.statusCode).toBe(403);
    expect(codesOf(res)).toEqual(['access.forbiden']);
  });
});

describe('custom fields of items', () => {
  beforeAll(async () => {
    await t.db
      .insertInto('custom_field_definitions')
      .values([
        {
          tenant_id: t.tenants.ROOT,
          entity: 'item',
          code: 'COLOR',
          label: 'Colour',
          type: 'dropDownValue',
          mandatory: false,
          values: JSON.stringify(['RED', 'BLUE']),
        },
        {
          tenant_id: t.tenants.ROOT,
          entity: 'item',
          code: 'WARRANTY',
          label: 'Warranty',
          type: 'timeValue',
          mandatory: true,
          values: null,
        },
        {
          tenant_id: t.tenants.ROOT,
          entity: 'customer',
          code: 'VIP',
          label: 'VIP',
          type: 'booleanValue',
          mandatory: false,
          values: null,
        },
      ])
      .execute();
  });
  afterAll(async () => {
    await t.db.deleteFrom('custom_field_definitions').execute();
  });

  it('stores and answers valid custom fields (codes uppercased) in GET and list', async () => {
    const res = await put('cf-ok', {
      name: 'x',
      customFields: { color: { dropDownValue: 'RED' }, WARRANTY: { timeValue: 24 } },
    });
    expect(res.statusCode).toBe(201);
    const expected = { COLOR: { dropDownValue: 'RED' }, WARRANTY: { timeValue: 24 } };
    expect((await get('cf-ok')).json().customFields).toEqual(expected);
    const list = await t.api(listItems, { query: { q: 'cf-ok' } });
    expect(list.json().data).toEqual([
      expect.objectContaining({ itemCode: 'CF-OK', customFields: expected }),
    ]);
  });

  it.each([
    ['an unknown code', { WARRANTY: { timeValue: 1 }, SIZE: { textValue: 'L' } }, C.itemCustomFieldUnknown],
    [
      "another entity's code",
      { WARRANTY: { timeValue: 1 }, VIP: { booleanValue: true } },
      C.itemCustomFieldUnknown,
    ],
    ['the mandatory one missing', { COLOR: { dropDownValue: 'RED' } }, C.itemCustomFieldMandatory],
    ['customFields absent while one is mandatory', undefined, C.itemCustomFieldMandatory],
    ['a wrong type', { WARRANTY: { textValue: '24' } }, C.itemCustomFieldInvalid],
    ['two properties in one value', { WARRANTY: { timeValue: 1, textValue: 'x' } }, C.itemCustomFieldInvalid],
    [
      'a dropdown value not defined',
      { WARRANTY: { timeValue: 1 }, COLOR: { dropDownValue: 'GREEN' } },
      C.itemCustomFieldInvalid,
    ],
    ['a non-integer time', { WARRANTY: { timeValue: 1.5 } }, C.itemCustomFieldInvalid],
  ])('400 on %s, nothing written', async (_label, customFields, code) => {
    const res = await put('cf-refused', { name: 'x', ...(customFields ? { customFields } : {}) });
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toContain(code);
    expect(await row('CF-REFUSED')).toBeUndefined();
  });

  it.each(['__proto__', 'constructor'])(
    'a %s custom field is refused as unknown, never dropped; nothing written',
    async (key) => {
      const raw = `{"name":"x","customFields":{"WARRANTY":{"timeValue":1},"${key}":{"textValue":"x"}}}`;
      const res = await t.api(putItem, { params: { itemCode: 'cf-proto' }, raw });
      expect(res.statusCode).toBe(400);
      expect(codesOf(res)).toEqual([C.itemCustomFieldUnknown]);
      expect(await row('CF-PROTO')).toBeUndefined();
    },
  );

  it.each([
    '{"name":"x","__proto__":{"active":false}}',
    '{"name":"x","constructor":{"prototype":{"polluted":1}}}',
  ])('%s: refused as an unknown field, nothing written', async (raw) => {
    const res = await t.api(putItem, { params: { itemCode: 'cf-proto' }, raw });
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toEqual([C.itemFieldUnknown]);
    expect(await row('CF-PROTO')).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('GET /businessOrganization/v1/items (list, 200 per page)', () => {
  beforeAll(async () => {
    await t.db.deleteFrom('items').execute();
    const codes = Array.from({ length: 450 }, (_, i) => `IT${String(i).padStart(4, '0')}`).sort(
      () => Math.random() - 0.5,
    );
    await t.db
      .insertInto('items')
      .values(
        codes.map((code, i) => ({
          tenant_id: t.tenants.ROOT,
          code,
          name: `Item ${code}`,
          category: i % 3 === 0 ? 'Tools' : i % 3 === 1 ? 'Parts' : null,
          reference: code === 'IT0042' ? 'REF_50%' : null,
          bar_code: code === 'IT0100' ? '999888' : null,
          active: code !== 'IT0007',
          custom_fields: '{}',
        })),
      )
      .execute();
  });

  /** Every page of the list: their sizes and the codes seen, each item with its customFields. */
  async function walk(query: ApiOptions<typeof listItems>['query'] = {}) {
    const pages = await t.pages<{ itemCode: string; customFields: unknown }>(listItems, { query });
    for (const item of pages.flatMap((p) => p.data)) expect(item.customFields).toEqual({});
    return {
      sizes: pages.map((p) => p.data.length),
      seen: pages.flatMap((p) => p.data.map((i) => i.itemCode)),
    };
  }

  it('450 items: pages of 200/200/50 in itemCode order, no duplicate, with customFields', async () => {
    const { sizes, seen } = await walk();
    expect(sizes).toEqual([200, 200, 50]);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(450);
  });

  it('the former path answers the same pages with Deprecation and Link headers', async () => {
    const now = await t.api(listItems);
    const old = await t.api(listItemsDeprecated);
    expect(old.statusCode).toBe(200);
    expect(old.headers.deprecation).toBe('true');
    expect(old.headers.link).toBe(`<${listItems.path}>; rel="successor-version"`);
    expect(now.headers.deprecation).toBeUndefined();
    expect(old.json()).toEqual(now.json());
    // Tokens of one path continue on the other: same operation.
    const next = await t.api(listItemsDeprecated, {
      query: { continuationToken: now.json().continuationToken },
    });
    expect(next.json().data[0].itemCode).toBe('IT0200');
    const filtered = await t.api(listItemsDeprecated, { query: { category: 'Tools', active: 'true' } });
    expect(filtered.json()).toEqual(
      (await t.api(listItems, { query: { category: 'Tools', active: 'true' } })).json(),
    );
  });

  it('filters (extension): q on code/name/reference/barCode, category, active', async () => {
    const q = async (query: ApiOptions<typeof listItems>['query']) =>
      (await t.api(listItems, { query })).json().data.map((i: { itemCode: string }) => i.itemCode);
    expect(await q({ q: 'it000' })).toEqual(Array.from({ length: 10 }, (_, i) => `IT000${i}`));
    expect(await q({ q: 'item it0449' })).toEqual(['IT0449']);
    expect(await q({ q: '50%' })).toEqual(['IT0042']);
    expect(await q({ q: '_' })).toEqual(['IT0042']);
    expect(await q({ q: '999888' })).toEqual(['IT0100']);
    expect(await q({ active: 'false' })).toEqual(['IT0007']);
    await put('zz-ecrou', { name: 'Écrou Ø8', reference: 'Réf-1' });
    expect(await q({ q: 'écrou ø' })).toEqual(['ZZ-ECROU']);
    expect(await q({ q: 'ÉCROU' })).toEqual(['ZZ-ECROU']);
    expect(await q({ q: 'réf-1' })).toEqual(['ZZ-ECROU']);
    expect(await q({ q: '  zz-ecr ' })).toEqual(['ZZ-ECROU']);
    // A match never spans two fields.
    expect(await q({ q: 'ø8réf' })).toEqual([]);
    await t.db.deleteFrom('items').where('code', '=', 'ZZ-ECROU').execute();
    const tools = await walk({ category: 'Tools' });
    expect(tools.seen).toHaveLength(150);
    expect(tools.sizes).toEqual([150]);
  });

  it('400 on a bad active filter', async () => {
    const res = await t.api(listItems, { query: { active: 'maybe' } });
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toEqual([C.itemActiveInvalid]);
  });

  it('400 businessOrganization.continuationToken.invalid on a tampered or foreign token', async () => {
    const token: string = (await t.api(listItems)).json().continuationToken;
    const [payload, signature] = token.split('.');
    const skills = await t.api(listSkills);
    expect(skills.statusCode).toBe(200);
    const forged = Buffer.from(
      JSON.stringify({ e: 'businessOrganization.items.list', p: 'IT0400' }),
    ).toString('base64url');
    for (const bad of [
      `${payload}A.${signature}`,
      `${forged}.${signature}`,
      'x',
      `${payload}.${signature}.`,
    ]) {
      for (const list of [listItems, listItemsDeprecated]) {
        const res = await t.api(list, { query: { continuationToken: bad } });
        expect(res.statusCode, bad).toBe(400);
        expect(codesOf(res)).toEqual([C.continuationTokenInvalid]);
      }
    }
  });

  it('itemCategories (extension): distinct non-empty categories, sorted', async () => {
    await put('empty-cat', { name: 'x', category: '' });
    const res = await t.api(listItemCategories);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ continuationToken: null, data: ['Parts', 'Tools'] });
  });
});

describe('items importer', () => {
  it('imports through the item PUT rules, idempotently', async () => {
    const [importer] = businessOrganizationImporters.filter((i) => i.key === 'items');
    expect(importer.order).toBe(220);
    const rows = importer.schema.array().parse([
      { itemCode: 'imp-1', name: 'Imported', unitPrice: 3.2, vatRates: [20] },
      { itemCode: 'IMP-2', name: 'Imported 2', serialNumberPattern: '^X' },
    ]);
    expect(await inRoot(() => t.db.transaction().execute((trx) => importer.apply(trx, rows)))).toEqual({
      created: 2,
      updated: 0,
    });
    expect(await inRoot(() => t.db.transaction().execute((trx) => importer.apply(trx, rows)))).toEqual({
      created: 0,
      updated: 0,
    });
    expect((await get('imp-1')).json()).toMatchObject({ itemCode: 'IMP-1', unitPrice: 3.2, vatRates: [20] });
    expect(importer.schema.safeParse({ itemCode: 'X', name: 'x', serialNumberPattern: '(' }).success).toBe(
      false,
    );
  });
});

describe('rate ranges (spec: Limits)', () => {
  it('items list Low, item GET High, item PUT Standard; the former path is the same Low operation', () => {
    const ranges = Object.fromEntries(
      [putItem, getItem, listItems, listItemsDeprecated].map((e) => [e.id, e.range]),
    );
    expect(ranges).toEqual({
      'businessOrganization.items.put': 'standard',
      'businessOrganization.items.get': 'high',
      'businessOrganization.items.list': 'low',
      'referentials.items.list': 'low',
    });
  });

  it('429 ratelimiter.toomanyrequest once the Low range is spent; High still answers', async () => {
    const small = await createTestApp({
      rateLimits: {
        high: { perMinute: 100, perHour: 100 },
        standard: { perMinute: 100, perHour: 100 },
        low: { perMinute: 2, perHour: 100 },
      },
    });
    try {
      expect((await small.api(listItems)).statusCode).toBe(200);
      expect((await small.api(listItemsDeprecated)).statusCode).toBe(200);
      const res = await small.api(listItems);
      expect(res.statusCode).toBe(429);
      expect(codesOf(res)).toEqual(['ratelimiter.toomanyrequest']);
      expect((await small.api(getItem, { params: { itemCode: 'none' } })).statusCode).toBe(404);
    } finally {
      await small.close();
    }
  });
});

describe('list query refusals and concurrency', () => {
  it('400 businessorganization.item.q.invalid / category.invalid on filters longer than 200', async () => {
    let res = await t.api(listItems, { query: { q: 'x'.repeat(201) } });
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toEqual([C.itemQInvalid]);
    res = await t.api(listItems, { query: { category: 'x'.repeat(201) } });
    expect(res.statusCode).toBe(400);
    expect(codesOf(res)).toEqual([C.itemCategoryInvalid]);
  });

  it('concurrent PUTs of a new code: exactly one 201, the others 204', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => put(i % 2 ? 'race' : 'RACE', { name: `Race ${i}` })),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 204, 204, 204, 204, 204]);
  });
});
