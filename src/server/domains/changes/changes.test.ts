import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChangeEntry, ChangesCodes, getChanges, TRUNCATED_MARKER } from '../../../contract/changes.ts';
import { getWorkOrderHistoryByCode } from '../../../contract/fieldService.ts';
import {
  getAssetHistory,
  getCustomerHistory,
  putAsset,
  putCustomer,
  ReferentialsCodes,
} from '../../../contract/referentials.ts';
import { putSkill } from '../../../contract/staff.ts';
import { createSubscription, getDelivery, listDeliveries } from '../../../contract/webhooks.ts';
import { runImport } from '../../cli/importFile.ts';
import { asTenant } from '../../db/tenant.ts';
import { asActor } from '../../events/changes.ts';
import { actorOf } from '../../events/index.ts';
import { writeTransaction } from '../../platform/transactions.ts';
import { expectErrors } from '../../testing/api.ts';
import { createTestApp, NO_RATE_LIMITS, type TestApp, type TestClient } from '../../testing/harness.ts';
import { pruneChanges } from './retention.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: NO_RATE_LIMITS });
});
afterAll(() => t?.close());

const customer = (name: string, officeCode?: string, extra: Record<string, unknown> = {}) => ({
  name,
  ...(officeCode ? { officeCode } : {}),
  addressDetails: { city: 'Lyon' },
  ...extra,
});

/** Every entry after `since` the client sees, page by page, and the cursor at the end. */
async function feed(as: TestClient, since?: string, kinds?: string) {
  const data: ChangeEntry[] = [];
  let cursor = since;
  for (;;) {
    const res = await t.api(getChanges, {
      as,
      query: { ...(cursor ? { since: cursor } : {}), ...(kinds ? { kinds } : {}), limit: 2 },
    });
    expect(res.statusCode).toBe(200);
    const page = res.json() as { data: ChangeEntry[]; cursor: string };
    data.push(...page.data);
    cursor = page.cursor;
    if (page.data.length < 2) return { data, cursor };
  }
}
const now = async (as: TestClient) =>
  (await t.api(getChanges, { as, query: { since: 'now' } })).json().cursor as string;

