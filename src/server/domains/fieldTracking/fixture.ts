/**
 * Test data shared by the field tracking and field service tests: an import file over the
 * harness's office tree (ROOT > NORTH > NORTH-A, ROOT > SOUTH), and bulk inserts straight in
 * SQL where hundreds of rows are needed (an import of 400 activities would take seconds).
 */
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

export const U = {
  W200: '00000000-0000-4000-8000-000000000200',
  W201: '00000000-0000-4000-8000-000000000201',
  W400: '00000000-0000-4000-8000-000000000400',
  MIX: '00000000-0000-4000-8000-00000000000a',
  SOUTH: '00000000-0000-4000-8000-00000000000b',
  EMPTY: '00000000-0000-4000-8000-00000000000c',
  DUP1: '00000000-0000-4000-8000-00000000000d',
  DUP2: '00000000-0000-4000-8000-00000000000e',
  OLD: '00000000-0000-4000-8000-00000000000f',
  LIVE: '00000000-0000-4000-8000-000000000010',
} as const;

const wo = (uuid: string, workOrderCode: string, officeCode: string, status = 'IN_PROGRESS') => ({
  uuid,
  workOrderCode,
  workOrderTypeCode: 'REPAIR',
  status,
  officeCode,
});

/** Work orders, technicians, activity types and catalog items the tests name. */
export const baseFile = {
  skills: [{ skillCode: 'ELEC', name: 'Electricity' }],
  items: [
    { itemCode: 'PART-1', name: 'Fuse', unit: 'piece', unitPrice: 2.5 },
    { itemCode: 'LAB-H', name: 'Labour hour', unit: 'hour', unitPrice: 60 },
    { itemCode: 'PUMP', name: 'Pump', unit: 'piece', unitPrice: 120, serialNumberPattern: '^PMP-\\d{4}$' },
  ],
  workOrderTypes: [{ workOrderTypeCode: 'REPAIR', name: 'Repair', durationMinutes: 90, skills: ['ELEC'] }],
  technicians: [
    { technicianCode: 'T-N', name: 'Nora North', officeCode: 'NORTH', skills: ['ELEC'] },
    { technicianCode: 'T-NA', name: 'Nils North A', officeCode: 'NORTH-A' },
    { technicianCode: 'T-S', name: 'Sam South', officeCode: 'SOUTH', active: false },
  ],
  activityTypes: [
    { activityTypeCode: 'WORK', name: 'Work on site' },
    { activityTypeCode: 'TRAVEL', name: 'Travel' },
  ],
  workOrders: [
    wo(U.W200, 'WO-200', 'NORTH'),
    wo(U.W201, 'WO-201', 'NORTH'),
    wo(U.W400, 'WO-400', 'NORTH'),
    wo(U.MIX, 'WO-MIX', 'NORTH-A'),
    wo(U.SOUTH, 'WO-S', 'SOUTH'),
    wo(U.EMPTY, 'WO-EMPTY', 'NORTH', 'NEW'),
    wo(U.DUP1, 'WO-DUP', 'NORTH', 'NEW'),
    wo(U.DUP2, 'WO-DUP', 'NORTH-A', 'QUALIFIED'),
    wo(U.OLD, 'WO-V', 'NORTH', 'VALIDATED'),
    wo(U.LIVE, 'WO-V', 'NORTH', 'COMPLETED'),
  ],
};

export const BASE_START = Date.parse('2026-01-05T08:00:00Z');

/**
 * `n` activities on the work order `uuid`, ids `<prefix>0001`...: activity g starts at
 * BASE_START + floor(g / 2) x 15 min (so pairs share a start: the tie-breaker decides), lasts
 * 10 min (g % 5 = 0: 70 min), is billable when g is even, validated when g % 3 = 0.
 */
export async function insertActivities(db: Db, uuid: string, prefix: string, n: number) {
  await sql`
    INSERT INTO activities (activity_id, work_order_id, type_code, agent_code, start_time, end_time,
                            billable, validated_at)
    SELECT ${prefix} || lpad(g::text, 4, '0'),
           (SELECT id FROM work_orders WHERE uuid = ${uuid}),
           CASE WHEN g % 4 = 0 THEN 'TRAVEL' ELSE 'WORK' END, 'T-N',
           ${new Date(BASE_START).toISOString()}::timestamptz + (g / 2) * interval '15 minutes',
           ${new Date(BASE_START).toISOString()}::timestamptz + (g / 2) * interval '15 minutes'
             + CASE WHEN g % 5 = 0 THEN interval '70 minutes' ELSE interval '10 minutes' END,
           g % 2 = 0,
           CASE WHEN g % 3 = 0 THEN timestamptz '2026-02-01 12:00Z' END
    FROM generate_series(1, ${n}::int) g`.execute(db);
}

