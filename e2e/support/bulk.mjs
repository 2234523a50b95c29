/**
 * The large part of the e2e dataset, generated instead of committed (5,000 activities would
 * be a 1 MB JSON file): e2e/support/server.mjs writes `bulkDocument()` next to its data
 * directory and imports it with `fieldwork import` right after dataset.json.
 *
 * - work order WO-E2E-BULK (NORTH, defined in dataset.json): 5,000 activities (25 pages of
 *   200) and 300 used items (pageSize up to 200: 2 pages at least);
 * - technician TECH-N1: one position a minute on 2025-06-02 from 07:00 to 18:00 (661: two
 *   pages of 500), a loop around Lille;
 * - office FLEET (dataset.json): 2,000 technicians FLEET-0001... (the dispatch board's 20
 *   pages of 100), a scheduled work order on every fourth one on BOARD_DAY, and the work
 *   orders e2e/board.spec.ts moves: WO-E2E-BD1..3 to schedule, WO-E2E-BDB booked on
 *   FLEET-0001 at 09:00 UTC that day (a busy time).
 *
 * Deterministic: the same rows on every run. BULK_EXPECTED holds the figures the console's
 * tests check (row counts and the totals the aggregate extensions answer).
 */

export const BULK_WORK_ORDER = 'WO-E2E-BULK';
export const BULK_TECHNICIAN = 'TECH-N1';
export const BULK_DAY = '2025-06-02';
const ACTIVITIES = 5000;
const USED_ITEMS = 300;
const DAY_START = Date.parse(`${BULK_DAY}T07:00:00Z`);
const POSITIONS = 661;

export const BOARD_OFFICE = 'FLEET';
export const BOARD_DAY = '2030-02-04';
export const BOARD_TECHNICIANS = 2000;
/** The board on BOARD_DAY for BOARD_OFFICE, and the API read of its rows. */
export const BOARD_PATH = `/rostering/board?date=${BOARD_DAY}&office=${BOARD_OFFICE}`;
export const BOARD_READ = '/rest/v3/slots/board';
/** The board's technician i (1-based): FLEET-0001... */
export const boardTechnician = (i) => `${BOARD_OFFICE}-${pad(i, 4)}`;

const iso = (ms) => new Date(ms).toISOString().slice(0, 19);
const pad = (n, w) => String(n).padStart(w, '0');

/** Activity i (1-based): two a start time (a tie), 10 to 69 minutes, billable 3 in 4, validated 1 in 3. */
function activity(i) {
  const start = Date.parse('2025-06-02T06:00:00Z') + Math.floor(i / 2) * 15 * 60_000;
  const minutes = 10 + ((i * 7) % 60);
  return {
    activityId: `E2E-ACT-${pad(i, 5)}`,
    workOrderCode: BULK_WORK_ORDER,
    activityTypeCode: ['WORK', 'TRAVEL', 'DIAG'][i % 3],
    agentCode: i % 5 === 0 ? 'TECH-N2' : 'TECH-N1',
    startTime: iso(start),
    endTime: iso(start + minutes * 60_000),
    billable: i % 4 !== 0,
    ...(i % 3 === 0 ? { validatedAt: iso(start + 3 * 86_400_000) } : {}),
  };
}

/** Used item i: parts (2 in 3, 12.50 each), labour hours at 60.00 otherwise; internal 1 in 4. */
function usedItem(i) {
  const labour = i % 3 === 0;
  return {
    usedItemId: `E2E-USE-${pad(i, 4)}`,
    workOrderCode: BULK_WORK_ORDER,
    kind: labour ? 'labour' : 'part',
    itemCode: labour ? 'E2E-LABOUR' : 'E2E-FILTER',
    quantity: labour ? 0.5 * (1 + (i % 4)) : 1 + (i % 3),
    unit: labour ? 'hour' : 'piece',
    unitPrice: labour ? 60 : 12.5,
    invoiceMode: i % 4 === 0 ? 'internal' : 'external',
    technicianCode: 'TECH-N1',
    lastUpdate: iso(Date.parse('2025-06-02T08:00:00Z') + Math.floor(i / 2) * 60_000),
  };
}

