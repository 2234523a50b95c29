#!/usr/bin/env node
/**
 * Fieldwork against the mocks (issue 9), in one interleaved run on this machine:
 *
 *   - Fieldwork on PGlite (a temporary DATA_DIR), one process;
 *   - Fieldwork on PostgreSQL (a fresh database at BENCH_DATABASE_URL), FIELDWORK_WORKERS
 *     processes (default: one per core) sharing the rate limits in Redis (BENCH_REDIS_URL)
 *     when Redis answers, else one process;
 *   - Prism (@stoplight/prism-cli) mocking Fieldwork's own /openapi.json;
 *   - json-server over a file holding the same customers;
 *   - a bare Fastify route answering a fixed customer (the ceiling).
 *
 * Prism and json-server are installed by this script with `npm install --prefix <tmp>`
 * (kept in $TMPDIR/fieldwork-bench-mocks for the next run). Every target runs at once; each
 * round (operation, connections) loads them one after the other, so a change of the
 * machine's load hits every target alike. Customer GET (a random customer of CUSTOMERS) and
 * customer PUT (a new name each time) with autocannon at 1, 10 and 50 connections, and one
 * request of each newer domain on the demo dataset (imported beside the customers), for the
 * targets that can answer it:
 *   - ACTIVITIES: the activities page of a work order (Fieldwork, Prism; json-server over
 *     the same activities filtered by work order);
 *   - LINK: a project link call, a work order moved last in its project (Fieldwork, Prism;
 *     json-server stores the body as a new `links` record);
 *   - SLOTS: a slot search over a week for a demo work order (Fieldwork, Prism; json-server
 *     cannot compute one).
 *
 * CPU per request: the user+system time of each target's processes (/proc/<pid>/stat,
 * the process and its children) over the run, divided by the requests answered; for
 * Fieldwork on PostgreSQL also with the database backends serving it (and Redis). The
 * references (bare Fastify, Prism, json-server) also measure the machine: their CPU per GET
 * against issue 9's figures gives Fieldwork's CPU per GET as it would be on the issue's machine.
 *
 *   node bench/compare.mjs            # DURATION=5 CUSTOMERS=1000 CONNECTIONS=1,10,50
 *   CPU_PROF=/tmp/prof node bench/compare.mjs   # the Fieldwork services write .cpuprofile files there
 *   OPERATIONS=GET CONNECTIONS=10 node bench/compare.mjs   # a part of the matrix
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { checkExamples, installMocks, spawnTarget } from './support/mocks.mjs';
import {
  clientToken,
  cpuMs,
  importDocument,
  loadTest,
  log,
  PG_URL,
  postgresAnswers,
  printTable,
  procStat,
  root,
  startService,
  stopService,
  treeTicks,
  UNLIMITED,
} from './support/service.mjs';

const CUSTOMERS = Number(process.env.CUSTOMERS ?? 1000);
const DURATION = Number(process.env.DURATION ?? 5);
const CONNECTIONS = (process.env.CONNECTIONS ?? '1,10,50').split(',').map(Number);
const OPERATIONS = (process.env.OPERATIONS ?? 'GET,PUT,ACTIVITIES,LINK,SLOTS').split(',');
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const WORKERS = process.env.FIELDWORK_WORKERS ?? String(cpus().length);
const PATH = '/eTech/rest/ws/referentials/v1/customers/code:';
const CLIENT_ID = 'bench';
const CLIENT_SECRET = `bench-${randomBytes(16).toString('hex')}`;
const code = (i) => `BENCH${String(i).padStart(6, '0')}`;
/** CPU ms per customer GET of the references in issue 9's table (json-server: the top of its 0.3-0.5 ms). */
const ISSUE_MACHINE_CPU = { 'bare Fastify': 0.02, Prism: 0.7, 'json-server': 0.5 };

