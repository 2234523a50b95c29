/** The test helpers of testing/api.ts, on the referentials' customer rows. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CUSTOMER,
  getCustomer,
  listCustomers,
  putCustomer,
  REFERENTIALS_PAGE_SIZE,
} from '../../contract/referentials.ts';
import { codesOf, expectErrors, pathOf, queryOf, urlOf } from './api.ts';
import { createTestApp, NO_RATE_LIMITS, type TestApp } from './harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: NO_RATE_LIMITS });
});
afterAll(() => t.close());

const body = (name = 'Acme') => ({ name, officeCode: 'NORTH', addressDetails: { city: 'Lille' } });

describe('t.api: a row of the contract, its path and query filled', () => {
  it('fills the path with the values as given (a test sends encoded ones on purpose), a blank one left blank', () => {
    expect(pathOf(getCustomer, { customerCode: 'A%2FB' })).toBe(
      '/eTech/rest/ws/referentials/v1/customers/code:A%2FB',
    );
    expect(pathOf(getCustomer, {})).toBe('/eTech/rest/ws/referentials/v1/customers/code:');
    expect(queryOf({ q: 'a b', officeCode: undefined, active: false })).toBe('?q=a+b&active=false');
    expect(urlOf(listCustomers, { query: { q: 'X' } })).toBe('/eTech/rest/ws/referentials/v1/customers?q=X');
  });

  it('writes and reads through the rows, as the test client asked', async () => {
    const created = await t.api(putCustomer, { params: { customerCode: 'API-1' }, body: body() });
    expect(created.statusCode).toBe(201);
    const read = await t.api(getCustomer, { params: { customerCode: 'api-1' }, as: 'north' });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ customerCode: 'API-1', name: 'Acme' });
    // Outside NORTH's tree: unknown.
    expectErrors(await t.api(getCustomer, { params: { customerCode: 'API-1' }, as: 'south' }), 404, [
      `${CUSTOMER}.not.found`,
    ]);
  });

  it('expectErrors: the status, the codes in order and an errorReference', async () => {
    const res = await t.api(getCustomer, { params: { customerCode: '' } });
    expectErrors(res, 400, `${CUSTOMER}.code.mandatory`);
    expect(codesOf(res)).toEqual([`${CUSTOMER}.code.mandatory`]);
    expect(() => expectErrors(res, 404, `${CUSTOMER}.code.mandatory`)).toThrow();
    expect(() => expectErrors(res, 400, `${CUSTOMER}.other`)).toThrow();
  });

  it('t.pages walks every page until the token is null', async () => {
    for (let i = 0; i < REFERENTIALS_PAGE_SIZE + 3; i++)
      await t.api(putCustomer, {
        params: { customerCode: `WALK-${String(i).padStart(3, '0')}` },
        body: body(),
      });
    const pages = await t.pages<{ customerCode: string }>(listCustomers, { query: { q: 'WALK-' } });
    expect(pages.map((p) => p.data.length)).toEqual([REFERENTIALS_PAGE_SIZE, 3]);
    expect(pages.at(-1)?.continuationToken).toBeNull();
    expect(new Set(pages.flatMap((p) => p.data.map((c) => c.customerCode))).size).toBe(
      REFERENTIALS_PAGE_SIZE + 3,
    );
  });

  it('names only the fields of the row (checked by tsc)', () => {
    // @ts-expect-error getCustomer has no parameter `code`.
    expect(urlOf(getCustomer, { params: { code: 'X' } })).toContain('code:');
    // @ts-expect-error listCustomers has no query field `pageSize`.
    expect(urlOf(listCustomers, { query: { pageSize: 2 } })).toContain('pageSize=2');
  });
});
