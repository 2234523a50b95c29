import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCustomer, putCustomer } from '../../../contract/referentials.ts';
import { codesOf, expectErrors, pathOf } from '../../testing/api.ts';
import type { TestApp, TestClient } from '../../testing/harness.ts';
import { createReferentialsTestApp } from './testApp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createReferentialsTestApp();
  await t.db
    .insertInto('custom_field_definitions')
    .values({
      tenant_id: t.tenants.ROOT,
      entity: 'customer',
      code: 'SEGMENT',
      label: 'Segment',
      type: 'textValue',
      mandatory: false,
    })
    .execute();
});
afterAll(() => t.close());

const body = (extra: Record<string, unknown> = {}) => ({
  name: 'Acme',
  addressDetails: { city: 'Lyon' },
  ...extra,
});
const put = (code: string, b: unknown = body(), as: TestClient = 'root') =>
  t.api(putCustomer, { params: { customerCode: code }, body: b, as });
const get = (code: string, as: TestClient = 'root') =>
  t.api(getCustomer, { params: { customerCode: code }, as });

describe('customer PUT / GET', () => {
  it('creates (201), updates (204) without body, and reads back with customerCode, officeCode, lastUpdate', async () => {
    const created = await put('C-BASIC');
    expect(created.statusCode).toBe(201);
    expect(created.body).toBe('');
    const updated = await put('C-BASIC', body({ name: 'Acme 2' }));
    expect(updated.statusCode).toBe(204);
    expect(updated.body).toBe('');
    const res = await get('C-BASIC');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      customerCode: 'C-BASIC',
      name: 'Acme 2',
      parentCustomerCode: null,
      officeCode: 'ROOT',
      contact: null,
      addressDetails: { address: null, zipCode: null, city: 'Lyon', country: null },
      description: null,
      customFields: {},
      lastUpdate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
  });

  it('is case-insensitive: PUT lowercase, GET uppercase reach the same record', async () => {
    expect((await put('c-case', body({ parentCustomerCode: null }))).statusCode).toBe(201);
    const res = await get('C-CASE');
    expect(res.statusCode).toBe(200);
    expect(res.json().customerCode).toBe('C-CASE');
    expect((await put('C-Case', body({ name: 'Other' }))).statusCode).toBe(204);
    expect((await get('c-cAsE')).json().name).toBe('Other');
  });

  it('uppercases code fields of the body (parentCustomerCode, officeCode)', async () => {
    await put('C-UP-P');
    expect(
      (await put('C-UP-C', body({ parentCustomerCode: 'c-up-p', officeCode: 'north' }))).statusCode,
    ).toBe(201);
    const r = (await get('C-UP-C')).json();
    expect(r.parentCustomerCode).toBe('C-UP-P');
    expect(r.officeCode).toBe('NORTH');
  });

  it('keeps empty string, null and absent apart (absent is returned null)', async () => {
    const b = {
      name: 'Rt',
      description: '',
      contact: { name: '', details: [{ value: '', description: null }] },
      addressDetails: { city: 'Nice', address: '', zipCode: null },
    };
    expect((await put('C-NULLS', b)).statusCode).toBe(201);
    const r = (await get('C-NULLS')).json();
    expect(r.description).toBe('');
    expect(r.contact).toEqual({ name: '', details: [{ type: 'Phone', value: '', description: null }] });
    expect(r.addressDetails).toEqual({ address: '', zipCode: null, city: 'Nice', country: null });
    // A PUT is a full replacement: what is absent now is null.
    expect((await put('C-NULLS', { name: 'Rt', addressDetails: { city: 'Nice' } })).statusCode).toBe(204);
    const r2 = (await get('C-NULLS')).json();
    expect(r2.description).toBeNull();
    expect(r2.contact).toBeNull();
    expect(r2.addressDetails.address).toBeNull();
  });

  it('contact: type defaults to Phone, 15 details accepted, 16 refused', async () => {
    const details = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ value: `0${i}`, type: i ? 'Email' : undefined }));
    expect(
      (await put('C-CONTACT', body({ contact: { name: 'Bob', details: details(15) } }))).statusCode,
    ).toBe(201);
    const r = (await get('C-CONTACT')).json();
    expect(r.contact.details).toHaveLength(15);
    expect(r.contact.details[0].type).toBe('Phone');
    expect(r.contact.details[1].type).toBe('Email');
    expectErrors(
      await put('C-CONTACT', body({ contact: { details: details(16) } })),
      400,
      'referentials.customer.details.invalid',
    );
    expectErrors(
      await put('C-CONTACT', body({ contact: { details: [{ value: 'x', type: 'Pager' }] } })),
      400,
      'referentials.customer.type.invalid',
    );
    expectErrors(
      await put('C-CONTACT', body({ contact: { details: [{ value: 'x'.repeat(101) }] } })),
      400,
      'referentials.customer.value.invalid',
    );
    expectErrors(
      await put('C-CONTACT', body({ contact: { details: [{ value: 'x', description: 'd'.repeat(201) }] } })),
      400,
      'referentials.customer.description.invalid',
    );
    expectErrors(
      await put('C-CONTACT', body({ contact: { details: [{ type: 'Fax' }] } })),
      400,
      'referentials.customer.value.mandatory',
    );
  });

  it('address: country must be two uppercase letters, zipCode at most 20, city 1..256', async () => {
    expect(
      (
        await put(
          'C-ADDR',
          body({ addressDetails: { city: 'Lyon', country: 'FR', zipCode: '6'.repeat(20) } }),
        )
      ).statusCode,
    ).toBe(201);
    expectErrors(
      await put('C-ADDR', body({ addressDetails: { city: 'Lyon', country: 'fr' } })),
      400,
      'referentials.customer.country.invalid',
    );
    expectErrors(
      await put('C-ADDR', body({ addressDetails: { city: 'Lyon', country: 'FRA' } })),
      400,
      'referentials.customer.country.invalid',
    );
    expectErrors(
      await put('C-ADDR', body({ addressDetails: { city: 'Lyon', zipCode: '6'.repeat(21) } })),
      400,
      'referentials.customer.zipcode.invalid',
    );
    expectErrors(
      await put('C-ADDR', body({ addressDetails: { city: 'x'.repeat(257) } })),
      400,
      'referentials.customer.city.invalid',
    );
    expectErrors(
      await put('C-ADDR', body({ description: 'd'.repeat(10001) })),
      400,
      'referentials.customer.description.invalid',
    );
  });
});