const customer = (i) => ({
  customerCode: code(i),
  name: `Customer ${i}`,
  officeCode: 'BENCH',
  addressDetails: { address: `${i} bench street`, zipCode: '69002', city: 'Lyon', country: 'FR' },
  contact: { name: 'Desk', details: [{ type: 'Phone', value: '+33 4 00 00 00 00' }] },
});
/** The demo dataset (work orders, activities, projects, technicians) without its application and user. */
const demo = (() => {
  const {
    applications: _a,
    users: _u,
    ...rest
  } = JSON.parse(readFileSync(join(root, 'src/server/cli/demo.json'), 'utf8'));
  return rest;
})();
const dataset = () => ({
  ...demo,
  offices: [...demo.offices, { code: 'BENCH', name: 'Bench office', parentCode: 'HQ' }],
  applications: [{ name: 'Bench', officeCode: 'HQ', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }],
  customers: [...demo.customers, ...Array.from({ length: CUSTOMERS }, (_, i) => customer(i))],
});

/* ---------------- the newer domains' requests ---------------- */

const ACTIVITY_WORK_ORDERS = [...new Set(demo.activities.map((a) => a.workOrderCode))];
const LINKED_PROJECT = 'PRJ-LILLE-HQ';
const LINKED_WORK_ORDERS = demo.projects
  .find((p) => p.projectCode === LINKED_PROJECT)
  .jobs.filter((j) => j.jobType === 'workOrder')
  .map((j) => j.code);
const activitiesPath = (wo) => `/eTech/rest/ws/fieldTracking/v1/workOrders/code:${wo}/activities`;
const linkPath = `/eTech/rest/ws/projectManagement/v1/projects/code:${LINKED_PROJECT}/link`;
const linkBody = (wo) => ({ type: 'workOrder', code: wo, insertion: { insertionMode: 'last' } });
const SLOTS_PATH = '/rest/v3/slots/search';
const slotsBody = () =>
  JSON.stringify({
    workOrderType: { code: 'BOILER-SERVICE' },
    workOrder: { code: 'WO-1001' },
    timeRanges: [{ start: '2030-01-14T00:00:00Z', end: '2030-01-19T00:00:00Z' }],
    maximumSlotNumber: 20,
  });
const pickOf = (list) => () => list[Math.floor(Math.random() * list.length)];

/** The requests of the newer domains as the API (Fieldwork and Prism) takes them. */
const apiOperations = {
  ACTIVITIES: () => ({ method: 'GET', path: activitiesPath(pickOf(ACTIVITY_WORK_ORDERS)()) }),
  LINK: () => ({
    method: 'POST',
    path: linkPath,
    body: JSON.stringify(linkBody(pickOf(LINKED_WORK_ORDERS)())),
  }),
  SLOTS: () => ({ method: 'POST', path: SLOTS_PATH, body: slotsBody() }),
};

/* ---------------- targets ---------------- */

async function redisPid() {
  try {
    const { Redis } = await import('ioredis');
    const redis = new Redis(REDIS_URL, { connectTimeout: 1000, maxRetriesPerRequest: 0, lazyConnect: true });
    redis.on('error', () => {});
    await redis.connect();
    const info = await redis.info('server');
    redis.disconnect();
    return Number(/process_id:(\d+)/.exec(info)?.[1]);
  } catch {
    return undefined;
  }
}

const cpuProf = process.env.CPU_PROF;
const nodeArgs = (name) => (cpuProf ? ['--cpu-prof', '--cpu-prof-dir', join(cpuProf, name)] : []);

async function fieldwork(name, env, dir) {
  log(`${name}: importing ${CUSTOMERS} customers`);
  const full = {
    ...process.env,
    FIELDWORK_RATE_LIMITS: UNLIMITED,
    // What an operator runs: a JSON line per request at the default level.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    ...env,
  };
  importDocument(dir, dataset(), full);
  const { child, url } = await startService(full, { nodeArgs: nodeArgs(name) });
  const token = await clientToken(url, CLIENT_ID, CLIENT_SECRET);
  return {
    name,
    url,
    pid: child.pid,
    headers: { authorization: `Bearer ${token}` },
    get: (c) => `${PATH}${c}`,
    put: (c, n) => ({
      path: `${PATH}${c}`,
      body: JSON.stringify({ name: `Renamed ${n}`, addressDetails: { city: 'Lyon' } }),
    }),
    more: apiOperations,
    stop: () => stopService(child),
  };
}

