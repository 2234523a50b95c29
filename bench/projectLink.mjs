#!/usr/bin/env node
/**
 * Project link (spec endpoint 19): link calls per second and latency into a project of 2,000
 * jobs (1,000 tasks and 1,000 work orders, alternating) holding 1,000 dependencies.
 *
 * Builds the service in-process (the test harness: real route, auth, validation, one
 * transaction per call with its locks) on a temporary PGlite data directory, and on
 * PostgreSQL too when one answers at 127.0.0.1:5432 (or BENCH_DATABASE_URL). The project is
 * bulk-inserted in SQL; the dependencies go from a job to a later one of a fixed numbering, so
 * the graph stays acyclic whatever the moves. Then, one call at a time (REPS each after 10
 * warm-ups):
 *   - move last: a work order of the project moved last, without dependency (the usual call);
 *   - move: a work order of the project to a random index;
 *   - move + dependency: the same with one `block` entry (a later job), so the cycle check
 *     reads the project's graph (1,000 edges and growing) and searches it;
 *   - cycle refused: `block` naming a job that already blocks the work order (400, path given);
 * and CONCURRENCY clients at once doing "move + dependency" (they queue on the project lock),
 * then "move last" (they do not).
 * Prints calls per second, p50 and p99.
 *
 *   node bench/projectLink.mjs            # REPS=300 CONCURRENCY=8
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

const JOBS = 2000;
const DEPENDENCIES = 1000;
const REPS = Number(process.env.REPS ?? 300);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const UNLIMITED = Object.fromEntries(
  ['high', 'standard', 'low'].map((r) => [r, { perMinute: 1e9, perHour: 1e9 }]),
);
const BASE = '/eTech/rest/ws/projectManagement/v1';

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

// A deterministic pseudo-random generator, so both databases get the same calls.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Job i of the fixed numbering: even = task i/2+1, odd = work order BW-<i/2+1>. */
const jobAt = (i) =>
  i % 2 === 0
    ? { jobType: 'task', code: String(i / 2 + 1) }
    : { jobType: 'workOrder', code: `BW-${String((i - 1) / 2 + 1).padStart(4, '0')}` };

async function load(t, random) {
  await runImport(t.db, {
    workOrderTypes: [{ workOrderTypeCode: 'REPAIR', name: 'Repair', durationMinutes: 60 }],
  });
  await sql`
    INSERT INTO work_orders (uuid, code, type_code, status, office_id)
    SELECT gen_random_uuid(), 'BW-' || lpad(g::text, 4, '0'), 'REPAIR', 'NEW', o.id
    FROM generate_series(1, ${JOBS / 2}::int) g, offices o WHERE o.code = 'NORTH'`.execute(t.db);
  await sql`
    INSERT INTO projects (code, name, office_id) SELECT 'P-BENCH', 'Benchmark', id FROM offices WHERE code = 'NORTH'`.execute(
    t.db,
  );
  await sql`
    INSERT INTO project_jobs (project_id, rank, job_type, code, work_order_id)
    SELECT p.id, (g + 1) * 65536,
           CASE WHEN g % 2 = 0 THEN 'task' ELSE 'workOrder' END,
           CASE WHEN g % 2 = 0 THEN (g / 2 + 1)::text END,
           CASE WHEN g % 2 = 1 THEN w.id END
    FROM projects p, generate_series(0, ${JOBS - 1}::int) g
    LEFT JOIN work_orders w ON g % 2 = 1 AND w.code = 'BW-' || lpad((g / 2 + 1)::text, 4, '0')
    WHERE p.code = 'P-BENCH'`.execute(t.db);
  const ids = (
    await sql`SELECT j.id FROM project_jobs j JOIN projects p ON p.id = j.project_id
              WHERE p.code = 'P-BENCH' ORDER BY j.rank`.execute(t.db)
  ).rows.map((r) => r.id);
  // 1,000 dependencies from a job to a later one (acyclic), half of them blocking a work order.
  const edges = new Map();
  while (edges.size < DEPENDENCIES) {
    const a = Math.floor(random() * (JOBS - 1));
    let b = a + 1 + Math.floor(random() * Math.min(200, JOBS - 1 - a));
    if (edges.size % 2 === 0 && b % 2 === 0) {
      if (b + 1 >= JOBS) continue;
      b += 1;
    }
    edges.set(`${a}>${b}`, [a, b]);
  }
  const pairs = [...edges.values()];
  await sql`
    INSERT INTO project_dependencies (project_id, blocking_job_id, blocked_job_id)
    SELECT p.id, e.a, e.b FROM projects p,
      unnest(${pairs.map(([a]) => ids[a])}::bigint[], ${pairs.map(([, b]) => ids[b])}::bigint[]) AS e(a, b)
    WHERE p.code = 'P-BENCH'`.execute(t.db);
  await sql`ANALYZE`.execute(t.db);
  return pairs;
}

