/**
 * `fieldwork seed --size large`: a deterministic large dataset on top of the demo dataset,
 * for benchmarks and for trying the console's grids on real volumes.
 *
 * At scale 1: 1,000 technicians (LT-0001...), 50,000 work orders (LWO-000001...), 2,000,000
 * activities, 500,000 used items and 5,000,000 positions. The first 5 work orders hold
 * 20,000 activities and 20,000 used items each, the first 20 technicians 100,000 positions
 * each (one every 30 s); the rest is spread evenly.
 *
 * Every row is computed in the database from its number (`INSERT ... SELECT ... FROM
 * generate_series`): nothing crosses the wire but the statements, one multi-row insert of
 * about 100,000 rows at a time, in key order so the indexes grow at their right edge. Values
 * derive from the row numbers only (uuids are md5 of the number, times are fixed), so two
 * runs build the same rows. The whole load is one transaction (all or nothing); ANALYZE runs
 * after it.
 */
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { enterTenant } from '../db/tenant.ts';

export interface LargePlan {
  technicians: number;
  /** The first `busyTechnicians` technicians hold `busyPositions` positions each. */
  busyTechnicians: number;
  busyPositions: number;
  /** Every position, busy technicians' included. */
  positions: number;
  workOrders: number;
  /** The first `heavyWorkOrders` work orders hold `heavyRows` activities and used items each. */
  heavyWorkOrders: number;
  heavyRows: number;
  activities: number;
  usedItems: number;
}

export const LARGE_PLAN: LargePlan = {
  technicians: 1000,
  busyTechnicians: 20,
  busyPositions: 100_000,
  positions: 5_000_000,
  workOrders: 50_000,
  heavyWorkOrders: 5,
  heavyRows: 20_000,
  activities: 2_000_000,
  usedItems: 500_000,
};

/**
 * The plan at a fraction of the volume (benchmarks on a busy machine): fewer technicians,
 * work orders and rows, but a heavy work order still holds 20,000 activities and a busy
 * technician 100,000 positions.
 */
export function scaledPlan(scale: number): LargePlan {
  if (!(scale > 0 && scale <= 1)) throw new Error('scale must be in (0, 1]');
  const p = LARGE_PLAN;
  const workOrders = Math.max(10, Math.round(p.workOrders * scale));
  const technicians = Math.max(5, Math.round(p.technicians * scale));
  const heavyWorkOrders = Math.max(1, Math.round(p.heavyWorkOrders * scale));
  const busyTechnicians = Math.max(1, Math.round(p.busyTechnicians * scale));
  const rest = (total: number, heavy: number, each: number, count: number) =>
    Math.max(Math.round(total * scale), heavy * each + (count - heavy));
  return {
    technicians,
    busyTechnicians,
    busyPositions: p.busyPositions,
    positions: rest(p.positions, busyTechnicians, p.busyPositions, technicians),
    workOrders,
    heavyWorkOrders,
    heavyRows: p.heavyRows,
    activities: rest(p.activities, heavyWorkOrders, p.heavyRows, workOrders),
    usedItems: rest(p.usedItems, heavyWorkOrders, p.heavyRows, workOrders),
  };
}

export function checkPlan(p: LargePlan) {
  const ints = Object.entries(p).filter(([, v]) => !Number.isInteger(v) || v < 1);
  if (ints.length) throw new Error(`plan: ${ints.map(([k]) => k).join(', ')} must be positive integers`);
  if (p.heavyWorkOrders >= p.workOrders || p.busyTechnicians >= p.technicians)
    throw new Error('plan: heavy work orders and busy technicians must leave others');
  const spread = (total: number, heavy: number, each: number, count: number) =>
    total - heavy * each >= count - heavy;
  if (!spread(p.activities, p.heavyWorkOrders, p.heavyRows, p.workOrders))
    throw new Error('plan: too few activities for one a work order');
  if (!spread(p.usedItems, p.heavyWorkOrders, p.heavyRows, p.workOrders))
    throw new Error('plan: too few used items for one a work order');
  if (!spread(p.positions, p.busyTechnicians, p.busyPositions, p.technicians))
    throw new Error('plan: too few positions for one a technician');
}

