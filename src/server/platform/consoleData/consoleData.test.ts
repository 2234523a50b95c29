/**
 * The console's search and Home figures: each kind only when the caller holds its read
 * scope, only the caller's office tree (never another tree or tenant), keyset pages, the
 * `interactive` rate range of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleCodes, getHome, searchRecords } from '../../../contract/console.ts';
import { listCustomers, putCustomer } from '../../../contract/referentials.ts';
import { runImport } from '../../cli/importFile.ts';
import { baseFile } from '../../domains/fieldTracking/fixture.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { hashSecret } from '../auth/passwords.ts';

const UNLIMITED = { perMinute: 1e9, perHour: 1e9 };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    rateLimits: { high: UNLIMITED, standard: UNLIMITED, low: UNLIMITED, interactive: UNLIMITED },
  });
  await runImport(t.db, baseFile);
  const put = async (as: 'root' | 'rival', code: string, name: string, officeCode: string) => {
    const res = await t.api(putCustomer, {
      params: { customerCode: code },
      as,
      body: { name, addressDetails: { city: 'Lille' }, officeCode },
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  await put('root', 'ACME', 'Acme North', 'NORTH');
  await put('root', 'ACME-S', 'Acme South', 'SOUTH');
  await put('root', 'ZETA', 'Zeta acme partner', 'NORTH-A');
  await put('rival', 'ACME-R', 'Acme of the rival company', 'RIVAL');
});
afterAll(() => t.close());

type Answer = {
  data: { kind: string; code: string; name: string; uuid?: string }[];
  kinds: { kind: string; more: boolean }[];
  continuationToken: string | null;
};

async function search(query: Record<string, string>, as: Parameters<TestApp['call']>[2] = {}) {
  const res = await t.call('GET', `${searchRecords.path}?${new URLSearchParams(query)}`, as);
  return res;
}
const codes = (a: Answer, kind: string) => a.data.filter((h) => h.kind === kind).map((h) => h.code);

/** An application holding only `scopes`, and a token of it. */
async function tokenWith(clientId: string, officeCode: string, scopes: string[]) {
  const office = await t.db
    .selectFrom('offices')
    .select('id')
    .where('code', '=', officeCode)
    .executeTakeFirstOrThrow();
  await t.db
    .insertInto('applications')
    .values({
      client_id: clientId,
      secret_hash: await hashSecret('s3cret'),
      name: clientId,
      office_id: office.id,
      scopes,
    })
    .execute();
  const res = await t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:s3cret`).toString('base64')}`,
    },
    payload: 'grant_type=client_credentials',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}

