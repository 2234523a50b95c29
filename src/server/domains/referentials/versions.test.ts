/**
 * Lost updates (issue 8): ETag on GET and PUT, If-Match on PUT (412, nothing written), for
 * the referentials (customers, sites, assets) and the catalog the console edits (items,
 * skills). On PostgreSQL (TEST_DATABASE_URL) the concurrent pairs really run at once.
 */

import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getItem, putItem } from '../../../contract/businessOrganization.ts';
import {
  getAsset,
  getCustomer,
  getSite,
  putAsset,
  putCustomer as putCustomerEndpoint,
  putSite,
} from '../../../contract/referentials.ts';
import { listSkills, putSkill } from '../../../contract/staff.ts';
import { asTenant } from '../../db/tenant.ts';
import { codesOf } from '../../testing/api.ts';
import type { TestApp, TestClient } from '../../testing/harness.ts';
import { findItem } from '../businessOrganization/queries.ts';
import { writeItem } from '../businessOrganization/service.ts';
import { putCustomer } from './service.ts';
import { createReferentialsTestApp } from './testApp.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createReferentialsTestApp();
});
afterAll(() => t.close());

const STRONG = /^"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"$/;

/** A PUT's options: the body, the caller, the If-Match header. */
type PutOptions = { body: unknown; as: TestClient; headers: Record<string, string> };

interface Resource {
  name: string;
  /** PUT and GET of a record by code, through the resource's rows (skills have no GET: their list). */
  put: (code: string, opts: PutOptions) => Promise<LightMyRequestResponse>;
  get: (code: string) => Promise<LightMyRequestResponse>;
  prefix: string;
  /** Creates what the record needs (its customer, its site...). */
  setup?: () => Promise<void>;
  body: (name: string) => unknown;
  /** GET is not offered (skills): the version is read from the PUT's ETag only. */
  noGet?: boolean;
  /** The name field as read back. */
  nameOf?: (json: Record<string, unknown>) => unknown;
}

const RESOURCES: Resource[] = [
  {
    name: 'customer',
    put: (customerCode, opts) => t.api(putCustomerEndpoint, { params: { customerCode }, ...opts }),
    get: (customerCode) => t.api(getCustomer, { params: { customerCode } }),
    prefix: 'referentials.customer',
    body: (name) => ({ name, addressDetails: { city: 'Lyon' } }),
  },
  {
    name: 'site',
    put: (siteCode, opts) => t.api(putSite, { params: { siteCode }, ...opts }),
    get: (siteCode) => t.api(getSite, { params: { siteCode } }),
    prefix: 'referentials.site',
    setup: async () => {
      await t.api(putCustomerEndpoint, {
        params: { customerCode: 'V-SITE-CUST' },
        body: { name: 'Owner', addressDetails: { city: 'Lyon' } },
      });
    },
    body: (name) => ({
      name,
      customerCode: 'V-SITE-CUST',
      location: { addressDetails: { address: '1 rue', city: 'Lyon' } },
    }),
  },
  {
    name: 'asset',
    put: (assetCode, opts) => t.api(putAsset, { params: { assetCode }, ...opts }),
    get: (assetCode) => t.api(getAsset, { params: { assetCode } }),
    prefix: 'referentials.asset',
    body: (name) => ({ name }),
  },
  {
    name: 'item',
    put: (itemCode, opts) => t.api(putItem, { params: { itemCode }, ...opts }),
    get: (itemCode) => t.api(getItem, { params: { itemCode } }),
    prefix: 'businessorganization.item',
    body: (name) => ({ name }),
  },
  {
    name: 'skill',
    put: (skillCode, opts) => t.api(putSkill, { params: { skillCode }, ...opts }),
    get: () => t.api(listSkills),
    prefix: 'staff.skill',
    body: (name) => ({ name }),
    noGet: true,
  },
];

