/**
 * The sync recipe of docs/api/changes.md, as a property (fast-check): a replica of what a
 * NORTH application sees, built from a cursor taken first (`since=now`), then the lists,
 * then the feed from that cursor, equals the source as the lists show it afterwards, after
 * any sequence of creations, updates, moves across offices (into and out of NORTH's tree)
 * and deletions, made before the cursor, between the cursor and the lists, and after them.
 * Runs on PGlite, and on PostgreSQL in the PostgreSQL runner.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeEntry, getChanges } from '../../../contract/changes.ts';
import { deleteWorkOrderByCode, listWorkOrders } from '../../../contract/fieldService.ts';
import { listCustomers, putCustomer } from '../../../contract/referentials.ts';
import { runImport } from '../../cli/importFile.ts';
import { asActor } from '../../events/changes.ts';
import { createTestApp, NO_RATE_LIMITS, type TestApp } from '../../testing/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: NO_RATE_LIMITS });
  await runImport(
    t.db,
    { workOrderTypes: [{ workOrderTypeCode: 'REPL', name: 'Replica', durationMinutes: 30 }] },
    { tenant: 'ROOT' },
  );
});
afterAll(() => t?.close());

const OFFICES = ['NORTH', 'NORTH-A', 'SOUTH'] as const;
type Op =
  | { op: 'customer'; i: number; office: (typeof OFFICES)[number]; name: string }
  | { op: 'workOrder'; i: number; office: (typeof OFFICES)[number]; description: string }
  | { op: 'deleteWorkOrder'; i: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('customer' as const),
    i: fc.nat(3),
    office: fc.constantFrom(...OFFICES),
    name: fc.constantFrom('a', 'b', 'c'),
  }),
  fc.record({
    op: fc.constant('workOrder' as const),
    i: fc.nat(3),
    office: fc.constantFrom(...OFFICES),
    description: fc.constantFrom('x', 'y'),
  }),
  fc.record({ op: fc.constant('deleteWorkOrder' as const), i: fc.nat(3) }),
);

/** A record as the replica keeps it: what the lists show and the feed names alike. */
type Snapshot = Record<string, { officeCode: string; name?: string | null; description?: string | null }>;

async function apply(run: string, op: Op) {
  if (op.op === 'customer') {
    await t.api(putCustomer, {
      params: { customerCode: `${run}-C${op.i}` },
      body: { name: op.name, officeCode: op.office, addressDetails: { city: 'Lyon' } },
    });
  } else if (op.op === 'workOrder') {
    // Written by an import: the feed carries every path's changes.
    await asActor({ type: 'process', identifier: 'fieldwork import' }, () =>
      runImport(
        t.db,
        {
          workOrders: [
            {
              workOrderCode: `${run}-W${op.i}`,
              workOrderTypeCode: 'REPL',
              status: 'NEW',
              officeCode: op.office,
              description: op.description,
            },
          ],
        },
        { tenant: 'ROOT' },
      ),
    );
  } else {
    await t.api(deleteWorkOrderByCode, { params: { workOrderCode: `${run}-W${op.i}` } });
  }
}

/** NORTH's view of the run's records, from the lists. */
async function lists(run: string): Promise<Snapshot> {
  const view: Snapshot = {};
  for (const c of (await t.pages(listCustomers, { as: 'north', query: { q: run } })).flatMap((p) => p.data))
    view[`customer:${c.customerCode}`] = { officeCode: c.officeCode as string, name: c.name as string };
  for (const w of (await t.pages(listWorkOrders, { as: 'north', query: { q: run } })).flatMap((p) => p.data))
    view[`workOrder:${w.workOrderCode}`] = {
      officeCode: w.officeCode as string,
      description: (w.description ?? null) as string | null,
    };
  return view;
}

/** Applies the feed from `cursor` to `replica`, page after page (limit 3: many pages). */
async function follow(replica: Snapshot, run: string, cursor: string) {
  let since = cursor;
  for (;;) {
    const res = await t.api(getChanges, {
      as: 'north',
      query: { since, kinds: 'customer,workOrder', limit: 3 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as { data: ChangeEntry[]; cursor: string };
    for (const e of page.data) {
      if (!e.code.startsWith(`${run}-`)) continue;
      const key = `${e.kind}:${e.code}`;
      if (e.action === 'deleted') {
        delete replica[key];
        continue;
      }
      const record = { ...(replica[key] ?? {}), officeCode: e.officeCode ?? '' };
      const kept = e.kind === 'customer' ? 'name' : 'description';
      for (const f of e.fields) if (f.name === kept) record[kept] = f.after as string;
      replica[key] = record;
    }
    since = page.cursor;
    if (page.data.length < 3) return;
  }
}

describe('a replica built from the lists and the feed', () => {
  it('equals the source after random writes, deletions and moves across offices', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { maxLength: 6 }),
        fc.array(opArb, { maxLength: 6 }),
        fc.array(opArb, { maxLength: 6 }),
        async (before, during, after) => {
          const run = `R${runs++}`;
          for (const op of before) await apply(run, op);
          const cursor = (await t.api(getChanges, { as: 'north', query: { since: 'now' } })).json()
            .cursor as string;
          for (const op of during) await apply(run, op);
          const replica = await lists(run);
          for (const op of after) await apply(run, op);
          await follow(replica, run, cursor);
          expect(replica).toEqual(await lists(run));
        },
      ),
      { numRuns: 25 },
    );
  }, 600_000);
});