/** Names the dataset uses; the demo dataset provides them (seedDemo runs first). */
const OFFICES = ['FR-NORTH', 'FR-SOUTH', 'BE-BRU'] as const;
const HOMES = [
  [50.6292, 3.0573],
  [45.764, 4.8357],
  [50.8467, 4.3525],
] as const;
const PARTS = ['BELT-SPA', 'DOOR-SENS', 'FILTER-F7', 'FILTER-G4', 'GAS-R32'];
const LABOUR = 'LABOUR-H';
/** Fixed: the rows do not depend on the day the dataset is built. */
const STAMP = '2026-01-01T00:00:00Z';
const FIRST_DAY = '2025-01-06T07:00:00Z';

export const techCode = (n: number) => `LT-${String(n).padStart(4, '0')}`;
export const workOrderCode = (g: number) => `LWO-${String(g).padStart(6, '0')}`;

/** Per-row counts: `heavy` rows get `each`, the others share the rest evenly (the first ones one more). */
function spread(total: number, heavy: number, each: number, count: number) {
  const others = count - heavy;
  const rest = total - heavy * each;
  return { heavy, each, base: Math.floor(rest / others), extra: rest % others };
}

/** SQL: the number of rows of entity `g` under `spread`. */
const countOf = (g: ReturnType<typeof sql.ref>, s: ReturnType<typeof spread>) =>
  sql`CASE WHEN ${g} <= ${s.heavy}::int THEN ${s.each}::int
           WHEN ${g} <= ${s.heavy + s.extra}::int THEN ${s.base + 1}::int ELSE ${s.base}::int END`;

/**
 * Consecutive ranges of entities of about `target` rows each, with their row counts: the
 * heavy entities form their own ranges.
 */
function batches(count: number, s: ReturnType<typeof spread>, target = 100_000) {
  const out: [number, number, number][] = [];
  let start = 1;
  let rows = 0;
  for (let g = 1; g <= count; g++) {
    rows += g <= s.heavy ? s.each : g <= s.heavy + s.extra ? s.base + 1 : s.base;
    if (rows >= target || g === count || g === s.heavy) {
      out.push([start, g, rows]);
      start = g + 1;
      rows = 0;
    }
  }
  return out;
}

export interface SeedProgress {
  phase: string;
  done: number;
  total: number;
}

export interface LargeOutcome {
  loaded: boolean;
  plan: LargePlan;
  counts: {
    technicians: number;
    workOrders: number;
    activities: number;
    usedItems: number;
    positions: number;
  };
  seconds: number;
}

/** Rows the plan writes, in total (the progress bar's 100 %). */
export const totalRows = (p: LargePlan) =>
  p.technicians + p.workOrders + p.activities + p.usedItems + p.positions;

/**
 * Loads the large dataset unless its first work order exists already (then nothing is
 * written: `loaded: false`). The demo dataset must be loaded (offices, types, items).
 */
export async function seedLarge(
  db: Db,
  plan: LargePlan,
  onProgress: (p: SeedProgress) => void = () => {},
): Promise<LargeOutcome> {
  checkPlan(plan);
  const started = performance.now();
  const counts = {
    technicians: plan.technicians,
    workOrders: plan.workOrders,
    activities: plan.activities,
    usedItems: plan.usedItems,
    positions: plan.positions,
  };
  const present = await db
    .selectFrom('work_orders')
    .select('id')
    .where('code', '=', workOrderCode(1))
    .executeTakeFirst();
  if (present) return { loaded: false, plan, counts, seconds: 0 };

  const total = totalRows(plan);
  let done = 0;
  const step = (phase: string, rows: number) => {
    done += rows;
    onProgress({ phase, done, total });
  };

  await db.transaction().execute(async (trx) => {
    await skipForeignKeyChecks(trx);
    const demo = await demoReferences(trx);
    onProgress({ phase: 'technicians', done, total });
    await insertTechnicians(trx, plan, demo);
    step('technicians', plan.technicians);
    await insertWorkOrders(trx, plan, demo, step);
    await insertActivities(trx, plan, demo, step);
    await insertUsedItems(trx, plan, demo, step);
    await insertPositions(trx, plan, step);
  });

  onProgress({ phase: 'analyze', done, total });
  for (const table of ['technicians', 'work_orders', 'activities', 'used_items', 'technician_positions'])
    await sql`ANALYZE ${sql.table(table)}`.execute(db);
  return { loaded: true, plan, counts, seconds: (performance.now() - started) / 1000 };
}

type Step = (phase: string, rows: number) => void;

/**
 * Every row references rows that exist by construction (joined, or read just above), so
 * the per-row foreign key checks (triggers) are skipped for this transaction: about a
 * third of the load's time. PostgreSQL allows it to superusers (PGlite's user is one);
 * for another role the checks simply run.
 */
