#!/usr/bin/env node
/**
 * Slot search: milliseconds per search with 50, 500 and 2,000 technicians over 4 weeks of
 * realistic schedules (6 scheduled work orders a working day each, Monday to Friday,
 * 08:00-17:00 Europe/Paris, homes and work spread over the Lille area; 80 % hold the skill).
 *
 * Builds the service in-process (the test harness: real route, auth, validation) on a
 * temporary PGlite data directory, and on PostgreSQL too when one answers at 127.0.0.1:5432
 * (or BENCH_DATABASE_URL); bulk-inserts the technicians and their work orders in SQL, then
 * times POST /rest/v3/slots/search (REPS searches after 3 warm-ups, a random target each):
 *   - week: one working week (the planner's usual horizon), default 50 slots;
 *   - 4 weeks: the whole loaded period, 50 slots;
 *   - first of day: one week, FIRST_OF_THE_DAY, 700 slots.
 * Prints p50 and p99 per size and kind. Aim: p50 under 50 ms at 500 technicians.
 *
 *   node bench/slots.mjs                 # SIZES=50,500,2000 REPS=40
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { register } from 'tsx/esm/api';

register();
const { createTestApp } = await import('../src/server/testing/harness.ts');
const { runImport } = await import('../src/server/cli/importFile.ts');
const { sql } = await import('kysely');

const SIZES = (process.env.SIZES ?? '50,500,2000').split(',').map(Number);
const REPS = Number(process.env.REPS ?? 40);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const UNLIMITED = Object.fromEntries(
  ['high', 'standard', 'low'].map((r) => [r, { perMinute: 1e9, perHour: 1e9 }]),
);
const DAY = 86_400_000;

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x) => x.toFixed(1).padStart(7);

function portOpen(host, port) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 500 }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
    s.on('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

/** The first Monday at least a week ahead (UTC), YYYY-MM-DD. */
function monday() {
  const d = new Date(Math.floor(Date.now() / DAY) * DAY + 7 * DAY);
  while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
const plusDays = (date, n) => new Date(Date.parse(date) + n * DAY).toISOString().slice(0, 10);

// A deterministic pseudo-random generator, so both databases get the same searches.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function load(t, n, start) {
  await runImport(t.db, {
    skills: [
      { skillCode: 'ELEC', name: 'Electricity' },
      { skillCode: 'GAS', name: 'Gas' },
    ],
    workOrderTypes: [
      { workOrderTypeCode: 'REPAIR', name: 'Repair', durationMinutes: 60, skills: ['ELEC'] },
      { workOrderTypeCode: 'VISIT', name: 'Visit', durationMinutes: 45, skills: [] },
    ],
  });
  const hours = JSON.stringify([1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '08:00', end: '17:00' })));
  await sql`
    INSERT INTO technicians (code, name, office_id, skills, active, home_latitude, home_longitude,
                             time_zone, working_hours, absences)
    SELECT 'T' || lpad(g::text, 5, '0'), 'Technician ' || g,
           (SELECT id FROM offices WHERE code = (ARRAY['NORTH','NORTH-A','SOUTH'])[1 + g % 3]),
           CASE WHEN g % 5 = 0 THEN ARRAY['GAS'] ELSE ARRAY['ELEC'] END, true,
           50.3 + (g * 7919 % 1000) / 1000.0 * 0.6, 2.7 + (g * 104729 % 1000) / 1000.0 * 0.7,
           'Europe/Paris', ${hours}::jsonb, '[]'::jsonb
    FROM generate_series(1, ${n}::int) g`.execute(t.db);
  // 6 visits of 45 minutes a working day, local time: 08:00, 08:55, 09:50, then 13:00, 13:55,
  // 14:50 (10 minutes between them for travel); free from 10:35 to 13:00 and after 15:35.
  await sql`
    INSERT INTO work_orders (uuid, code, type_code, status, office_id, latitude, longitude,
                             technician_code, scheduled_start)
    SELECT gen_random_uuid(), 'WO-' || t.code || '-' || d || '-' || k, 'VISIT', 'SCHEDULED', t.office_id,
           t.home_latitude + ((d * 31 + k * 17) % 100 - 50) / 1000.0,
           t.home_longitude + ((d * 13 + k * 41) % 100 - 50) / 1000.0,
           t.code, ((${start}::date + d) + time '08:00'
             + (ARRAY[0, 55, 110, 300, 355, 410])[k + 1] * interval '1 minute') AT TIME ZONE 'Europe/Paris'
    FROM technicians t, generate_series(0, 27) d, generate_series(0, 5) k
    WHERE extract(isodow FROM ${start}::date + d) < 6`.execute(t.db);
  await sql`ANALYZE`.execute(t.db);
  const { rows } = await sql`SELECT count(*)::int AS n FROM work_orders`.execute(t.db);
  return rows[0].n;
}