/** The activities insertActivities wrote, as the list must give them (ids in list order). */
export function expectedActivities(prefix: string, n: number) {
  const rows = Array.from({ length: n }, (_, i) => {
    const g = i + 1;
    const start = BASE_START + Math.floor(g / 2) * 15 * 60_000;
    return {
      activityId: `${prefix}${String(g).padStart(4, '0')}`,
      start,
      seconds: g % 5 === 0 ? 4200 : 600,
      billable: g % 2 === 0,
      validated: g % 3 === 0,
    };
  });
  return rows.sort((a, b) => a.start - b.start || (a.activityId < b.activityId ? -1 : 1));
}

/**
 * `n` positions of `technician`, every 30 s from `from`; latitude and longitude drift with the
 * index so each position is recognisable.
 */
export async function insertPositions(db: Db, technician: string, n: number, from = BASE_START) {
  await sql`
    INSERT INTO technician_positions (tenant_id, technician_code, recorded_at, latitude, longitude, accuracy, speed, heading)
    SELECT (SELECT tenant_id FROM technicians WHERE code = ${technician} LIMIT 1), ${technician}, ${new Date(from).toISOString()}::timestamptz + (g - 1) * interval '30 seconds',
           50 + g / 100000.0, 3 + g / 100000.0, 5, (g % 20)::real, (g % 360)::real
    FROM generate_series(1, ${n}::int) g`.execute(db);
}

/**
 * `n` used items on the work order `uuid`, ids `<prefix>0001`...: item g was last updated at
 * 2026-01-10 + floor(g / 2) minutes (pairs tie), is internal when g % 3 = 0, a part (PART-1,
 * quantity g % 4 + 1, 2.50 each) when g is odd, else labour (LAB-H, 0.5 h at 60.00).
 */
export async function insertUsedItems(db: Db, uuid: string, prefix: string, n: number) {
  await sql`
    INSERT INTO used_items (used_item_id, work_order_id, kind, item_code, quantity, unit, unit_price,
                            invoice_mode, technician_code, last_update)
    SELECT ${prefix} || lpad(g::text, 4, '0'),
           (SELECT id FROM work_orders WHERE uuid = ${uuid}),
           CASE WHEN g % 2 = 1 THEN 'part' ELSE 'labour' END,
           CASE WHEN g % 2 = 1 THEN 'PART-1' ELSE 'LAB-H' END,
           CASE WHEN g % 2 = 1 THEN g % 4 + 1 ELSE 0.5 END,
           CASE WHEN g % 2 = 1 THEN 'piece' ELSE 'hour' END,
           CASE WHEN g % 2 = 1 THEN 2.5 ELSE 60 END,
           CASE WHEN g % 3 = 0 THEN 'internal' ELSE 'external' END,
           'T-N',
           timestamptz '2026-01-10 00:00Z' + (g / 2) * interval '1 minute'
    FROM generate_series(1, ${n}::int) g`.execute(db);
}

/** The used items insertUsedItems wrote, in list order (lastUpdate then id, both descending). */
export function expectedUsedItems(prefix: string, n: number) {
  const base = Date.parse('2026-01-10T00:00:00Z');
  const rows = Array.from({ length: n }, (_, i) => {
    const g = i + 1;
    const odd = g % 2 === 1;
    const quantity = odd ? (g % 4) + 1 : 0.5;
    const unitPrice = odd ? 2.5 : 60;
    return {
      usedItemId: `${prefix}${String(g).padStart(4, '0')}`,
      lastUpdate: base + Math.floor(g / 2) * 60_000,
      internal: g % 3 === 0,
      quantity,
      amount: quantity * unitPrice,
    };
  });
  return rows.sort((a, b) => b.lastUpdate - a.lastUpdate || (a.usedItemId < b.usedItemId ? 1 : -1));
}