/** Position k (0-based): a loop of about 3 km around Lille, one a minute. */
function position(k) {
  const a = (k / POSITIONS) * 2 * Math.PI;
  const round = (x) => Math.round(x * 1e6) / 1e6;
  return {
    technicianCode: BULK_TECHNICIAN,
    timestamp: iso(DAY_START + k * 60_000),
    latitude: round(50.6292 + 0.02 * Math.sin(a) + 0.002 * Math.sin(a * 9)),
    longitude: round(3.0573 + 0.03 * (1 - Math.cos(a)) + 0.002 * Math.cos(a * 7)),
    accuracy: 4 + (k % 9),
    speed: k % 60 < 45 ? 8 + (k % 5) : 0,
    heading: (k * 3) % 360,
  };
}

/** Technicians of FLEET around Lille, Monday to Friday 08:00 to 17:00 in Paris, ELEC. */
function fleetTechnician(i) {
  return {
    technicianCode: boardTechnician(i),
    name: `Fleet technician ${i}`,
    officeCode: BOARD_OFFICE,
    skills: ['ELEC'],
    home: { latitude: 50.6 + (i % 20) * 0.004, longitude: 3.0 + (i % 17) * 0.005 },
    timeZone: 'Europe/Paris',
    workingHours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '08:00', end: '17:00' })),
  };
}

const LILLE = { zipCode: '59000', city: 'Lille', country: 'FR', latitude: 50.633, longitude: 3.066 };
/** The board's work orders: one booked on every fourth technician, and those the spec moves. */
function boardWorkOrders() {
  const booked = Array.from({ length: BOARD_TECHNICIANS / 4 }, (_, k) => ({
    workOrderCode: `WO-E2E-FLEET-${pad(k + 1, 4)}`,
    workOrderTypeCode: 'REPAIR',
    status: 'SCHEDULED',
    officeCode: BOARD_OFFICE,
    technicianCode: boardTechnician(4 * k + 2),
    scheduledStart: `${BOARD_DAY}T${pad(7 + (k % 8), 2)}:00`,
    location: LILLE,
  }));
  const toSchedule = [1, 2, 3].map((n) => ({
    workOrderCode: `WO-E2E-BD${n}`,
    workOrderTypeCode: 'REPAIR',
    status: 'NEW',
    officeCode: BOARD_OFFICE,
    location: LILLE,
  }));
  const busy = {
    workOrderCode: 'WO-E2E-BDB',
    workOrderTypeCode: 'REPAIR',
    status: 'SCHEDULED',
    officeCode: BOARD_OFFICE,
    technicianCode: boardTechnician(1),
    scheduledStart: `${BOARD_DAY}T09:00`,
    location: LILLE,
  };
  return [...booked, ...toSchedule, busy];
}

export function bulkDocument() {
  return {
    technicians: Array.from({ length: BOARD_TECHNICIANS }, (_, i) => fleetTechnician(i + 1)),
    workOrders: boardWorkOrders(),
    activities: Array.from({ length: ACTIVITIES }, (_, i) => activity(i + 1)),
    usedItems: Array.from({ length: USED_ITEMS }, (_, i) => usedItem(i + 1)),
    positions: Array.from({ length: POSITIONS }, (_, k) => position(k)),
  };
}

function expected() {
  const doc = bulkDocument();
  const seconds = (a) => (Date.parse(`${a.endTime}Z`) - Date.parse(`${a.startTime}Z`)) / 1000;
  const sum = (rows) => ({ count: rows.length, durationSeconds: rows.reduce((s, a) => s + seconds(a), 0) });
  const money = (x) => Math.round(x * 100) / 100;
  const items = (rows) => ({
    count: rows.length,
    quantity: Math.round(rows.reduce((s, u) => s + u.quantity, 0) * 1000) / 1000,
    amount: money(rows.reduce((s, u) => s + u.quantity * u.unitPrice, 0)),
    unpricedCount: 0,
  });
  return {
    activities: {
      ...sum(doc.activities),
      billable: sum(doc.activities.filter((a) => a.billable)),
      notBillable: sum(doc.activities.filter((a) => !a.billable)),
      validatedCount: doc.activities.filter((a) => a.validatedAt).length,
    },
    usedItems: {
      all: items(doc.usedItems),
      external: items(doc.usedItems.filter((u) => u.invoiceMode === 'external')),
      internal: items(doc.usedItems.filter((u) => u.invoiceMode === 'internal')),
    },
    positions: { technicianCode: BULK_TECHNICIAN, day: BULK_DAY, count: POSITIONS },
  };
}

/** Row counts and totals of the bulk rows (the API's totals extensions answer the same). */
export const BULK_EXPECTED = expected();