describe('customer error codes (spec: Errors, Referentials)', () => {
  it('400 referentials.customer.code.mandatory: code missing in path', async () => {
    expectErrors(await put(''), 400, 'referentials.customer.code.mandatory');
    expectErrors(await put('%20'), 400, 'referentials.customer.code.mandatory');
    expectErrors(await get(''), 400, 'referentials.customer.code.mandatory');
  });

  it('400 referentials.customer.name.mandatory: name missing', async () => {
    expectErrors(
      await put('C-E1', { addressDetails: { city: 'Lyon' } }),
      400,
      'referentials.customer.name.mandatory',
    );
    expectErrors(
      await put('C-E1', { name: null, addressDetails: { city: 'Lyon' } }),
      400,
      'referentials.customer.name.mandatory',
    );
  });

  it('an empty name or city counts as missing', async () => {
    expectErrors(await put('C-E1', body({ name: '' })), 400, 'referentials.customer.name.mandatory');
    expectErrors(
      await put('C-E1', body({ addressDetails: { city: '' } })),
      400,
      'referentials.customer.city.mandatory',
    );
    expect(codesOf(await put('C-E1', body({ name: '' })))).toEqual(['referentials.customer.name.mandatory']);
  });

  it('two simultaneous PUTs of a new code: one creates, the other updates', async () => {
    const [a, b] = await Promise.all([
      put('C-RACE', body({ name: 'a' })),
      put('C-RACE', body({ name: 'b' })),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 204]);
  });

  it('two simultaneous parent changes that would close a cycle: one is refused (the tree locks)', async () => {
    expect((await put('C-CYA')).statusCode).toBe(201);
    expect((await put('C-CYB')).statusCode).toBe(201);
    const [a, b] = await Promise.all([
      put('C-CYA', body({ parentCustomerCode: 'C-CYB' })),
      put('C-CYB', body({ parentCustomerCode: 'C-CYA' })),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([204, 400]);
    expect(codesOf(a.statusCode === 400 ? a : b)).toEqual(['referentials.customer.office.hierarchy.error']);
  });

  it('codes of up to 10000 characters (spec: length 1..10000); 10001 refused', async () => {
    const long = (n: number) =>
      Array.from({ length: n }, (_, i) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'[(i * 7919 + n) % 36]).join(
        '',
      );
    const parent = long(10000);
    expect((await put(parent)).statusCode).toBe(201);
    expect((await put(long(9999), body({ parentCustomerCode: parent.toLowerCase() }))).statusCode).toBe(201);
    const res = await get(long(9999).toLowerCase());
    expect(res.statusCode).toBe(200);
    expect(res.json().parentCustomerCode).toBe(parent);
    expectErrors(await put(long(10001)), 400, 'referentials.customer.customercode.invalid');
  });

  it('codes hold ASCII letters, digits, "-", "_" and "." only; spaces, punctuation and other letters refused', async () => {
    expect((await put('Ascii_1.a-B')).statusCode).toBe(201);
    expect((await get('ASCII_1.A-B')).statusCode).toBe(200);
    const nonAscii = ['Ünïcode', 'straße', 'ı', 'ſ'].map(encodeURIComponent);
    for (const bad of ['BAD%20CODE', 'BAD!', 'A%2FB', 'A%3BB', ...nonAscii]) {
      expectErrors(await put(bad), 400, 'referentials.customer.customercode.invalid');
      expectErrors(await get(bad), 400, 'referentials.customer.customercode.invalid');
    }
    expectErrors(
      await put('C-REF', body({ officeCode: 'NO RTH' })),
      400,
      'referentials.customer.officecode.invalid',
    );
    expectErrors(
      await put('C-REF', body({ parentCustomerCode: 'C BASIC' })),
      400,
      'referentials.customer.parentcustomercode.invalid',
    );
    expect((await get('C-REF')).statusCode).toBe(404);
  });

  it('400 referentials.customer.addressdetails.mandatory: addressDetails missing', async () => {
    expectErrors(await put('C-E2', { name: 'x' }), 400, 'referentials.customer.addressdetails.mandatory');
  });

  it('400 referentials.customer.city.mandatory: city missing', async () => {
    expectErrors(
      await put('C-E3', { name: 'x', addressDetails: { zipCode: '1' } }),
      400,
      'referentials.customer.city.mandatory',
    );
  });

  it('400 referentials.customer.custom.field.mandatory: a mandatory custom field is missing', async () => {
    await t.db
      .insertInto('custom_field_definitions')
      .values({
        tenant_id: t.tenants.ROOT,
        entity: 'customer',
        code: 'VIP',
        label: null,
        type: 'booleanValue',
        mandatory: true,
      })
      .execute();
    try {
      expectErrors(await put('C-E4'), 400, 'referentials.customer.custom.field.mandatory');
      expect(
        (
          await put(
            'C-E4',
            body({ customFields: { vip: { booleanValue: true }, SEGMENT: { textValue: 'a' } } }),
          )
        ).statusCode,
      ).toBe(201);
      expect((await get('C-E4')).json().customFields).toEqual({
        VIP: { booleanValue: true },
        SEGMENT: { textValue: 'a' },
      });
      expectErrors(
        await put('C-E4', body({ customFields: { VIP: { booleanValue: true }, NOPE: { textValue: 'a' } } })),
        400,
        'referentials.customer.custom.field.unknown',
      );
    } finally {
      await t.db.deleteFrom('custom_field_definitions').where('code', '=', 'VIP').execute();
    }
  });

  it('400 referentials.customer.custom.field.unknown: a __proto__ or constructor custom field, never dropped', async () => {
    for (const key of ['__proto__', 'constructor']) {
      const raw = `{"name":"x","addressDetails":{"city":"c"},"customFields":{"${key}":{"textValue":"x"}}}`;
      const res = await t.api(putCustomer, { params: { customerCode: 'C-PROTO' }, raw });
      expectErrors(res, 400, 'referentials.customer.custom.field.unknown');
      expect(codesOf(res)).toEqual(['referentials.customer.custom.field.unknown']);
    }
    expectErrors(await get('C-PROTO'), 404, 'referentials.customer.not.found');
  });

  it('400 referentials.customer.field.unknown: __proto__ or constructor keys anywhere else in the body', async () => {
    for (const raw of [
      '{"name":"x","addressDetails":{"city":"c"},"__proto__":{"description":"y"}}',
      '{"name":"x","addressDetails":{"city":"c","__proto__":{"zipCode":"1"}}}',
      '{"name":"x","addressDetails":{"city":"c"},"contact":{"details":[{"value":"1","__proto__":{}}]}}',
      '{"name":"x","addressDetails":{"city":"c"},"constructor":{"prototype":{"polluted":1}}}',
    ]) {
      const res = await t.api(putCustomer, { params: { customerCode: 'C-PROTO' }, raw });
      expectErrors(res, 400, 'referentials.customer.field.unknown');
      expect(codesOf(res)).toEqual(['referentials.customer.field.unknown']);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expectErrors(await get('C-PROTO'), 404, 'referentials.customer.not.found');
  });

  it('400 referentials.customer.invalid.json: malformed JSON or duplicate field', async () => {
    const raw = (text: string) => t.api(putCustomer, { params: { customerCode: 'C-E5' }, raw: text });
    expectErrors(await raw('{"name": "x",'), 400, 'referentials.customer.invalid.json');
    expectErrors(
      await raw('{"name":"a","name":"b","addressDetails":{"city":"c"}}'),
      400,
      'referentials.customer.invalid.json',
    );
    expectErrors(
      await raw('{"name":"a","addressDetails":{"city":"c","city":"d"}}'),
      400,
      'referentials.customer.invalid.json',
    );
  });

  it('400 referentials.customer.field.unknown: unknown field in body (also nested)', async () => {
    expectErrors(await put('C-E6', body({ colour: 'red' })), 400, 'referentials.customer.field.unknown');
    expectErrors(
      await put('C-E6', body({ addressDetails: { city: 'x', state: 'y' } })),
      400,
      'referentials.customer.field.unknown',
    );
    expectErrors(
      await put('C-E6', body({ customerCode: 'C-E6' })),
      400,
      'referentials.customer.field.unknown',
    );
  });

  it('400 referentials.customer.office.unknown: office code unknown', async () => {
    expectErrors(
      await put('C-E7', body({ officeCode: 'NOWHERE' })),
      400,
      'referentials.customer.office.unknown',
    );
  });

  it('400 referentials.customer.parent.unknown: parent customer unknown', async () => {
    expectErrors(
      await put('C-E8', body({ parentCustomerCode: 'NOBODY' })),
      400,
      'referentials.customer.parent.unknown',
    );
    expectErrors(
      await put('C-E8', body({ parentCustomerCode: '' })),
      400,
      'referentials.customer.parent.unknown',
    );
  });

  it('400 referentials.customer.parent.identical: customer is its own parent', async () => {
    expectErrors(
      await put('C-E9', body({ parentCustomerCode: 'c-e9' })),
      400,
      'referentials.customer.parent.identical',
    );
  });

  it('400 referentials.customer.office.hierarchy.error: parent is also a child of the customer', async () => {
    await put('CY-A');
    await put('CY-B', body({ parentCustomerCode: 'CY-A' }));
    await put('CY-C', body({ parentCustomerCode: 'CY-B' }));
    expectErrors(
      await put('CY-A', body({ parentCustomerCode: 'CY-C' })),
      400,
      'referentials.customer.office.hierarchy.error',
    );
    expectErrors(
      await put('CY-A', body({ parentCustomerCode: 'CY-B' })),
      400,
      'referentials.customer.office.hierarchy.error',
    );
    expect((await get('CY-A')).json().parentCustomerCode).toBeNull();
  });

  it('400 referentials.customer.office.hierarchy.error: hierarchy reaches 10 levels (9 accepted)', async () => {
    // A chain of 9 levels: D1 > D2 > ... > D9.
    for (let i = 1; i <= 9; i++)
      expect((await put(`D${i}`, body({ parentCustomerCode: i > 1 ? `D${i - 1}` : null }))).statusCode).toBe(
        201,
      );
    // A 10th level is refused...
    expectErrors(
      await put('D10', body({ parentCustomerCode: 'D9' })),
      400,
      'referentials.customer.office.hierarchy.error',
    );
    // ...and so is hanging a two-level tree (E1 > E2) under D8: 8 + 2 = 10 levels.
    await put('E1');
    await put('E2', body({ parentCustomerCode: 'E1' }));
    expectErrors(
      await put('E1', body({ parentCustomerCode: 'D8' })),
      400,
      'referentials.customer.office.hierarchy.error',
    );
    // Under D7 it makes 9 levels: accepted.
    expect((await put('E1', body({ parentCustomerCode: 'D7' }))).statusCode).toBe(204);
  });

  it('404 referentials.customer.not.found: customer unknown', async () => {
    expectErrors(await get('NOT-THERE'), 404, 'referentials.customer.not.found');
  });

  it('401 without token, 403 with a read-only application', async () => {
    const res = await t.app.inject({ method: 'GET', url: pathOf(getCustomer, { customerCode: 'X' }) });
    expect(res.statusCode).toBe(401);
    expect(codesOf(res)).toEqual(['unauthorized.nocredentials']);
    expectErrors(await put('C-RO', body(), 'readonly'), 403, 'access.forbiden');
  });
});

describe('customer office scope', () => {
  beforeAll(async () => {
    expect((await put('S-ONLY', body({ officeCode: 'SOUTH' }))).statusCode).toBe(201);
    expect((await put('N-ONLY', body(), 'north')).statusCode).toBe(201);
  });

  it('defaults officeCode to the caller office, or the parent office', async () => {
    expect((await get('N-ONLY', 'north')).json().officeCode).toBe('NORTH');
    expect((await put('N-CHILD', body({ parentCustomerCode: 'N-ONLY' }))).statusCode).toBe(201);
    expect((await get('N-CHILD')).json().officeCode).toBe('NORTH');
    // An explicit office may differ from the parent's.
    expect(
      (await put('N-CHILD2', body({ parentCustomerCode: 'N-ONLY', officeCode: 'SOUTH' }))).statusCode,
    ).toBe(201);
    expect((await get('N-CHILD2')).json().officeCode).toBe('SOUTH');
  });

  it('NORTH cannot read SOUTH customers; ROOT sees both; NORTH-A cannot read NORTH ones', async () => {
    expectErrors(await get('S-ONLY', 'north'), 404, 'referentials.customer.not.found');
    expectErrors(await get('N-ONLY', 'south'), 404, 'referentials.customer.not.found');
    expectErrors(await get('N-ONLY', 'northA'), 404, 'referentials.customer.not.found');
    expect((await get('S-ONLY')).statusCode).toBe(200);
    expect((await get('N-ONLY')).statusCode).toBe(200);
  });

  it('NORTH cannot update a SOUTH customer: refused as office.unknown, record untouched', async () => {
    expectErrors(
      await put('S-ONLY', body({ name: 'hijack' }), 'north'),
      400,
      'referentials.customer.office.unknown',
    );
    expect((await get('S-ONLY')).json().name).toBe('Acme');
  });

  it('NORTH cannot use SOUTH as office nor a SOUTH customer as parent', async () => {
    expectErrors(
      await put('N-X', body({ officeCode: 'SOUTH' }), 'north'),
      400,
      'referentials.customer.office.unknown',
    );
    expectErrors(
      await put('N-X', body({ officeCode: 'ROOT' }), 'north'),
      400,
      'referentials.customer.office.unknown',
    );
    expectErrors(
      await put('N-X', body({ parentCustomerCode: 'S-ONLY' }), 'north'),
      400,
      'referentials.customer.parent.unknown',
    );
    expectErrors(await get('N-X', 'north'), 404, 'referentials.customer.not.found');
  });

  it('a record read from a sub-office can be written back with a parent above the caller', async () => {
    await put('TOP');
    await put('TOP-NA', body({ parentCustomerCode: 'TOP', officeCode: 'NORTH-A' }));
    const read = (await get('TOP-NA', 'northA')).json();
    const { customerCode: _c, lastUpdate: _l, ...back } = read;
    expect((await put('TOP-NA', back, 'northA')).statusCode).toBe(204);
    // But a new reference to it from NORTH-A is unknown.
    expectErrors(
      await put('NA-NEW', body({ parentCustomerCode: 'TOP' }), 'northA'),
      400,
      'referentials.customer.parent.unknown',
    );
  });

  it('a refused PUT leaves the previous version intact', async () => {
    await put('C-KEEP', body({ name: 'Before', description: 'kept' }));
    const before = (await get('C-KEEP')).json();
    expectErrors(
      await put('C-KEEP', body({ name: 'After', parentCustomerCode: 'NOBODY' })),
      400,
      'referentials.customer.parent.unknown',
    );
    expectErrors(
      await put('C-KEEP', body({ name: 'After', customFields: { NOPE: { textValue: 'x' } } })),
      400,
      'referentials.customer.custom.field.unknown',
    );
    expect((await get('C-KEEP')).json()).toEqual(before);
  });

  it('an identical PUT keeps lastUpdate', async () => {
    await put('C-SAME', body({ description: 'x' }));
    const before = (await get('C-SAME')).json();
    await new Promise((r) => setTimeout(r, 1100));
    expect((await put('C-SAME', body({ description: 'x' }))).statusCode).toBe(204);
    expect((await get('C-SAME')).json().lastUpdate).toBe(before.lastUpdate);
  });
});
