#!/usr/bin/env node
/**
 * Keyset depth of the field tracking and field service lists, over HTTP against the real
 * service (src/server/main.ts), on PGlite and on PostgreSQL: page 1, 100 and 1000 (or the
 * last) of
 *
 *   - the activities of a work order holding 20,000 (LWO-000001: 100 pages of 200), also
 *     filtered (invoicingStatus=notBillable: a quarter of them),
 *   - its 20,000 used items (pageSize=20: 1,000 pages),
 *   - the positions of a technician holding 100,000 (LT-0001: 200 pages of 500),
 *
 * with the data of `fieldwork seed --size large`. Each measured page is requested REPS times,
 * interleaved with the others (a load spike on the shared machine lands on every page alike),
 * after 3 warm-up rounds; the table gives the median and p95 latency of each page and the
 * ratio of the deepest page's median to the first's (goal: at most 1.2).
 *
 *   node bench/fieldTracking.mjs                  # the full large dataset (minutes to load)
 *   BENCH_SCALE=0.1 node bench/fieldTracking.mjs  # a tenth of the volume: the heavy work order
 *                                                 # and the busy technician stay the same
 *   REPS=30 (default)   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (default)
 *   BENCH_PGLITE_DIR=dir  reuse a DATA_DIR seeded before (kept), instead of a temporary one
 *   BENCH_ONLY=pglite or BENCH_ONLY=postgres   one database only
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import {
  clientToken,
  log,
  median,
  printTable,
  root,
  startService,
  stopService,
  UNLIMITED,
} from './support/service.mjs';

const SCALE = process.env.BENCH_SCALE ?? '1';
const REPS = Number(process.env.REPS ?? 30);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ONLY = process.env.BENCH_ONLY;
const FT = '/eTech/rest/ws/fieldTracking/v1';
const FS = '/eTech/rest/ws/fieldService/v1';

/** The lists measured: path, and the pages (the last one is the deepest that exists). */
const LISTS = [
  {
    name: 'activities of LWO-000001 (200 a page)',
    path: `${FT}/workOrders/code:LWO-000001/activities`,
    pages: [1, 10, 100],
  },
  {
    name: 'activities, invoicingStatus=notBillable',
    path: `${FT}/workOrders/code:LWO-000001/activities?invoicingStatus=notBillable`,
    pages: [1, 10, 25],
  },
  {
    name: 'used items of LWO-000001 (pageSize=20)',
    path: `${FS}/workOrders/code:LWO-000001/items/used?pageSize=20`,
    pages: [1, 100, 1000],
  },
  {
    name: 'positions of LT-0001 (500 a page)',
    path: `${FT}/technicians/code:LT-0001/positions`,
    pages: [1, 100, 200],
  },
];

const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

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

/** `fieldwork <args>` with this env; stderr (the seed's progress) goes to ours. */
function fieldwork(args, env) {
  const res = spawnSync(process.execPath, [join(root, 'bin/fieldwork.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (res.status !== 0) throw new Error(`fieldwork ${args.join(' ')} failed: ${res.stdout}`);
  return res.stdout;
}

const withQuery = (path, token) =>
  token ? `${path}${path.includes('?') ? '&' : '?'}continuationToken=${encodeURIComponent(token)}` : path;

async function run(label, env) {
  const t0 = performance.now();
  log(`${label}: fieldwork seed --size large --scale ${SCALE}`);
  const seeded = JSON.parse(fieldwork(['seed', '--size', 'large', '--scale', SCALE, '--json'], env));
  const loadSeconds = (performance.now() - t0) / 1000;
  const app = JSON.parse(
    fieldwork(['apps', 'create', '--office', 'HQ', '--name', `bench ${Date.now()}`, '--json'], env),
  );
  const service = await startService({ ...env, FIELDWORK_RATE_LIMITS: UNLIMITED });
  try {
    const token = await clientToken(service.url, app.clientId, app.clientSecret);
    const headers = { authorization: `Bearer ${token}` };
    const get = async (url) => {
      const res = await fetch(`${service.url}${url}`, { headers });
      const body = await res.json();
      if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    const totals = await get(`${FT}/workOrders/code:LWO-000001/activities/totals`);
    log(`${label}: LWO-000001 holds ${totals.count} activities; walking the tokens`);

    // Walk each list once to learn the token that asks for each measured page.
    const targets = [];
    for (const list of LISTS) {
      let token;
      const deepest = Math.max(...list.pages);
      for (let page = 1; page <= deepest; page++) {
        if (list.pages.includes(page))
          targets.push({ list, page, url: withQuery(list.path, token), times: [] });
        const body = await get(withQuery(list.path, token));
        if (page < deepest && !body.continuationToken) throw new Error(`${list.name}: no page ${page + 1}`);
        token = body.continuationToken;
      }
    }

    for (let round = 0; round < REPS + 3; round++)
      for (const target of targets) {
        const start = performance.now();
        const body = await get(target.url);
        const elapsed = performance.now() - start;
        target.rows = body.data.length;
        if (round >= 3) target.times.push(elapsed);
      }

    const rows = [];
    for (const list of LISTS) {
      const mine = targets.filter((t) => t.list === list);
      const first = median(mine[0].times);
      for (const t of mine) {
        const med = median(t.times);
        rows.push([
          list.name,
          t.page === Math.max(...list.pages) ? `${t.page} (last)` : t.page,
          t.rows,
          med.toFixed(2),
          p95(t.times).toFixed(2),
          t === mine[0] ? '' : (med / first).toFixed(2),
        ]);
      }
    }
    printTable(
      `${label}: keyset depth over HTTP, ${REPS} requests a page (seed --scale ${SCALE}: ${seeded.large.activities.toLocaleString('en-US')} activities, ${seeded.large.usedItems.toLocaleString('en-US')} used items, ${seeded.large.positions.toLocaleString('en-US')} positions, loaded in ${loadSeconds.toFixed(0)} s)`,
      ['list', 'page', 'rows', 'median ms', 'p95 ms', 'ratio to page 1'],
      rows,
    );
    // The headline: the deepest page (1000 or the last) against the first, per list.
    const deep = LISTS.map((list) => {
      const mine = targets.filter((t) => t.list === list);
      return median(mine[mine.length - 1].times) / median(mine[0].times);
    });
    console.log(
      `\n${label}: deepest page / first page, median: ${LISTS.map((l, i) => `${l.name.split(' (')[0]} ${deep[i].toFixed(2)}`).join('; ')} (goal <= 1.2)`,
    );
  } finally {
    await stopService(service.child);
  }
}

// PGlite: a temporary data directory (or BENCH_PGLITE_DIR, kept).
if (ONLY !== 'postgres') {
  const kept = process.env.BENCH_PGLITE_DIR;
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'fieldwork-bench-ft-'));
  try {
    await run('PGlite', { DATA_DIR: kept ? dir : join(dir, 'data'), DATABASE_URL: '' });
  } finally {
    if (!kept && existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  }
}

// PostgreSQL: a database of its own, dropped at the end.
const url = new URL(PG_URL);
if (ONLY === 'pglite') {
  // PostgreSQL not asked for.
} else if (await portOpen(url.hostname, Number(url.port || 5432))) {
  const name = `fieldwork_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(PG_URL);
  dbUrl.pathname = `/${name}`;
  try {
    await run(`PostgreSQL (${url.host})`, { DATABASE_URL: dbUrl.toString() });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
} else {
  console.log(`\nPostgreSQL: nothing answers at ${url.host}, skipped`);
}
process.exit(0);