describe('the change log', () => {
  it('records a create and an update of a customer with the changed fields, the actor and increasing ids', async () => {
    const start = await now('root');
    expect(
      (await t.api(putCustomer, { params: { customerCode: 'LOG-1' }, body: customer('One') })).statusCode,
    ).toBe(201);
    await t.api(putCustomer, {
      params: { customerCode: 'LOG-1' },
      body: customer('One bis', undefined, { description: 'x'.repeat(1500) }),
    });
    // The same body again changes nothing: no entry.
    await t.api(putCustomer, {
      params: { customerCode: 'LOG-1' },
      body: customer('One bis', undefined, { description: 'x'.repeat(1500) }),
    });
    const { data } = await feed('root', start);
    expect(data.map((e) => [e.kind, e.code, e.action])).toEqual([
      ['customer', 'LOG-1', 'created'],
      ['customer', 'LOG-1', 'updated'],
    ]);
    expect(BigInt(data[1].id)).toBeGreaterThan(BigInt(data[0].id));
    expect(data[0]).toMatchObject({
      officeCode: 'ROOT',
      uuid: null,
      actor: { type: 'webService', identifier: 'Test root' },
    });
    expect(data[0].fields).toContainEqual({ name: 'name', before: null, after: 'One' });
    expect(data[0].fields).toContainEqual({ name: 'city', before: null, after: 'Lyon' });
    expect(data[1].fields.map((f) => f.name).sort()).toEqual(['description', 'name']);
    const description = data[1].fields.find((f) => f.name === 'description');
    expect(description?.after).toBe(`${'x'.repeat(1000)}${TRUNCATED_MARKER}`);
  });

  it('names a console user by login, an import and a command as processes', async () => {
    const start = await now('root');
    // A user's request as platform/routes.ts runs it: its caller as actor, a writeTransaction.
    await asActor(actorOf({ kind: 'user', name: 'ada' }), () =>
      asTenant(t.tenants.ROOT, () =>
        writeTransaction(t.db, (trx) =>
          trx.insertInto('skills').values({ code: 'BY-ADA', name: 'Ada' }).execute(),
        ),
      ),
    );
    await asActor({ type: 'process', identifier: 'fieldwork import' }, () =>
      runImport(t.db, { skills: [{ skillCode: 'BY-IMPORT', name: 'Imported' }] }, { tenant: 'ROOT' }),
    );
    const { data } = await feed('root', start, 'skill');
    expect(data.map((e) => [e.code, e.actor])).toEqual([
      ['BY-ADA', { type: 'webUser', identifier: 'ada' }],
      ['BY-IMPORT', { type: 'process', identifier: 'fieldwork import' }],
    ]);
  });

  it('never names the previous caller of a connection: a write without actor is the process, autocommit or not', async () => {
    const start = await now('root');
    const ada = actorOf({ kind: 'user', name: 'ada' });
    const write = (code: string) => (trx: typeof t.db) =>
      trx.insertInto('skills').values({ code, name: code }).execute();
    await asTenant(t.tenants.ROOT, async () => {
      await asActor(ada, () => writeTransaction(t.db, write('ACT-ADA')));
      // A read of another caller keeps the connection's actor; a write of none does not.
      await t.db.selectFrom('skills').select('code').execute();
      await writeTransaction(t.db, write('ACT-NONE'));
      await asActor(ada, () => write('ACT-ADA-AUTO')(t.db));
      await write('ACT-NONE-AUTO')(t.db);
    });
    const { data } = await feed('root', start, 'skill');
    expect(data.map((e) => [e.code, e.actor.identifier])).toEqual([
      ['ACT-ADA', 'ada'],
      ['ACT-NONE', 'fieldwork'],
      ['ACT-ADA-AUTO', 'ada'],
      ['ACT-NONE-AUTO', 'fieldwork'],
    ]);
  });

  it('keeps another office tree and another tenant out of the feed, and tombstones a record that moves out', async () => {
    const start = await now('north');
    await t.api(putCustomer, { params: { customerCode: 'MOVER' }, body: customer('Mover', 'NORTH-A') });
    await t.api(putCustomer, { params: { customerCode: 'SOUTHERN' }, body: customer('South', 'SOUTH') });
    await t.api(putCustomer, { as: 'rival', params: { customerCode: 'RIVAL-C' }, body: customer('Rival') });
    await t.api(putCustomer, { params: { customerCode: 'MOVER' }, body: customer('Mover', 'SOUTH') });
    const north = await feed('north', start);
    expect(north.data.map((e) => [e.code, e.action, e.fields.length])).toEqual([
      ['MOVER', 'created', expect.any(Number)],
      ['MOVER', 'deleted', 0],
    ]);
    const south = (await feed('south', start)).data.filter((e) => e.kind === 'customer');
    expect(south.map((e) => [e.code, e.action])).toEqual([
      ['SOUTHERN', 'created'],
      ['MOVER', 'updated'],
    ]);
    // The move names every field, so the tree it enters learns the whole record.
    expect(south[1].fields).toContainEqual({ name: 'officeCode', before: 'NORTH-A', after: 'SOUTH' });
    expect(south[1].fields).toContainEqual({ name: 'name', before: 'Mover', after: 'Mover' });
    const rival = await feed('rival', start);
    expect(rival.data.every((e) => e.code === 'RIVAL-C')).toBe(true);
  });

  it('answers 400 to a cursor it did not give and to unknown kinds', async () => {
    expectErrors(await t.api(getChanges, { query: { since: 'nope' } }), 400, ChangesCodes.cursorInvalid);
    expectErrors(
      await t.api(getChanges, { query: { kinds: 'customer,subscription' } }),
      400,
      ChangesCodes.kindsInvalid,
    );
    expectErrors(await t.api(getChanges, { query: { limit: 1001 } }), 400, ChangesCodes.limitInvalid);
  });

  it('prunes entries past the retention in batches, and a cursor before them answers 410 changes.cursor.expired', async () => {
    const old = await now('root');
    await t.api(putSkill, { params: { skillCode: 'OLD-1' }, body: { name: 'Old' } });
    await t.api(putSkill, { params: { skillCode: 'OLD-2' }, body: { name: 'Old' } });
    await t.api(putSkill, { params: { skillCode: 'OLD-3' }, body: { name: 'Old' } });
    const recent = await now('root');
    await t.db
      .updateTable('changes')
      .set({ at: new Date(Date.now() - 91 * 86_400_000) })
      .execute();
    await t.api(putSkill, { params: { skillCode: 'NEW-1' }, body: { name: 'New' } });
    const pruned = await pruneChanges(t.db, 90, 2);
    expect(pruned).toBeGreaterThanOrEqual(3);
    expect(
      await t.db
        .selectFrom('changes')
        .select('code')
        .where('at', '<', new Date(Date.now() - 86_400_000))
        .execute(),
    ).toEqual([]);
    expectErrors(await t.api(getChanges, { query: { since: old } }), 410, ChangesCodes.cursorExpired);
    const after = await feed('root', recent);
    expect(after.data.map((e) => e.code)).toEqual(['NEW-1']);
  });

  it("prunes each tenant's oldest entries up to the first one kept: none is left below pruned_through", async () => {
    const entryOf = async (tenant: string, code: string) =>
      (
        await t.db
          .selectFrom('changes')
          .select('id')
          .where('tenant_id', '=', tenant)
          .where('code', '=', code)
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow()
      ).id;
    const put = (as: TestClient, skillCode: string) =>
      t.api(putSkill, { as, params: { skillCode }, body: { name: skillCode } });
    await put('root', 'PRUNE-A');
    await put('root', 'PRUNE-B');
    await put('root', 'PRUNE-C');
    await put('rival', 'PRUNE-R');
    const [a, b, c] = [
      await entryOf(t.tenants.ROOT, 'PRUNE-A'),
      await entryOf(t.tenants.ROOT, 'PRUNE-B'),
      await entryOf(t.tenants.ROOT, 'PRUNE-C'),
    ];
    // Everything expired but B, an entry whose transaction started later than C's.
    const expired = new Date(Date.now() - 91 * 86_400_000);
    await t.db.updateTable('changes').set({ at: expired }).where('id', '!=', b).execute();
    await pruneChanges(t.db, 90, 1);
    const left = await t.db
      .selectFrom('changes')
      .select(['tenant_id', 'id'])
      .orderBy('tenant_id')
      .orderBy('id')
      .execute();
    // The root tenant's A and everything before it went; B stays, and C after it waits.
    expect(left.filter((e) => e.tenant_id === t.tenants.ROOT).map((e) => e.id)).toEqual([b, c]);
    // The rival tenant's expired entries went too.
    expect(left.filter((e) => e.tenant_id === t.tenants.RIVAL)).toEqual([]);
    const pruned = await t.db
      .selectFrom('change_counters')
      .select(['tenant_id', 'pruned_through'])
      .where('tenant_id', '=', t.tenants.ROOT)
      .executeTakeFirstOrThrow();
    expect(pruned.pruned_through).toBe(a);
  });

  it("answers a record's history newest first, keyset-paged, filtered by actor, and 404 outside the caller's tree", async () => {
    await t.api(putCustomer, { params: { customerCode: 'HIST' }, body: customer('H0', 'NORTH') });
    await t.api(putCustomer, {
      as: 'north',
      params: { customerCode: 'HIST' },
      body: customer('H1', 'NORTH'),
    });
    await t.api(putCustomer, { params: { customerCode: 'HIST' }, body: customer('H2', 'NORTH') });
    const first = await t.api(getCustomerHistory, {
      as: 'north',
      params: { customerCode: 'hist' },
      query: { limit: 2 },
    });
    expect(first.statusCode).toBe(200);
    const page1 = first.json() as { data: ChangeEntry[]; continuationToken: string | null };
    expect(page1.data.map((e) => [e.action, e.fields.find((f) => f.name === 'name')?.after])).toEqual([
      ['updated', 'H2'],
      ['updated', 'H1'],
    ]);
    const second = await t.api(getCustomerHistory, {
      as: 'north',
      params: { customerCode: 'HIST' },
      query: { limit: 2, continuationToken: page1.continuationToken ?? '' },
    });
    expect(second.json()).toMatchObject({ data: [{ action: 'created' }], continuationToken: null });
    const byNorth = await t.api(getCustomerHistory, {
      as: 'north',
      params: { customerCode: 'HIST' },
      query: { actor: 'Test north' },
    });
    expect(byNorth.json().data.map((e: ChangeEntry) => e.actor)).toEqual([
      { type: 'webService', identifier: 'Test north' },
    ]);
    // Another office tree, another tenant: as a record that does not exist.
    expectErrors(
      await t.api(getCustomerHistory, { as: 'south', params: { customerCode: 'HIST' } }),
      404,
      ReferentialsCodes.customer.notFound,
    );
    expectErrors(
      await t.api(getCustomerHistory, { as: 'rival', params: { customerCode: 'HIST' } }),
      404,
      ReferentialsCodes.customer.notFound,
    );
    expectErrors(
      await t.api(getCustomerHistory, {
        params: { customerCode: 'HIST' },
        query: { continuationToken: 'forged' },
      }),
      400,
      ReferentialsCodes.continuationTokenInvalid,
    );
    expectErrors(
      await t.api(getCustomerHistory, { params: { customerCode: 'HIST' }, query: { limit: 0 } }),
      400,
      'referentials.customer.limit.invalid',
    );
  });

  it("names a work order's activity by the API's field names, added or changed (migration 106)", async () => {
    const activity = {
      activityId: 'LOG-A1',
      workOrderCode: 'WO-LOG',
      activityTypeCode: 'WORK',
      agentCode: 'T-LOG',
      startTime: '2026-03-02T09:00:00Z',
      endTime: '2026-03-02T10:00:00Z',
      billable: true,
    };
    await runImport(t.db, {
      workOrderTypes: [{ workOrderTypeCode: 'LOG', name: 'Logged', durationMinutes: 60 }],
      activityTypes: [{ activityTypeCode: 'WORK', name: 'Work on site' }],
      technicians: [{ technicianCode: 'T-LOG', name: 'Lou Log', officeCode: 'NORTH' }],
      workOrders: [
        { workOrderCode: 'WO-LOG', workOrderTypeCode: 'LOG', status: 'IN_PROGRESS', officeCode: 'NORTH' },
      ],
      activities: [activity],
    });
    await runImport(t.db, { activities: [{ ...activity, billable: false }] });
    const res = await t.api(getWorkOrderHistoryByCode, { params: { workOrderCode: 'WO-LOG' } });
    expect(res.statusCode).toBe(200);
    const [changed, added] = (res.json().data as ChangeEntry[]).filter((e) =>
      e.fields.some((f) => f.name.startsWith('activities.')),
    );
    expect(changed.fields).toEqual([{ name: 'activities.LOG-A1.billable', before: true, after: false }]);
    expect(added.fields).toHaveLength(1);
    expect(added.fields[0]).toMatchObject({
      name: 'activities.LOG-A1',
      before: null,
      after: { activityId: 'LOG-A1', typeCode: 'WORK', agentCode: 'T-LOG', billable: true },
    });
    // The whole line in the API's names, none as its column.
    expect(Object.keys(added.fields[0].after as object).filter((k) => k.includes('_'))).toEqual([]);
  });

  it('gives a webhook callback the id of the change it reports: the same as its history line', async () => {
    const sub = await t.api(createSubscription, {
      body: { eventTypes: ['asset.upsert'], callbackUrl: 'https://hooks.example.com/fieldwork' },
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const subscriptionId = sub.json().subscriptionId as string;
    await t.api(putAsset, { params: { assetCode: 'HOOKED' }, body: { name: 'Pump' } });
    await t.api(putAsset, { params: { assetCode: 'HOOKED' }, body: { name: 'Pump 2' } });
    const history = (await t.api(getAssetHistory, { params: { assetCode: 'HOOKED' } })).json()
      .data as ChangeEntry[];
    const deliveries = (await t.api(listDeliveries, { params: { subscriptionId } })).json().data as {
      deliveryId: string;
    }[];
    const payloads = await Promise.all(
      deliveries.map(
        async (d) =>
          (await t.api(getDelivery, { params: { subscriptionId, deliveryId: d.deliveryId } })).json().payload,
      ),
    );
    // Newest first both: the second PUT's callback names the second entry.
    expect(payloads.map((p) => [p.changeId, p.data.assetCode])).toEqual(history.map((e) => [e.id, 'HOOKED']));
  });
});
