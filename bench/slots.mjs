#!/usr/bin/env node
/**
 * Slot search: milliseconds per search with 50, 500 and 2,000 technicians over 4 weeks of
 * realistic schedules (6 scheduled work orders a working day each, Monday to Friday,
 * 08:00-17:00 Europe/Paris, homes and work spread over the Lille area; 80 % hold the skill),
 * and the goals of issue 28 met or not.
 *
 * Builds the service in-process (the test harness: real route, auth, validation) on a
 * temporary PGlite data directory, and on PostgreSQL too when one answers at 127.0.0.1:5432
 * (or BENCH_DATABASE_URL); bulk-inserts the technicians and their work orders in SQL, then
 * times POST /rest/v3/slots/search (REPS searches after 3 warm-ups, a random target each):
 *   - week: one working week (the planner's usual horizon), default 50 slots;
 *   - 4 weeks: the whole loaded period, 50 slots;
 *   - first of day: one week, FIRST_OF_THE_DAY, 700 slots;
 *   - explain: one week with `explain: true` (every technician worked out and explained).
 * The first search of each size runs on an empty calendar index (cold: every calendar read);
 * the others find it warm. The index's memory is the heap it holds once warm (after a GC).
 * "CPU ms" is this process's CPU over the request (the service; with PGlite the database
 * too, with PostgreSQL not its backend): steadier than the elapsed time on a busy machine.
 *
 *   node bench/slots.mjs                 # SIZES=50,500,2000 REPS=60 DATABASES=pglite,postgres
 *
 * Figures taken while other processes compete for the CPU are noisy: the load average is
 * printed with each table; take the goals' figures on a quiet machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { register } from 'tsx/esm/api';

register();
const { createTestApp } = await import('../src/server/testing/harness.ts');
const { runImport } = await import('../src/server/cli/importFile.ts');
const { calendarIndexOf } = await import('../src/server/domains/slots/calendarIndex.ts');
const { sql } = await import('kysely');

v8.setFlagsFromString('--expose_gc');
const gc = vm.runInNewContext('gc');

const SIZES = (process.env.SIZES ?? '50,500,2000').split(',').map(Number);
const DATABASES = (process.env.DATABASES ?? 'pglite,postgres').split(',');
const REPS = Number(process.env.REPS ?? 60);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const UNLIMITED = Object.fromEntries(
  ['high', 'standard', 'low'].map((r) => [r, { perMinute: 1e9, perHour: 1e9 }]),
);
const DAY = 86_400_000;

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (x) => (x === undefined ? '' : x.toFixed(1));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

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

async function loadSchedules(t, n, start) {
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

/** Per database: figures[kind][size] = { p50, p99 }, plus the cold first search and the index. */
async function run(label, overrides) {
  const start = monday();
  const figures = {};
  const loadAtStart = load();
  for (const n of SIZES) {
    // Loading 240,000 work orders in one statement takes longer than the service's statement timeout.
    const t = await createTestApp({ ...overrides(n), rateLimits: UNLIMITED, dbTimeoutMs: 30 * 60_000 });
    try {
      const t0 = performance.now();
      const workOrders = await loadSchedules(t, n, start);
      const loaded = performance.now();
      const random = rng(n);
      const target = () => ({ latitude: 50.35 + random() * 0.5, longitude: 2.75 + random() * 0.6 });
      const week2 = { start: `${plusDays(start, 7)}T00:00`, end: `${plusDays(start, 12)}T00:00` };
      const fourWeeks = { start: `${start}T00:00`, end: `${plusDays(start, 28)}T00:00` };
      const kinds = {
        '1 week': () => ({ workOrderType: { code: 'REPAIR' }, timeRanges: [week2], location: target() }),
        '4 weeks': () => ({ workOrderType: { code: 'REPAIR' }, timeRanges: [fourWeeks], location: target() }),
        'first of day': () => ({
          workOrderType: { code: 'REPAIR' },
          timeRanges: [week2],
          location: target(),
          perResource: 'FIRST_OF_THE_DAY',
          maximumSlotNumber: 700,
        }),
        explain: () => ({
          workOrderType: { code: 'REPAIR' },
          timeRanges: [week2],
          location: target(),
          explain: true,
        }),
      };
      const post = async (body) => {
        const s = performance.now();
        const cpu0 = process.cpuUsage();
        const res = await t.call('POST', '/rest/v3/slots/search', { body });
        const elapsed = performance.now() - s;
        const cpu = process.cpuUsage(cpu0);
        if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
        return { elapsed, cpu: (cpu.user + cpu.system) / 1000, answer: res.json() };
      };
      // The index empty: every calendar of the 4 weeks read and worked out.
      const index = await calendarIndexOf(t.app.fieldwork.dbh);
      index.clear();
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      const cold = await post(kinds['4 weeks']());
      const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
      const cpuTimes = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
      const counts = Object.fromEntries(Object.keys(kinds).map((k) => [k, 0]));
      for (let round = 0; round < REPS + 3; round++) {
        for (const [kind, body] of Object.entries(kinds)) {
          const { elapsed, cpu, answer } = await post(body());
          if (round >= 3) {
            times[kind].push(elapsed);
            cpuTimes[kind].push(cpu);
            counts[kind] += answer.slots.length;
          }
        }
      }
      gc();
      const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
      const size = index.size;
      console.log(
        `\n${label}: ${n} technicians, ${workOrders} scheduled work orders over 4 weeks (load ${((loaded - t0) / 1000).toFixed(1)} s, load average ${load()})`,
      );
      console.log(
        `  calendar index: ${size.technicians} technicians, ${size.workOrders} work orders, ${size.days} days kept, ` +
          `about ${heapMb.toFixed(1)} MB of heap (${((heapMb * 2 ** 20) / Math.max(size.workOrders, 1)).toFixed(0)} bytes a work order); ` +
          `first 4-week search on an empty index ${ms(cold.elapsed)} ms`,
      );
      console.log('  search        |  p50 ms |  p99 ms | CPU ms p50 | slots per answer');
      for (const kind of Object.keys(kinds)) {
        const p50 = pct(times[kind], 0.5);
        const p99 = pct(times[kind], 0.99);
        figures[kind] ??= {};
        figures[kind][n] = { p50, p99, cpu: pct(cpuTimes[kind], 0.5) };
        console.log(
          `  ${kind.padEnd(13)} | ${ms(p50).padStart(7)} | ${ms(p99).padStart(7)} | ${ms(pct(cpuTimes[kind], 0.5)).padStart(10)} | ${(counts[kind] / REPS).toFixed(0)}`,
        );
      }
    } finally {
      await t.close();
    }
  }
  return { label, figures, load: `${loadAtStart} -> ${load()}` };
}