async function skipForeignKeyChecks(trx: Db) {
  await sql`SAVEPOINT seed_checks`.execute(trx);
  try {
    await sql`SET LOCAL session_replication_role = replica`.execute(trx);
    await sql`RELEASE SAVEPOINT seed_checks`.execute(trx);
  } catch {
    await sql`ROLLBACK TO SAVEPOINT seed_checks`.execute(trx);
  }
}

/** What the large dataset builds on (the demo's offices, work order and activity types, catalog), in the demo's tenant. */
async function demoReferences(trx: Db) {
  const offices = await trx
    .selectFrom('offices')
    .select(['id', 'code', 'path'])
    .where('code', 'in', [...OFFICES])
    .execute();
  // The demo's tenant (db/tenant.ts); the tenant triggers may be off (replica): each
  // INSERT gives tenant_id itself.
  if (offices[0]) await enterTenant(trx, offices[0].path.split('/')[1]);
  const officeId = (code: string) => offices.find((o) => o.code === code)?.id;
  const types = (await trx.selectFrom('work_order_types').select('code').orderBy('code').execute()).map(
    (t) => t.code,
  );
  const activityTypes = (await trx.selectFrom('activity_types').select('code').orderBy('code').execute()).map(
    (t) => t.code,
  );
  const items = await trx
    .selectFrom('items')
    .select(['code', 'unit', 'unit_price'])
    .where('code', 'in', [...PARTS, LABOUR])
    .orderBy('code')
    .execute();
  if (
    OFFICES.some((o) => !officeId(o)) ||
    types.length === 0 ||
    activityTypes.length === 0 ||
    items.length < 6
  )
    throw new Error('the large dataset builds on the demo dataset: load it first (fieldwork seed)');
  const parts = items.filter((i) => i.code !== LABOUR);
  const labour = items.find((i) => i.code === LABOUR) as (typeof items)[number];
  return { officeId, types, activityTypes, parts, labour };
}
type DemoReferences = Awaited<ReturnType<typeof demoReferences>>;

async function insertTechnicians(trx: Db, plan: LargePlan, demo: DemoReferences) {
  const { officeId } = demo;
  // Technicians LT-0001...: office and home by n % 3, all skills of the demo.
  await sql`
    INSERT INTO technicians (tenant_id, code, name, office_id, skills, active, home_latitude, home_longitude, time_zone, last_update)
    SELECT (SELECT fieldwork_tenant()), 'LT-' || lpad(n::text, 4, '0'), 'Large technician ' || n,
           (${OFFICES.map(officeId)}::bigint[])[1 + n % 3],
           ARRAY['ELEC', 'GAS', 'HVAC', 'LIFT', 'PLUMB', 'REFRIG'], true,
           (${HOMES.map((h) => h[0])}::float8[])[1 + n % 3] + ((n * 37) % 200 - 100) / 2000.0,
           (${HOMES.map((h) => h[1])}::float8[])[1 + n % 3] + ((n * 53) % 200 - 100) / 1500.0,
           CASE WHEN n % 3 = 2 THEN 'Europe/Brussels' ELSE 'Europe/Paris' END,
           ${STAMP}::timestamptz
    FROM generate_series(1, ${plan.technicians}::int) n`.execute(trx);
}