/* ---------------- the run ---------------- */

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-compare-'));
const targets = [];
let admin;
let dbName;
try {
  const mocks = installMocks();
  if (existsSync(join(root, 'scripts/build-server.mjs'))) {
    log('building the service (npm run build:server)');
    const built = spawnSync(process.execPath, [join(root, 'scripts/build-server.mjs')], {
      cwd: root,
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error('the service build failed');
  }

  targets.push(
    await fieldwork(
      'Fieldwork PGlite',
      { DATA_DIR: join(dir, 'data'), DATABASE_URL: '', REDIS_URL: '' },
      dir,
    ),
  );

  if (await postgresAnswers()) {
    dbName = `fieldwork_compare_${randomBytes(4).toString('hex')}`;
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    const redis = await redisPid();
    const env = {
      DATABASE_URL: url.toString(),
      REDIS_URL: redis ? REDIS_URL : '',
      FIELDWORK_WORKERS: redis ? WORKERS : '1',
    };
    log(
      `PostgreSQL: ${redis ? `${WORKERS} workers, rate limits in Redis (pid ${redis})` : 'no Redis answers: one process'}`,
    );
    const t = await fieldwork('Fieldwork PostgreSQL', env, dir);
    t.database = async () => {
      const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [dbName]);
      const m = new Map();
      for (const { pid } of rows) {
        const s = procStat(pid);
        if (s) m.set(pid, s.ticks);
      }
      if (redis) {
        const s = procStat(redis);
        if (s) m.set(redis, s.ticks);
      }
      return m;
    };
    targets.push(t);
  } else log(`no PostgreSQL answers at ${PG_URL}: no PostgreSQL target`);

  // Prism mocks the document Fieldwork serves.
  const spec = join(dir, 'openapi.json');
  writeFileSync(spec, await (await fetch(`${targets[0].url}/openapi.json`)).text());
  const prism = await spawnTarget(
    'Prism',
    (port) => [mocks.prism, 'mock', '-h', '127.0.0.1', '-p', String(port), spec],
    /Prism is listening/,
  );
  // Every operation of the document, sent as its example: Prism answers with the example answer.
  const examples = await checkExamples(prism.url, JSON.parse(readFileSync(spec, 'utf8')));
  log(`Prism answered ${examples.matched} of ${examples.operations} operations with their example answer`);
  for (const miss of examples.mismatches) log(`  Prism: ${miss}`);
  targets.push({
    name: 'Prism',
    url: prism.url,
    pid: prism.child.pid,
    headers: { authorization: 'Bearer mock' },
    get: (c) => `${PATH}${c}`,
    put: (c, n) => ({
      path: `${PATH}${c}`,
      body: JSON.stringify({ name: `Renamed ${n}`, addressDetails: { city: 'Lyon' } }),
    }),
    more: apiOperations,
    stop: async () => prism.child.kill('SIGTERM'),
  });

  // json-server over the same customers (its id is the customer code).
  const file = join(dir, 'db.json');
  writeFileSync(
    file,
    JSON.stringify({
      customers: Array.from({ length: CUSTOMERS }, (_, i) => ({ id: code(i), ...customer(i) })),
      activities: demo.activities.map((a) => ({ id: a.activityId, ...a })),
      links: [],
    }),
  );
  const js = await spawnTarget(
    'json-server',
    (port) => [mocks.jsonServer, '--host', '127.0.0.1', '--port', String(port), file],
    /Resources|localhost|127\.0\.0\.1/,
  );
  targets.push({
    name: 'json-server',
    url: js.url,
    pid: js.child.pid,
    headers: {},
    get: (c) => `/customers/${c}`,
    put: (c, n) => {
      const i = Number(c.slice(5));
      return {
        path: `/customers/${c}`,
        body: JSON.stringify({ ...customer(i), id: c, name: `Renamed ${n}` }),
      };
    },
    more: {
      ACTIVITIES: () => ({
        method: 'GET',
        path: `/activities?workOrderCode=${pickOf(ACTIVITY_WORK_ORDERS)()}`,
      }),
      LINK: () => ({
        method: 'POST',
        path: '/links',
        body: JSON.stringify({ projectCode: LINKED_PROJECT, ...linkBody(pickOf(LINKED_WORK_ORDERS)()) }),
      }),
    },
    stop: async () => js.child.kill('SIGTERM'),
  });

  const bare = await spawnTarget('bare Fastify', (_port) => [join(root, 'bench/support/bare.mjs')], /ready/);
  targets.push({
    name: 'bare Fastify',
    url: bare.url,
    pid: bare.child.pid,
    headers: {},
    get: (c) => `${PATH}${c}`,
    put: (c) => ({ path: `${PATH}${c}`, body: '{}' }),
    stop: async () => bare.child.kill('SIGTERM'),
  });

  const run = async (t, operation, connections, duration) => {
    let n = 0;
    const pick = () => code(Math.floor(Math.random() * CUSTOMERS));
    const request =
      operation === 'GET'
        ? { method: 'GET', setupRequest: (req) => ({ ...req, path: t.get(pick()) }) }
        : operation === 'PUT'
          ? { method: 'PUT', setupRequest: (req) => ({ ...req, ...t.put(pick(), ++n) }) }
          : { setupRequest: (req) => ({ ...req, ...t.more[operation]() }) };
    const before = treeTicks(t.pid);
    const dbBefore = t.database ? await t.database() : undefined;
    const r = await loadTest({
      url: t.url,
      connections,
      duration,
      headers: { ...t.headers, 'content-type': 'application/json' },
      requests: [request],
    });
    const service = cpuMs(before, treeTicks(t.pid));
    const database = dbBefore ? cpuMs(dbBefore, await t.database()) : undefined;
    const answered = Math.max(1, r.requests.total);
    return {
      target: t.name,
      operation,
      connections,
      reqPerSec: Math.round(r.requests.average),
      // Answers that are answers: a mock refusing the request does not count.
      okPerSec: Math.round(Math.max(0, r.requests.total - r.non2xx) / duration),
      p50: r.latency.p50,
      p99: r.latency.p99,
      non2xx: r.non2xx + r.errors + r.timeouts,
      cpu: service / answered,
      cpuWithDb: database === undefined ? undefined : (service + database) / answered,
    };
  };

  log('warming up every target (JIT, caches, pools)');
  const answers = (t, op) => op === 'GET' || op === 'PUT' || Boolean(t.more?.[op]);
  for (const t of targets) for (const op of OPERATIONS) if (answers(t, op)) await run(t, op, 10, 2);

  const rows = [];
  const loads = [];
  for (const operation of OPERATIONS) {
    for (const connections of CONNECTIONS) {
      for (const t of targets) {
        if (!answers(t, operation)) continue;
        const row = await run(t, operation, connections, DURATION);
        log(JSON.stringify(row));
        rows.push(row);
      }
      loads.push(loadavg()[0]);
    }
  }

  const f = (v, d = 2) => (v === undefined ? '' : v.toFixed(d));
  printTable(
    `Customer GET and PUT (${CUSTOMERS} customers), work order activities page, project link, slot search (demo dataset), ${DURATION} s per run, interleaved, every target and autocannon on this machine; load average during the rounds ${loads.map((l) => l.toFixed(1)).join(', ')}`,
    [
      'target',
      'operation',
      'connections',
      'req/s',
      '2xx/s',
      'p50 ms',
      'p99 ms',
      'non-2xx',
      'CPU ms/req',
      'CPU ms/req with database',
    ],
    rows.map((r) => [
      r.target,
      r.operation,
      r.connections,
      r.reqPerSec,
      r.okPerSec,
      r.p50,
      r.p99,
      r.non2xx,
      f(r.cpu, 3),
      f(r.cpuWithDb, 3),
    ]),
  );

  const at = (target, operation, connections) =>
    rows.find((r) => r.target === target && r.operation === operation && r.connections === connections);
  const ratio = (a, b, op, c) => {
    const x = at(a, op, c);
    const y = at(b, op, c);
    return x && y ? x.okPerSec / Math.max(1, y.okPerSec) : undefined;
  };
  const goals = [];
  const goal = (what, value, min, max) => {
    if (value === undefined) return;
    const ok = min !== undefined ? value >= min : value <= max;
    goals.push([
      what,
      value.toFixed(max !== undefined ? 3 : 2),
      min !== undefined ? `>= ${min}` : `<= ${max}`,
      ok ? 'met' : 'NOT met',
    ]);
  };
  for (const c of [10, 50]) {
    goal(
      `GET ${c} conns: PostgreSQL / json-server`,
      ratio('Fieldwork PostgreSQL', 'json-server', 'GET', c),
      1.5,
    );
    goal(`GET ${c} conns: PostgreSQL / Prism`, ratio('Fieldwork PostgreSQL', 'Prism', 'GET', c), 2);
  }
  for (const c of CONNECTIONS)
    goal(`GET ${c} conns: PGlite / Prism`, ratio('Fieldwork PGlite', 'Prism', 'GET', c), 1);
  for (const c of CONNECTIONS) {
    goal(
      `service CPU ms per GET, PostgreSQL, ${c} conns`,
      at('Fieldwork PostgreSQL', 'GET', c)?.cpu,
      undefined,
      0.3,
    );
    goal(`service CPU ms per GET, PGlite, ${c} conns`, at('Fieldwork PGlite', 'GET', c)?.cpu, undefined, 0.3);
  }
  goal('PUT 50 conns: PostgreSQL / json-server', ratio('Fieldwork PostgreSQL', 'json-server', 'PUT', 50), 2);
  printTable('Goals of issue 9', ['ratio', 'value', 'goal', ''], goals);

  // Each reference's CPU per GET here over the issue's figure is a slowness factor of this
  // machine; the smallest one scales Fieldwork's figure. Shown beside the goal, not instead.
  const scaled = [];
  for (const c of CONNECTIONS) {
    const factors = Object.entries(ISSUE_MACHINE_CPU)
      .map(([target, ms]) => at(target, 'GET', c)?.cpu / ms)
      .filter((x) => x > 0);
    if (factors.length === 0) continue;
    const factor = Math.min(...factors);
    for (const fw of ['Fieldwork PGlite', 'Fieldwork PostgreSQL']) {
      const cpu = at(fw, 'GET', c)?.cpu;
      if (cpu !== undefined) scaled.push([`${fw}, ${c} conns`, f(cpu, 3), f(factor, 2), f(cpu / factor, 3)]);
    }
  }
  const references = Object.entries(ISSUE_MACHINE_CPU).map(([t, ms]) => `${t} here / ${ms} ms`);
  if (scaled.length)
    printTable(
      `Service CPU ms per GET on the issue's machine (slowness factor: the smallest of ${references.join(', ')})`,
      ['target', 'CPU ms here', 'factor', "CPU ms on the issue's machine"],
      scaled,
    );

  // Issue 14: the newer domains, Fieldwork (which validates, authorizes and reads a real
  // database) against the mocks that answer them: above 1 is ahead.
  const newer = [];
  for (const op of ['ACTIVITIES', 'LINK', 'SLOTS'].filter((o) => OPERATIONS.includes(o)))
    for (const c of CONNECTIONS)
      for (const fw of ['Fieldwork PGlite', 'Fieldwork PostgreSQL'])
        for (const mock of ['Prism', 'json-server']) {
          const value = ratio(fw, mock, op, c);
          if (value !== undefined && at(mock, op, c))
            newer.push([`${op} ${c} conns: ${fw} / ${mock}`, value.toFixed(2)]);
        }
  if (newer.length)
    printTable("Newer domains: Fieldwork 2xx/s over the mock's (issue 14)", ['ratio', 'value'], newer);
} finally {
  for (const t of targets) await t.stop().catch(() => {});
  if (admin) {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
  rmSync(dir, { recursive: true, force: true });
}