async function run(label, overrides) {
  const start = monday();
  for (const n of SIZES) {
    const t = await createTestApp({ ...overrides(n), rateLimits: UNLIMITED });
    try {
      const t0 = performance.now();
      const workOrders = await load(t, n, start);
      const loaded = performance.now();
      const random = rng(n);
      const target = () => ({ latitude: 50.35 + random() * 0.5, longitude: 2.75 + random() * 0.6 });
      const week2 = { start: `${plusDays(start, 7)}T00:00`, end: `${plusDays(start, 12)}T00:00` };
      const kinds = {
        week: () => ({ workOrderType: { code: 'REPAIR' }, timeRanges: [week2], location: target() }),
        '4 weeks': () => ({
          workOrderType: { code: 'REPAIR' },
          timeRanges: [{ start: `${start}T00:00`, end: `${plusDays(start, 28)}T00:00` }],
          location: target(),
        }),
        'first of day': () => ({
          workOrderType: { code: 'REPAIR' },
          timeRanges: [week2],
          location: target(),
          perResource: 'FIRST_OF_THE_DAY',
          maximumSlotNumber: 700,
        }),
      };
      const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
      const counts = Object.fromEntries(Object.keys(kinds).map((k) => [k, 0]));
      for (let round = 0; round < REPS + 3; round++) {
        for (const [kind, body] of Object.entries(kinds)) {
          const b = body();
          const s = performance.now();
          const res = await t.call('POST', '/rest/v3/slots/search', { body: b });
          const elapsed = performance.now() - s;
          if (res.statusCode !== 200) throw new Error(`${kind}: ${res.statusCode} ${res.body}`);
          if (round >= 3) {
            times[kind].push(elapsed);
            counts[kind] += res.json().slots.length;
          }
        }
      }
      console.log(
        `\n${label}: ${n} technicians, ${workOrders} scheduled work orders over 4 weeks (load ${((loaded - t0) / 1000).toFixed(1)} s)`,
      );
      console.log('  search        |  p50 ms |  p99 ms | slots per answer');
      for (const kind of Object.keys(kinds))
        console.log(
          `  ${kind.padEnd(13)} | ${ms(pct(times[kind], 0.5))} | ${ms(pct(times[kind], 0.99))} | ${(counts[kind] / REPS).toFixed(0)}`,
        );
    } finally {
      await t.close();
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-'));
const savedUrl = process.env.TEST_DATABASE_URL;
try {
  delete process.env.TEST_DATABASE_URL;
  await run('PGlite (temp data dir)', (n) => ({ dataDir: join(dir, String(n)) }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const url = new URL(PG_URL);
if (await portOpen(url.hostname, Number(url.port || 5432))) {
  process.env.TEST_DATABASE_URL = PG_URL;
  await run(`PostgreSQL (${url.host})`, () => ({}));
  if (savedUrl === undefined) delete process.env.TEST_DATABASE_URL;
} else {
  console.log(`\nPostgreSQL: nothing answers at ${url.host}, skipped`);
}
process.exit(0);