async function insertWorkOrders(trx: Db, plan: LargePlan, demo: DemoReferences, step: Step) {
  const { types } = demo;
  // Work orders LWO-000001...: technician 1 + (g - 1) % T and its office; the heavy ones
  // IN_PROGRESS, the others in a fixed cycle of statuses; scheduled over 2025.
  const statuses = [
    'COMPLETED',
    'VALIDATED',
    'COMPLETED',
    'IN_PROGRESS',
    'VALIDATED',
    'COMPLETED',
    'SCHEDULED',
    'CANCELLED',
    'VALIDATED',
    'COMPLETED',
  ];
  for (let a = 1; a <= plan.workOrders; a += 10_000) {
    const b = Math.min(plan.workOrders, a + 9_999);
    await sql`
      INSERT INTO work_orders (tenant_id, uuid, code, type_code, status, office_id, customer_code, city, country,
                               latitude, longitude, description, technician_code, scheduled_start, last_update)
      SELECT (SELECT fieldwork_tenant()), md5('fieldwork-large-work-order-' || g)::uuid, 'LWO-' || lpad(g::text, 6, '0'),
             (${types}::text[])[1 + g % ${types.length}::int],
             CASE WHEN g <= ${plan.heavyWorkOrders}::int THEN 'IN_PROGRESS'
                  ELSE (${statuses}::text[])[1 + g % 10] END,
             t.office_id, 'LARGE-CUSTOMER-' || (1 + g % 500),
             (ARRAY['Lille', 'Lyon', 'Bruxelles'])[1 + (1 + (g - 1) % ${plan.technicians}::int) % 3],
             (ARRAY['FR', 'FR', 'BE'])[1 + (1 + (g - 1) % ${plan.technicians}::int) % 3],
             t.home_latitude + ((g * 7) % 100 - 50) / 1000.0, t.home_longitude + ((g * 11) % 100 - 50) / 1000.0,
             'Large dataset work order ' || g, t.code,
             ${FIRST_DAY}::timestamptz + ((g * 7919) % 350) * interval '1 day' + (g % 8) * interval '1 hour',
             ${STAMP}::timestamptz
      FROM generate_series(${a}::int, ${b}::int) g
      JOIN technicians t ON t.code = 'LT-' || lpad((1 + (g - 1) % ${plan.technicians}::int)::text, 4, '0')
      ORDER BY g`.execute(trx);
    step('work orders', b - a + 1);
  }
}

/** The work orders LWO-a to LWO-b, with what their activities and used items derive from. */
const workOrderRange = (a: number, b: number) => sql`
  SELECT id, substr(code, 5)::int AS g, technician_code, scheduled_start, status FROM work_orders
  WHERE code BETWEEN ${workOrderCode(a)} AND ${workOrderCode(b)}`;

async function insertActivities(trx: Db, plan: LargePlan, demo: DemoReferences, step: Step) {
  const { activityTypes } = demo;
  // Activities: two a start time (pairs tie: the list's tie-breaker decides), 5 to 54 min
  // long; billable 3 in 4; validated when the work order is, or 1 in 3.
  const acts = spread(plan.activities, plan.heavyWorkOrders, plan.heavyRows, plan.workOrders);
  for (const [a, b, rows] of batches(plan.workOrders, acts)) {
    await sql`
      INSERT INTO activities (tenant_id, activity_id, work_order_id, type_code, agent_code, start_time, end_time,
                              billable, validated_at, last_update)
      SELECT (SELECT fieldwork_tenant()), 'LA-' || lpad(w.g::text, 6, '0') || '-' || lpad(k::text, 5, '0'), w.id,
             (${activityTypes}::text[])[1 + (k + w.g) % ${activityTypes.length}::int],
             CASE WHEN k % 7 = 0 THEN 'LT-' || lpad((1 + w.g % ${plan.technicians}::int)::text, 4, '0')
                  ELSE w.technician_code END,
             w.scheduled_start + (k / 2) * interval '10 minutes',
             w.scheduled_start + (k / 2) * interval '10 minutes' + (5 + (k * 13 + w.g) % 50) * interval '1 minute',
             (k + w.g) % 4 <> 0,
             CASE WHEN w.status = 'VALIDATED' OR (k + w.g) % 3 = 0
                  THEN w.scheduled_start + (k / 2) * interval '10 minutes' + interval '2 days' END,
             ${STAMP}::timestamptz
      FROM (${workOrderRange(a, b)}) w
      CROSS JOIN LATERAL generate_series(1, ${countOf(sql.ref('w.g'), acts)}) k`.execute(trx);
    step('activities', rows);
  }
}

