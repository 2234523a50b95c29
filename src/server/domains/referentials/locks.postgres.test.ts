/**
 * Write locks of the referentials on PostgreSQL (issue 9): a write that changes a parent
 * link locks the hierarchies it touches, by their root, so writes to unrelated hierarchies
 * never wait on each other, while two writes that could close a cycle together are
 * serialized and one of them is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCustomer, putCustomer as putCustomerEndpoint } from '../../../contract/referentials.ts';
import type { OfficeScope } from '../../platform/officeScope.ts';
import type { TestApp } from '../../testing/harness.ts';
import { putCustomer } from './service.ts';
import { createReferentialsTestApp } from './testApp.ts';

let t: TestApp;
let rootScope: OfficeScope;
const body = (parentCustomerCode?: string) => ({
  name: 'n',
  addressDetails: { city: 'Lyon' },
  ...(parentCustomerCode ? { parentCustomerCode } : {}),
});
const put = (code: string, parent?: string) =>
  t.api(putCustomerEndpoint, { params: { customerCode: code }, body: body(parent) });
/** Settles with 'pending' when `p` has not settled within `ms`. */
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);

beforeAll(async () => {
  t = await createReferentialsTestApp();
  const root = await t.db
    .selectFrom('offices')
    .select(['id', 'code', 'path'])
    .where('code', '=', 'ROOT')
    .executeTakeFirstOrThrow();
  rootScope = { officeId: String(root.id), officeCode: root.code, path: root.path };
  for (const [code, parent] of [
    ['LK-A', undefined],
    ['LK-A1', 'LK-A'],
    ['LK-B', undefined],
    ['LK-B1', 'LK-B'],
  ] as const)
    expect((await put(code, parent)).statusCode).toBe(201);
});
afterAll(() => t.close());

describe('referentials write locks (PostgreSQL)', () => {
  it('a write holding hierarchy A does not hold one in hierarchy B; one in A waits for it', async () => {
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let holding = () => {};
    const held = new Promise<void>((r) => {
      holding = r;
    });
    // A transaction that attaches LK-A2 under LK-A1 and stays open: it holds tree LK-A.
    const open = t.db.transaction().execute(async (trx) => {
      await putCustomer(trx, rootScope, 'LK-A2', body('LK-A1'));
      holding();
      await gate;
    });
    await held;
    try {
      // Another hierarchy: answered while A's write is still open.
      const other = await within(put('LK-B2', 'LK-B1'), 10_000);
      expect(other === 'pending' ? 'pending' : other.statusCode).toBe(201);
      // A write without a parent change takes no tree lock either.
      const plain = await within(put('LK-PLAIN'), 10_000);
      expect(plain === 'pending' ? 'pending' : plain.statusCode).toBe(201);
      // The same hierarchy: waits for the open write.
      const same = put('LK-A3', 'LK-A1');
      expect(await within(same, 500)).toBe('pending');
      release();
      await open;
      expect((await same).statusCode).toBe(201);
    } finally {
      release();
      await open.catch(() => {});
    }
  });

  it('parallel parent changes around a ring: no cycle is ever stored', async () => {
    const ring = Array.from({ length: 8 }, (_, i) => `LK-R${i}`);
    for (const code of ring) expect((await put(code)).statusCode).toBe(201);
    const answers = await Promise.all(ring.map((code, i) => put(code, ring[(i + 1) % ring.length])));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.every((s) => s === 204 || s === 400)).toBe(true);
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThanOrEqual(1);
    for (const a of answers.filter((r) => r.statusCode === 400))
      expect(a.json().errors.map((e: { code: string }) => e.code)).toEqual([
        'referentials.customer.office.hierarchy.error',
      ]);
    // Walk up from each customer: every walk reaches a root within the ring's size.
    const parents = new Map<string, string | null>();
    for (const code of ring)
      parents.set(
        code,
        (await t.api(getCustomer, { params: { customerCode: code } })).json().parentCustomerCode,
      );
    for (const code of ring) {
      let at: string | null | undefined = code;
      let steps = 0;
      while (at && steps <= ring.length) {
        at = parents.get(at);
        steps++;
      }
      expect(at ?? null, `walk from ${code}`).toBeNull();
    }
  });
});