describe.each(RESOURCES)('$name: ETag and If-Match', (r) => {
  const put = (code: string, name: string, ifMatch?: string, as: TestClient = 'root') =>
    r.put(code, {
      body: r.body(name),
      as,
      headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
    });
  const get = (code: string) => r.get(code);
  const code = (suffix: string) => `V-${r.name.toUpperCase()}-${suffix}`;
  /** What the record holds now: its name, read through GET (or the list for skills). */
  async function nameOf(c: string): Promise<unknown> {
    if (r.noGet) {
      const page = (await r.get(c)).json() as { data: { skillCode: string; name: string }[] };
      return page.data.find((s) => s.skillCode === c)?.name;
    }
    const res = await get(c);
    return res.statusCode === 200 ? res.json().name : undefined;
  }

  beforeAll(async () => {
    await r.setup?.();
  });

  it('answers a strong ETag on PUT (201 and 204) and on GET; it changes with the record only', async () => {
    const created = await put(code('A'), 'One');
    expect(created.statusCode).toBe(201);
    const v1 = created.headers.etag as string;
    expect(v1).toMatch(STRONG);
    if (!r.noGet) {
      const read = await get(code('A'));
      expect(read.statusCode).toBe(200);
      expect(read.headers.etag).toBe(v1);
    }
    const same = await put(code('A'), 'One');
    expect(same.statusCode).toBe(204);
    expect(same.headers.etag).toBe(v1);
    const updated = await put(code('A'), 'Two');
    expect(updated.statusCode).toBe(204);
    const v2 = updated.headers.etag as string;
    expect(v2).toMatch(STRONG);
    expect(v2).not.toBe(v1);
    if (!r.noGet) expect((await get(code('A'))).headers.etag).toBe(v2);
  });

  it('writes with the current ETag (or *), refuses a stale one with 412 and writes nothing', async () => {
    const v1 = (await put(code('B'), 'One')).headers.etag as string;
    const v2res = await put(code('B'), 'Two', v1);
    expect(v2res.statusCode).toBe(204);
    const v2 = v2res.headers.etag as string;

    const stale = await put(code('B'), 'Stale', v1);
    expect(stale.statusCode).toBe(412);
    expect(codesOf(stale)).toEqual([`${r.prefix}.precondition.failed`]);
    expect(stale.json().errorReference).toBeTruthy();
    expect(await nameOf(code('B'))).toBe('Two');
    if (!r.noGet) expect((await get(code('B'))).headers.etag).toBe(v2);

    // Weak comparison is not offered: W/"..." never matches; a list matches by any member.
    expect((await put(code('B'), 'Weak', `W/${v2}`)).statusCode).toBe(412);
    expect(await nameOf(code('B'))).toBe('Two');
    const listed = await put(code('B'), 'Three', `"nope", ${v2}`);
    expect(listed.statusCode).toBe(204);
    expect((await put(code('B'), 'Four', '*')).statusCode).toBe(204);
    expect(await nameOf(code('B'))).toBe('Four');
  });

  it('never creates under If-Match, * included (412, the code stays free)', async () => {
    for (const ifMatch of ['*', '"2026-01-01T00:00:00.000000Z"']) {
      const res = await put(code('NEW'), 'New', ifMatch);
      expect(res.statusCode).toBe(412);
      expect(codesOf(res)).toEqual([`${r.prefix}.precondition.failed`]);
      expect(await nameOf(code('NEW'))).toBeUndefined();
    }
    expect((await put(code('NEW'), 'New')).statusCode).toBe(201);
  });

  it('a concurrent pair on one version: one write wins, the other is 412', async () => {
    const v1 = (await put(code('C'), 'Start')).headers.etag as string;
    const results = await Promise.all([put(code('C'), 'Left', v1), put(code('C'), 'Right', v1)]);
    const statuses = results.map((x) => x.statusCode).sort();
    expect(statuses).toEqual([204, 412]);
    const winner = results.find((x) => x.statusCode === 204);
    const loser = results.find((x) => x.statusCode === 412);
    expect(codesOf(loser as NonNullable<typeof loser>)).toEqual([`${r.prefix}.precondition.failed`]);
    expect(await nameOf(code('C'))).toBe(winner === results[0] ? 'Left' : 'Right');
  });
});

describe('one clock instant', () => {
  // now() is the transaction's start, and PGlite's clock counts milliseconds: two writes
  // at one instant must still make two versions, or a stale If-Match would match.
  it('two changes of one record in one transaction make two versions', async () => {
    const root = await t.db
      .selectFrom('offices')
      .select(['id', 'code', 'path'])
      .where('code', '=', 'ROOT')
      .executeTakeFirstOrThrow();
    const scope = { officeId: String(root.id), officeCode: root.code, path: root.path };
    const customer = (name: string) => ({ name, addressDetails: { city: 'Lyon' } });
    const item = (name: string) => ({ name, fixedPrice: false, active: true });
    // As a request of ROOT makes them (db/tenant.ts).
    const versions = await asTenant(t.tenants.ROOT, () =>
      t.db.transaction().execute(async (trx) => {
        const c1 = await putCustomer(trx, scope, 'V-INSTANT', customer('One'));
        const c2 = await putCustomer(trx, scope, 'V-INSTANT', customer('Two'));
        await writeItem(trx, 'V-INSTANT', item('One'));
        const i1 = (await findItem(trx, 'V-INSTANT'))?.version;
        await writeItem(trx, 'V-INSTANT', item('Two'));
        const i2 = (await findItem(trx, 'V-INSTANT'))?.version;
        return { customer: [c1.version, c2.version], item: [i1, i2] };
      }),
    );
    expect(versions.customer[1]).not.toBe(versions.customer[0]);
    expect(versions.item[0]).toMatch(/^\d{4}-/);
    expect(versions.item[1]).not.toBe(versions.item[0]);
    // Versions only move forward: the second is the later one.
    expect(versions.customer[1] > versions.customer[0]).toBe(true);
    expect((versions.item[1] as string) > (versions.item[0] as string)).toBe(true);
  });
});

describe('If-Match and office scope', () => {
  it('a record outside the caller tree answers 412, like a free code, and stays unchanged', async () => {
    const created = await t.api(putCustomerEndpoint, {
      params: { customerCode: 'V-SOUTH-ONLY' },
      as: 'south',
      body: { name: 'South', addressDetails: { city: 'Nice' } },
    });
    expect(created.statusCode).toBe(201);
    const v = created.headers.etag as string;
    const res = await t.api(putCustomerEndpoint, {
      params: { customerCode: 'V-SOUTH-ONLY' },
      as: 'north',
      body: { name: 'North', addressDetails: { city: 'Lille' } },
      headers: { 'if-match': v },
    });
    expect(res.statusCode).toBe(412);
    expect(codesOf(res)).toEqual(['referentials.customer.precondition.failed']);
    const read = await t.api(getCustomer, { params: { customerCode: 'V-SOUTH-ONLY' }, as: 'south' });
    expect(read.json().name).toBe('South');
    expect(read.headers.etag).toBe(v);
  });
});
