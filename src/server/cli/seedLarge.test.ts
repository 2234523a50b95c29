import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../contract/domains.ts';
import { listUsedItemsByCode } from '../../contract/fieldService.ts';
import { activityTotalsByCode, listPositions } from '../../contract/fieldTracking.ts';
import { hashSecret } from '../platform/auth/passwords.ts';
import { urlOf } from '../testing/api.ts';
import { runCapturedCli } from '../testing/cli.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { seedDemo } from './commands/seed.ts';
import {
  checkPlan,
  LARGE_PLAN,
  type LargePlan,
  progressPrinter,
  scaledPlan,
  seedLarge,
  totalRows,
} from './seedLarge.ts';

/** The large dataset's shape at a size a test can afford. */
const TINY: LargePlan = {
  technicians: 7,
  busyTechnicians: 2,
  busyPositions: 300,
  positions: 1000,
  workOrders: 40,
  heavyWorkOrders: 2,
  heavyRows: 250,
  activities: 1234,
  usedItems: 700,
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.db);
});
afterAll(() => t.close());

/** A digest of every row the large dataset wrote: equal digests, equal rows. */
async function digest() {
  const { rows } = await sql<{ t: string; n: string; h: string }>`
    SELECT 'technicians' AS t, count(*) AS n, md5(string_agg(x::text, '|' ORDER BY x.code)) AS h
      FROM (SELECT code, name, office_id, home_latitude, home_longitude FROM technicians WHERE code LIKE 'LT-%') x
    UNION ALL SELECT 'work_orders', count(*), md5(string_agg(x::text, '|' ORDER BY x.code))
      FROM (SELECT code, uuid, status, type_code, technician_code, scheduled_start, office_id
            FROM work_orders WHERE code LIKE 'LWO-%') x
    UNION ALL SELECT 'activities', count(*), md5(string_agg(x::text, '|' ORDER BY x.activity_id))
      FROM (SELECT activity_id, type_code, agent_code, start_time, end_time, billable, validated_at, last_update
            FROM activities WHERE activity_id LIKE 'LA-%') x
    UNION ALL SELECT 'used_items', count(*), md5(string_agg(x::text, '|' ORDER BY x.used_item_id))
      FROM (SELECT used_item_id, kind, item_code, label, quantity, unit_price, invoice_mode, last_update
            FROM used_items WHERE used_item_id LIKE 'LU-%') x
    UNION ALL SELECT 'positions', count(*), md5(string_agg(x::text, '|' ORDER BY x.technician_code, x.recorded_at))
      FROM (SELECT technician_code, recorded_at, round(latitude::numeric, 9) AS la, round(longitude::numeric, 9) AS lo,
                   accuracy, speed, heading FROM technician_positions WHERE technician_code LIKE 'LT-%') x`.execute(
    t.db,
  );
  return Object.fromEntries(rows.map((r) => [r.t, { n: Number(r.n), h: r.h }]));
}