async function run(label, overrides) {
  const t = await createTestApp({ ...overrides, rateLimits: UNLIMITED });
  try {
    const random = rng(42);
    const t0 = performance.now();
    const pairs = await load(t, random);
    const loaded = performance.now();
    /** A random work order of the numbering (odd index). */
    const workOrder = () => 1 + 2 * Math.floor(random() * (JOBS / 2));
    const link = (i, insertion) =>
      t.call('POST', `${BASE}/projects/code:P-BENCH/link`, {
        body: { type: 'workOrder', code: jobAt(i).code, insertion },
      });
    const backEdges = pairs.filter(([, b]) => b % 2 === 1);
    const kinds = {
      // The usual call (bench/compare.mjs's LINK): a work order moved last, no dependency.
      'move last': () => [link(workOrder(), { insertionMode: 'last' }), 204],
      move: () => {
        const i = workOrder();
        return [link(i, { insertionMode: 'index', position: Math.floor(random() * JOBS) }), 204];
      },
      'move + dependency': () => {
        const i = Math.min(workOrder(), JOBS - 3);
        const later = i + 1 + Math.floor(random() * (JOBS - 1 - i));
        return [
          link(i, { insertionMode: 'index', position: Math.floor(random() * JOBS), block: [jobAt(later)] }),
          204,
        ];
      },
      'cycle refused': () => {
        const [a, b] = backEdges[Math.floor(random() * backEdges.length)];
        return [link(b, { insertionMode: 'last', block: [jobAt(a)] }), 400];
      },
    };
    console.log(
      `\n${label}: project of ${JOBS} jobs, ${DEPENDENCIES} dependencies to start with (load ${((loaded - t0) / 1000).toFixed(1)} s)`,
    );
    console.log('  call                 | calls/s |  p50 ms |  p99 ms');
    for (const [kind, call] of Object.entries(kinds)) {
      const times = [];
      for (let round = 0; round < REPS + 10; round++) {
        const s = performance.now();
        const [pending, expected] = call();
        const res = await pending;
        const elapsed = performance.now() - s;
        if (res.statusCode !== expected) throw new Error(`${kind}: ${res.statusCode} ${res.body}`);
        if (round >= 10) times.push(elapsed);
      }
      const mean = times.reduce((a, b) => a + b, 0) / times.length;
      console.log(
        `  ${kind.padEnd(20)} | ${(1000 / mean).toFixed(0).padStart(7)} | ${ms(pct(times, 0.5))} | ${ms(pct(times, 0.99))}`,
      );
    }
    // Several clients at once on the one project: with a dependency they queue on its lock;
    // moves last share it.
    for (const kind of ['move + dependency', 'move last']) {
      const times = [];
      const s0 = performance.now();
      let left = REPS;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (left-- > 0) {
            const s = performance.now();
            const [pending, expected] = kinds[kind]();
            const res = await pending;
            if (res.statusCode !== expected) throw new Error(`concurrent: ${res.statusCode} ${res.body}`);
            times.push(performance.now() - s);
          }
        }),
      );
      const total = performance.now() - s0;
      const label = `${CONCURRENCY} clients, ${kind === 'move last' ? 'last' : '+ dep.'}`;
      console.log(
        `  ${label.padEnd(20)} | ${((times.length * 1000) / total).toFixed(0).padStart(7)} | ${ms(pct(times, 0.5))} | ${ms(pct(times, 0.99))}`,
      );
    }
    const { rows } = await sql`
      SELECT count(*)::int AS n FROM project_dependencies d JOIN projects p ON p.id = d.project_id
      WHERE p.code = 'P-BENCH'`.execute(t.db);
    console.log(`  dependencies at the end: ${rows[0].n}`);
  } finally {
    await t.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-'));
const savedUrl = process.env.TEST_DATABASE_URL;
try {
  delete process.env.TEST_DATABASE_URL;
  await run('PGlite (temp data dir)', { dataDir: join(dir, 'pglite') });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const url = new URL(PG_URL);
if (await portOpen(url.hostname, Number(url.port || 5432))) {
  process.env.TEST_DATABASE_URL = PG_URL;
  await run(`PostgreSQL (${url.host})`, {});
  if (savedUrl === undefined) delete process.env.TEST_DATABASE_URL;
} else {
  console.log(`\nPostgreSQL: nothing answers at ${url.host}, skipped`);
}
process.exit(0);