/** The goals of issue 28 and whether each is met. */
function goals(results) {
  const row = (search, kind, db, cells) => {
    const r = results.find((x) => x.label.startsWith(db));
    if (!r) return `| ${search} | ${db} | not measured | | |`;
    const f = (n) => r.figures[kind]?.[n];
    const out = [`| ${search} | ${db}`];
    for (const [n, goal] of cells) {
      const v = f(n);
      if (!goal) {
        out.push(v ? `p50 ${ms(v.p50)} (CPU ${ms(v.cpu)}), p99 ${ms(v.p99)}` : '');
        continue;
      }
      if (!v) {
        out.push(`not measured (goal ${goal.text})`);
        continue;
      }
      const ok = v.p50 <= goal.p50 && (goal.p99 === undefined || v.p99 <= goal.p99);
      out.push(
        `p50 ${ms(v.p50)} (CPU ${ms(v.cpu)}), p99 ${ms(v.p99)} ${ok ? 'MET' : 'MISSED'} (goal ${goal.text})`,
      );
    }
    return `${out.join(' | ')} |`;
  };
  const g = (p50, p99) => ({ p50, p99, text: `p50 <= ${p50}${p99 ? `, p99 <= ${p99}` : ''} ms` });
  console.log(
    '\nGoals of issue 28 (ms per search over HTTP in-process, 4 weeks loaded, 6 work orders a day; CPU: this\n' +
      'process only, with PostgreSQL not its backend: on a busy machine read the CPU)',
  );
  for (const r of results) console.log(`  ${r.label}: load average ${r.load} (${cpus().length} cores)`);
  console.log('| search | database | 50 technicians | 500 technicians | 2,000 technicians |');
  console.log('|---|---|---|---|---|');
  console.log(row('4 weeks, 50 slots', '4 weeks', 'PostgreSQL', [[50], [500, g(50, 120)], [2000, g(150)]]));
  console.log(row('4 weeks, 50 slots', '4 weeks', 'PGlite', [[50], [500, g(100)], [2000, g(300)]]));
  console.log(row('1 week', '1 week', 'PostgreSQL', [[50], [500, g(25)], [2000]]));
  console.log(row('1 week', '1 week', 'PGlite', [[50], [500, g(25)], [2000]]));
}

const results = [];
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-'));
const savedUrl = process.env.TEST_DATABASE_URL;
try {
  delete process.env.TEST_DATABASE_URL;
  if (DATABASES.includes('pglite'))
    results.push(await run('PGlite (temp data dir)', (n) => ({ dataDir: join(dir, String(n)) })));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const url = new URL(PG_URL);
if (!DATABASES.includes('postgres')) {
  // not asked for
} else if (await portOpen(url.hostname, Number(url.port || 5432))) {
  process.env.TEST_DATABASE_URL = PG_URL;
  results.push(await run(`PostgreSQL (${url.host})`, () => ({})));
  if (savedUrl === undefined) delete process.env.TEST_DATABASE_URL;
} else {
  console.log(`\nPostgreSQL: nothing answers at ${url.host}, skipped`);
}
goals(results);
process.exit(0);
