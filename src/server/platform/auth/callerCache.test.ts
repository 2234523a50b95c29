import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCustomers } from '../../../contract/referentials.ts';
import { pathOf } from '../../testing/api.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { awaitCallerListeners, CallerCache, Lru } from './callerCache.ts';

/**
 * The hot path's caches: a token is verified once until it expires, its caller is read
 * once until applications, users or offices change, and every change still takes effect
 * on the next request (revocation.test.ts covers disable, rotate-secret and delete).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const CUSTOMERS = pathOf(listCustomers);
const auth = () => {
  const a = t.app.fieldwork.auth;
  if (!a) throw new Error('no auth caches');
  return a;
};
const get = (token: string, url = CUSTOMERS) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

describe('Lru', () => {
  it('keeps the most recently used entries up to its size', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3); // b goes
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
  });
});

describe('CallerCache', () => {
  const caller = {
    kind: 'application',
    id: '1',
    name: 'x',
    rateKey: 'app:x',
    scopes: new Set<string>(),
    scope: { officeId: '1', officeCode: 'X', path: '/1/' },
  } as const;

  it('keeps nothing while its notifications are down, then serves hits until invalidated', async () => {
    const cache = new CallerCache();
    let loads = 0;
    const load = async () => {
      loads++;
      return caller;
    };
    await cache.resolve('k', load);
    await cache.resolve('k', load);
    expect(loads).toBe(2);
    cache.setLive(true);
    await cache.resolve('k', load);
    await cache.resolve('k', load);
    expect(loads).toBe(3);
    cache.invalidate();
    await cache.resolve('k', load);
    expect(loads).toBe(4);
  });

  it('does not keep a caller whose query raced with a change', async () => {
    const cache = new CallerCache();
    cache.setLive(true);
    let loads = 0;
    await cache.resolve('k', async () => {
      loads++;
      cache.invalidate(); // the change lands while the query runs
      return caller;
    });
    await cache.resolve('k', async () => {
      loads++;
      return caller;
    });
    expect(loads).toBe(2);
  });
});

describe('the request path', () => {
  it('listens to the database: its callers are cached', () => {
    expect(auth().callers.isLive).toBe(true);
  });

  it('verifies a token once and reads its caller once, however many requests', async () => {
    const token = await t.token('south');
    const before = { ...auth().stats };
    const hits = auth().callers.stats.hits;
    for (let i = 0; i < 5; i++) expect((await get(token)).statusCode).toBe(200);
    expect(auth().stats.verifications - before.verifications).toBe(1);
    expect(auth().callers.stats.hits - hits).toBeGreaterThanOrEqual(4);
  });

  it('a scope removed from the application refuses the next request (403), restored it answers again', async () => {
    const token = await t.token('north');
    expect((await get(token)).statusCode).toBe(200);
    await t.db
      .updateTable('applications')
      .set({ scopes: sql`array_remove(scopes, 'referentials:read')` })
      .where('client_id', '=', 'north')
      .execute();
    // What the fieldwork command does after a change: every service process has dropped its callers.
    expect(await awaitCallerListeners(t.db)).toBe(true);
    const refused = await get(token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].code).toBe('access.forbiden');
    await t.db
      .updateTable('applications')
      .set({ scopes: sql`array_append(scopes, 'referentials:read')` })
      .where('client_id', '=', 'north')
      .execute();
    expect(await awaitCallerListeners(t.db)).toBe(true);
    expect((await get(token)).statusCode).toBe(200);
  });

  it('an expired token is refused although it was verified before', async () => {
    const short = await createTestApp({ accessTokenTtl: 1 });
    try {
      const token = await short.token('root');
      expect(
        (
          await short.app.inject({
            method: 'GET',
            url: CUSTOMERS,
            headers: { authorization: `Bearer ${token}` },
          })
        ).statusCode,
      ).toBe(200);
      await new Promise((r) => setTimeout(r, 2100));
      const res = await short.app.inject({
        method: 'GET',
        url: CUSTOMERS,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().errors[0].code).toBe('unauthorized.badcredentials');
    } finally {
      await short.close();
    }
  });

  it('without notifications every request reads its caller from the database', async () => {
    const token = await t.token('root');
    expect((await get(token)).statusCode).toBe(200);
    auth().callers.setLive(false);
    try {
      const misses = auth().callers.stats.misses;
      expect((await get(token)).statusCode).toBe(200);
      expect((await get(token)).statusCode).toBe(200);
      expect(auth().callers.stats.misses - misses).toBe(2);
    } finally {
      auth().callers.setLive(true);
    }
  });
});