async function insertUsedItems(trx: Db, plan: LargePlan, demo: DemoReferences, step: Step) {
  const { parts, labour } = demo;
  // Used items: 1 in 5 on the fly, 2 in 5 labour hours, the others parts of the demo
  // catalog at its prices; 1 in 4 internal; lastUpdate two a minute stamp (pairs tie).
  const used = spread(plan.usedItems, plan.heavyWorkOrders, plan.heavyRows, plan.workOrders);
  const partCodes = parts.map((p) => p.code);
  const partUnits = parts.map((p) => p.unit);
  const partPrices = parts.map((p) => p.unit_price);
  for (const [a, b, rows] of batches(plan.workOrders, used)) {
    await sql`
      INSERT INTO used_items (tenant_id, used_item_id, work_order_id, kind, item_code, label, quantity, unit, unit_price,
                              invoice_mode, technician_code, last_update)
      SELECT (SELECT fieldwork_tenant()), 'LU-' || lpad(w.g::text, 6, '0') || '-' || lpad(k::text, 5, '0'), w.id,
             CASE WHEN k % 5 = 0 THEN 'onTheFly' WHEN k % 5 IN (1, 2) THEN 'labour' ELSE 'part' END,
             CASE WHEN k % 5 = 0 THEN NULL WHEN k % 5 IN (1, 2) THEN ${labour.code}
                  ELSE (${partCodes}::text[])[1 + (k + w.g) % ${parts.length}::int] END,
             CASE WHEN k % 5 = 0 THEN (ARRAY['Sealant', 'Cable ties', 'Screws', 'Cleaning'])[1 + k % 4] END,
             CASE WHEN k % 5 = 0 THEN 1 WHEN k % 5 IN (1, 2) THEN 0.5 * (1 + k % 4) ELSE 1 + k % 3 END,
             CASE WHEN k % 5 = 0 THEN 'piece' WHEN k % 5 IN (1, 2) THEN ${labour.unit}
                  ELSE (${partUnits}::text[])[1 + (k + w.g) % ${parts.length}::int] END,
             CASE WHEN k % 5 = 0 THEN 2.5 + k % 10 WHEN k % 5 IN (1, 2) THEN ${labour.unit_price}::numeric
                  ELSE (${partPrices}::numeric[])[1 + (k + w.g) % ${parts.length}::int] END,
             CASE WHEN (k + w.g) % 4 = 0 THEN 'internal' ELSE 'external' END,
             w.technician_code,
             w.scheduled_start + (k / 2) * interval '7 minutes'
      FROM (${workOrderRange(a, b)}) w
      CROSS JOIN LATERAL generate_series(1, ${countOf(sql.ref('w.g'), used)}) k`.execute(trx);
    step('used items', rows);
  }
}

async function insertPositions(trx: Db, plan: LargePlan, step: Step) {
  // Positions: busy technicians one every 30 s, the others one a minute, from the first day;
  // a smooth loop around the technician's home.
  const pos = spread(plan.positions, plan.busyTechnicians, plan.busyPositions, plan.technicians);
  for (const [a, b, rows] of batches(plan.technicians, pos)) {
    await sql`
      INSERT INTO technician_positions (technician_code, recorded_at, latitude, longitude, accuracy, speed, heading)
      SELECT t.code,
             ${FIRST_DAY}::timestamptz
               + k * CASE WHEN t.n <= ${plan.busyTechnicians}::int THEN interval '30 seconds' ELSE interval '1 minute' END,
             t.home_latitude + 0.03 * sin(k / 500.0 + t.n) + 0.004 * sin(k / 37.0),
             t.home_longitude + 0.045 * cos(k / 500.0 + t.n) + 0.004 * cos(k / 41.0),
             3 + (k * 7) % 25, (k % 30) / 2.0, (k * 11 + t.n) % 360
      FROM (SELECT code, substr(code, 4)::int AS n, home_latitude, home_longitude FROM technicians
            WHERE code BETWEEN ${techCode(a)} AND ${techCode(b)}) t
      CROSS JOIN LATERAL generate_series(1, ${countOf(sql.ref('t.n'), pos)}) k`.execute(trx);
    step('positions', rows);
  }
}

/**
 * A progress bar on a terminal (redrawn in place), plain lines otherwise (at most one every
 * `every` ms, and one when a phase ends).
 */
export function progressPrinter(write: (text: string) => void, isTTY: boolean, every = 5000) {
  const started = performance.now();
  let last = 0;
  let lastPhase = '';
  const fmt = (n: number) => n.toLocaleString('en-US');
  return {
    update({ phase, done, total }: SeedProgress) {
      const now = performance.now();
      const pct = total ? Math.floor((done / total) * 100) : 100;
      const secs = Math.round((now - started) / 1000);
      if (isTTY) {
        const width = 30;
        const filled = Math.round((width * done) / (total || 1));
        write(
          `\rseed large [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(pct).padStart(3)}%  ${phase.padEnd(11)} ${fmt(done)}/${fmt(total)} rows  ${secs} s   `,
        );
        return;
      }
      if (phase !== lastPhase || now - last >= every) {
        write(`seed large: ${pct}% ${phase} (${fmt(done)} of ${fmt(total)} rows, ${secs} s)\n`);
        last = now;
        lastPhase = phase;
      }
    },
    end() {
      if (isTTY) write('\n');
    },
  };
}