describe('fieldwork seed --size large', () => {
  it('the plan at scale 1 holds the figures of the issue', () => {
    expect(LARGE_PLAN.workOrders).toBeGreaterThanOrEqual(50_000);
    expect(LARGE_PLAN.activities).toBeGreaterThanOrEqual(2_000_000);
    expect(LARGE_PLAN.usedItems).toBeGreaterThanOrEqual(500_000);
    expect(LARGE_PLAN.positions).toBeGreaterThanOrEqual(5_000_000);
    expect(LARGE_PLAN.heavyRows).toBe(20_000);
    expect(LARGE_PLAN.busyPositions).toBe(100_000);
    checkPlan(LARGE_PLAN);
    const small = scaledPlan(0.05);
    checkPlan(small);
    expect(small).toMatchObject({ heavyRows: 20_000, busyPositions: 100_000, workOrders: 2500 });
    expect(() => checkPlan({ ...TINY, activities: 10 })).toThrow(/too few activities/);
  });

  it('writes exactly the plan: heavy work orders, busy technicians, the rest spread; the same rows twice', async () => {
    const progress: number[] = [];
    const first = await seedLarge(t.db, TINY, (p) => progress.push(p.done));
    expect(first.loaded).toBe(true);
    expect(progress[progress.length - 1]).toBe(totalRows(TINY));
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const d1 = await digest();
    expect(Object.fromEntries(Object.entries(d1).map(([k, v]) => [k, v.n]))).toEqual({
      technicians: 7,
      work_orders: 40,
      activities: 1234,
      used_items: 700,
      positions: 1000,
    });
    const perWorkOrder = await sql<{ code: string; n: string }>`
      SELECT w.code, count(*) AS n FROM activities a JOIN work_orders w ON w.id = a.work_order_id
      WHERE w.code LIKE 'LWO-%' GROUP BY w.code ORDER BY w.code`.execute(t.db);
    const n = perWorkOrder.rows.map((r) => Number(r.n));
    expect(n.slice(0, 2)).toEqual([250, 250]);
    expect(Math.max(...n.slice(2)) - Math.min(...n.slice(2))).toBeLessThanOrEqual(1);
    // The load skips the foreign keys' per-row checks: every reference holds all the same.
    const dangling = await sql<{ n: string }>`
      SELECT (SELECT count(*) FROM activities a WHERE NOT EXISTS (SELECT 1 FROM work_orders w WHERE w.id = a.work_order_id)
                OR NOT EXISTS (SELECT 1 FROM technicians t WHERE t.code = a.agent_code)
                OR NOT EXISTS (SELECT 1 FROM activity_types y WHERE y.code = a.type_code))
           + (SELECT count(*) FROM used_items u WHERE NOT EXISTS (SELECT 1 FROM work_orders w WHERE w.id = u.work_order_id)
                OR (u.item_code IS NOT NULL AND NOT EXISTS (SELECT 1 FROM items i WHERE i.code = u.item_code))
                OR NOT EXISTS (SELECT 1 FROM technicians t WHERE t.code = u.technician_code))
           + (SELECT count(*) FROM technician_positions p
                WHERE NOT EXISTS (SELECT 1 FROM technicians t WHERE t.code = p.technician_code))
           + (SELECT count(*) FROM work_orders w WHERE w.code LIKE 'LWO-%' AND (
                NOT EXISTS (SELECT 1 FROM technicians t WHERE t.code = w.technician_code)
                OR NOT EXISTS (SELECT 1 FROM offices o WHERE o.id = w.office_id)
                OR NOT EXISTS (SELECT 1 FROM work_order_types y WHERE y.code = w.type_code)))
           + (SELECT count(*) FROM technicians t WHERE NOT EXISTS (SELECT 1 FROM offices o WHERE o.id = t.office_id))
           AS n`.execute(t.db);
    expect(Number(dangling.rows[0].n)).toBe(0);
    const busy = await sql<{ n: string }>`
      SELECT count(*) AS n FROM technician_positions WHERE technician_code = 'LT-0002'`.execute(t.db);
    expect(Number(busy.rows[0].n)).toBe(300);

    // A second run finds the dataset and adds nothing.
    expect((await seedLarge(t.db, TINY)).loaded).toBe(false);
    // Deterministic: deleted and loaded again, the same rows (uuids, times, prices...).
    await sql`DELETE FROM work_orders WHERE code LIKE 'LWO-%'`.execute(t.db);
    await sql`DELETE FROM technician_positions WHERE technician_code LIKE 'LT-%'`.execute(t.db);
    await sql`DELETE FROM technicians WHERE code LIKE 'LT-%'`.execute(t.db);
    await seedLarge(t.db, TINY);
    expect(await digest()).toEqual(d1);
  });

  it('the loaded rows answer through the API: a heavy work order, a busy technician', async () => {
    // The demo's tree (HQ) is another root than the harness's: an application of HQ reads it.
    const hq = await t.db
      .selectFrom('offices')
      .select('id')
      .where('code', '=', 'HQ')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('applications')
      .values({
        client_id: 'hq-reader',
        secret_hash: await hashSecret('hq-secret'),
        name: 'HQ',
        office_id: hq.id,
        scopes: [...ALL_SCOPES],
      })
      .execute();
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('hq-reader:hq-secret').toString('base64')}`,
      },
      payload: 'grant_type=client_credentials',
    });
    const headers = { authorization: `Bearer ${token.json().access_token}` };
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers });
    const wo = await get(urlOf(activityTotalsByCode, { params: { workOrderCode: 'LWO-000001' } }));
    expect(wo.json()).toMatchObject({ count: 250, workOrderCode: 'LWO-000001' });
    const used = await get(
      urlOf(listUsedItemsByCode, { params: { workOrderCode: 'lwo-000002' }, query: { pageSize: 200 } }),
    );
    expect(used.json().data).toHaveLength(200);
    const positions = await get(urlOf(listPositions, { params: { technicianCode: 'LT-0001' } }));
    expect(positions.json().data).toHaveLength(300);
  });

  it('the command refuses other sizes and scales; progress as a bar or as lines', async () => {
    const cli = (...argv: string[]) => runCapturedCli(argv, { database: t.db });
    expect((await cli('seed', '--size', 'huge')).stderr).toContain('--size: demo or large');
    expect((await cli('seed', '--scale', '0.5')).stderr).toContain('--scale goes with --size large');
    expect((await cli('seed', '--size', 'large', '--scale', '2')).stderr).toContain('--scale: a number');
    let bar = '';
    const tty = progressPrinter((s) => {
      bar += s;
    }, true);
    tty.update({ phase: 'activities', done: 50, total: 100 });
    tty.end();
    expect(bar).toMatch(/^\rseed large \[#{15}-{15}\] {2}50% {2}activities .*50\/100 rows/);
    let lines = '';
    const plain = progressPrinter((s) => {
      lines += s;
    }, false);
    plain.update({ phase: 'work orders', done: 10, total: 100 });
    plain.update({ phase: 'work orders', done: 20, total: 100 });
    plain.update({ phase: 'activities', done: 60, total: 100 });
    expect(lines.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^seed large: 10% work orders \(10 of 100 rows, \d+ s\)$/),
      expect.stringMatching(/^seed large: 60% activities/),
    ]);
  });
});