describe('search: what the caller may read, and nothing else', () => {
  it("finds codes by their start and names by what they contain, in the caller's tree only", async () => {
    const north = (await search({ q: 'acme' }, { as: 'north' })).json() as Answer;
    expect(codes(north, 'customer')).toEqual(['ACME', 'ZETA']);
    const root = (await search({ q: 'acme' })).json() as Answer;
    expect(codes(root, 'customer')).toEqual(['ACME', 'ACME-S', 'ZETA']);
    // Another tenant's records never appear, nor do ours to it.
    const rival = (await search({ q: 'acme' }, { as: 'rival' })).json() as Answer;
    expect(codes(rival, 'customer')).toEqual(['ACME-R']);
    expect(codes(root, 'customer')).not.toContain('ACME-R');
  });

  it('finds work orders by the start of their code, of its offices only, with their uuid', async () => {
    const res = await search({ q: 'wo-', kind: 'workOrder', size: '50' }, { as: 'north' });
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json() as Answer;
    expect(codes(a, 'workOrder')).toEqual([
      'WO-200',
      'WO-201',
      'WO-400',
      'WO-DUP',
      'WO-DUP',
      'WO-EMPTY',
      'WO-MIX',
      'WO-V',
      'WO-V',
    ]);
    expect(a.data.every((h) => h.name === 'Repair' && typeof h.uuid === 'string')).toBe(true);
    const south = (await search({ q: 'WO-S', kind: 'workOrder' }, { as: 'north' })).json() as Answer;
    expect(south.data).toEqual([]);
  });

  it('searches a kind only with its read scope', async () => {
    const token = await tokenWith('refs-only', 'ROOT', ['referentials:read']);
    const res = await t.app.inject({
      method: 'GET',
      url: `${searchRecords.path}?q=e`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    const a = res.json() as Answer;
    expect(a.kinds.map((k) => k.kind)).toEqual(['customer', 'site', 'asset']);
    expect(a.data.every((h) => ['customer', 'site', 'asset'].includes(h.kind))).toBe(true);
    // A kind it may not read, asked by name: an empty answer, as for nothing found.
    const skills = await t.app.inject({
      method: 'GET',
      url: `${searchRecords.path}?q=elec&kind=skill`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(skills.json()).toEqual({ data: [], kinds: [], continuationToken: null });
    // With staff:read, the same search finds the skill.
    const all = (await search({ q: 'elec', kind: 'skill' })).json() as Answer;
    expect(codes(all, 'skill')).toEqual(['ELEC']);
  });

  it('gives the first hits of every kind and says which have more', async () => {
    const a = (await search({ q: 'wo', size: '2' }, { as: 'north' })).json() as Answer;
    expect(codes(a, 'workOrder')).toEqual(['WO-200', 'WO-201']);
    expect(a.kinds.find((k) => k.kind === 'workOrder')?.more).toBe(true);
    expect(a.continuationToken).toBeNull();
  });

  it('pages one kind by keyset, each hit once; a token is bound to its search', async () => {
    const seen: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const q: Record<string, string> = { q: 'WO', kind: 'workOrder', size: '2' };
      if (token) q.continuationToken = token;
      const res = await search(q, { as: 'north' });
      expect(res.statusCode, res.body).toBe(200);
      const a = res.json() as Answer;
      seen.push(...a.data.map((h) => h.uuid ?? ''));
      token = a.continuationToken;
      pages += 1;
    } while (token && pages < 20);
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(9);

    const first = (await search({ q: 'WO', kind: 'workOrder', size: '2' }, { as: 'north' })).json() as Answer;
    const other = await search(
      { q: 'WO-2', kind: 'workOrder', size: '2', continuationToken: first.continuationToken ?? '' },
      { as: 'north' },
    );
    expect(other.statusCode).toBe(400);
    expect(other.json().errors[0].code).toBe(ConsoleCodes.continuationTokenInvalid);
    const noKind = await search(
      { q: 'WO', continuationToken: first.continuationToken ?? '' },
      { as: 'north' },
    );
    expect(noKind.statusCode).toBe(400);
    expect(noKind.json().errors[0].code).toBe(ConsoleCodes.kindMandatory);
  });

  it('takes q literally and refuses what is not a search', async () => {
    expect(((await search({ q: '%' })).json() as Answer).data).toEqual([]);
    expect(((await search({ q: '_' })).json() as Answer).data).toEqual([]);
    const blank = await search({ q: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors[0].code).toMatch(/^console\.q\./);
    const size = await search({ q: 'a', size: '51' });
    expect(size.statusCode).toBe(400);
    expect(size.json().errors[0].code).toBe('console.size.invalid');
    const kind = await search({ q: 'a', kind: 'office' });
    expect(kind.statusCode).toBe(400);
    expect(kind.json().errors[0].code).toBe('console.kind.invalid');
  });
});

describe('Home figures', () => {
  it("counts each kind of the caller's tree, and lists its offices", async () => {
    const res = await t.call('GET', getHome.path, { as: 'north' });
    expect(res.statusCode, res.body).toBe(200);
    const home = res.json() as {
      counts: { kind: string; count: number; more: boolean }[];
      offices: { code: string; depth: number; parentCode: string | null }[];
      officeCount: number;
    };
    const count = (kind: string) => home.counts.find((c) => c.kind === kind)?.count;
    expect(count('workOrder')).toBe(9);
    expect(count('customer')).toBe(2);
    expect(count('technician')).toBe(2);
    // The catalog is the instance's.
    expect(count('item')).toBe(3);
    expect(home.offices).toEqual([
      { code: 'NORTH', name: 'North', parentCode: null, depth: 0 },
      { code: 'NORTH-A', name: 'North A', parentCode: 'NORTH', depth: 1 },
    ]);
    expect(home.officeCount).toBe(2);
    const rival = (await t.call('GET', getHome.path, { as: 'rival' })).json() as typeof home;
    expect(rival.counts.find((c) => c.kind === 'customer')?.count).toBe(1);
    expect(rival.counts.find((c) => c.kind === 'workOrder')?.count).toBe(0);
  });

  it('counts only the kinds the caller may read', async () => {
    const token = await tokenWith('staff-only', 'ROOT', ['staff:read']);
    const res = await t.app.inject({
      method: 'GET',
      url: getHome.path,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.json().counts.map((c: { kind: string }) => c.kind)).toEqual(['skill', 'characteristic']);
  });
});

describe('the interactive rate range', () => {
  it('limits the search on its own budget, not the lists', async () => {
    const app = await createTestApp({
      rateLimits: {
        high: UNLIMITED,
        standard: UNLIMITED,
        low: UNLIMITED,
        interactive: { perMinute: 3, perHour: 100 },
      },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await app.api(searchRecords, { query: { q: `a${i}` } })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await app.api(searchRecords, { query: { q: 'b' } });
      expect(refused.json().errors[0].code).toBe('ratelimiter.toomanyrequest');
      expect(String(refused.headers['ratelimit-policy'])).toContain('interactive-minute');
      // The lists keep their own budget.
      expect((await app.api(listCustomers)).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
