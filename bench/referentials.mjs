#!/usr/bin/env node
/**
 * Throughput and latency of the customer endpoints over HTTP, as an integration sees them.
 *
 * For each database (PGlite in a temporary DATA_DIR; PostgreSQL in a fresh database when
 * one answers at BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres):
 *   1. imports CUSTOMERS customers and a bench application with `fieldwork import`,
 *   2. starts the service (src/server/main.ts) as a child process with the rate limits
 *      raised through FIELDWORK_RATE_LIMITS so they do not interfere,
 *   3. gets a token (client_credentials), then runs autocannon for DURATION seconds per
 *      (operation, connections): GET a random customer, PUT a random customer (the name
 *      changes on every request, so every PUT is a real update).
 * Prints one table: req/s, p50 and p99 latency, and non-2xx answers.
 *
 *   npm run bench                      # all benchmarks (bench/run.mjs)
 *   node bench/referentials.mjs        # CUSTOMERS=1000 DURATION=5 CONNECTIONS=1,10,50
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CUSTOMERS = Number(process.env.CUSTOMERS ?? 1000);
const DURATION = Number(process.env.DURATION ?? 5);
const CONNECTIONS = (process.env.CONNECTIONS ?? '1,10,50').split(',').map(Number);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const UNLIMITED = JSON.stringify(
  Object.fromEntries(['high', 'standard', 'low'].map((r) => [r, { perMinute: 1e9, perHour: 1e9 }])),
);
const PATH = '/eTech/rest/ws/referentials/v1/customers/code:';
const CLIENT_ID = 'bench';
const CLIENT_SECRET = `bench-${randomBytes(12).toString('hex')}`;
const code = (i) => `BENCH${String(i).padStart(6, '0')}`;
const log = (line) => process.stderr.write(`[bench] ${line}\n`);

function freePort() {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function postgresAnswers() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

function importFile(dir) {
  const file = join(dir, 'bench-import.json');
  writeFileSync(
    file,
    JSON.stringify({
      offices: [{ code: 'BENCH', name: 'Bench office' }],
      applications: [
        { name: 'Bench', officeCode: 'BENCH', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
      ],
      customers: Array.from({ length: CUSTOMERS }, (_, i) => ({
        customerCode: code(i),
        name: `Customer ${i}`,
        officeCode: 'BENCH',
        addressDetails: { address: `${i} bench street`, zipCode: '69002', city: 'Lyon', country: 'FR' },
        contact: { name: 'Desk', details: [{ type: 'Phone', value: '+33 4 00 00 00 00' }] },
      })),
    }),
  );
  return file;
}

async function startService(env) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/server/main.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const url = `http://127.0.0.1:${env.PORT}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited: ${stderr}`);
    if (stderr.includes('Fieldwork is running')) return { child, url };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the service did not start in 60 s: ${stderr}`);
}

async function stopService(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

async function token(url) {
  const res = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
  return (await res.json()).access_token;
}

function load(url, bearer, operation, connections) {
  let n = 0;
  const pick = () => code(Math.floor(Math.random() * CUSTOMERS));
  const request =
    operation === 'GET'
      ? { method: 'GET', setupRequest: (req) => ({ ...req, path: `${PATH}${pick()}` }) }
      : {
          method: 'PUT',
          setupRequest: (req) => ({
            ...req,
            path: `${PATH}${pick()}`,
            body: JSON.stringify({ name: `Customer renamed ${++n}`, addressDetails: { city: 'Lyon' } }),
          }),
        };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration: DURATION,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        requests: [request],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

async function bench(database, dbEnv, dir) {
  log(`${database}: importing ${CUSTOMERS} customers`);
  const env = {
    ...process.env,
    ...dbEnv,
    LOG_LEVEL: 'warn',
    FIELDWORK_RATE_LIMITS: UNLIMITED,
    FIELDWORK_NO_DEMO: '1',
  };
  const imported = spawnSync(process.execPath, [join(root, 'bin/fieldwork.mjs'), 'import', importFile(dir)], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}${imported.stdout}`);
  const port = await freePort();
  const { child, url } = await startService({ ...env, PORT: String(port), HOST: '127.0.0.1' });
  const rows = [];
  try {
    const bearer = await token(url);
    for (const operation of ['GET', 'PUT']) {
      // Warm-up: JIT, caches, connection pool.
      await load(url, bearer, operation, 10).catch(() => {});
      for (const connections of CONNECTIONS) {
        const r = await load(url, bearer, operation, connections);
        const row = {
          database,
          operation,
          connections,
          reqPerSec: Math.round(r.requests.average),
          p50: r.latency.p50,
          p99: r.latency.p99,
          non2xx: r.non2xx + r.errors + r.timeouts,
        };
        log(JSON.stringify(row));
        rows.push(row);
      }
    }
  } finally {
    await stopService(child);
  }
  return rows;
}

const rows = [];
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-'));
try {
  rows.push(...(await bench('PGlite', { DATA_DIR: join(dir, 'data'), DATABASE_URL: '' }, dir)));
  if (await postgresAnswers()) {
    const name = `fieldwork_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const url = new URL(PG_URL);
      url.pathname = `/${name}`;
      rows.push(...(await bench('PostgreSQL', { DATABASE_URL: url.toString() }, dir)));
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  } else {
    log(`no PostgreSQL answers at ${PG_URL}: PGlite only`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const header = ['database', 'operation', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx'];
const lines = rows.map((r) =>
  [r.database, r.operation, r.connections, r.reqPerSec, r.p50, r.p99, r.non2xx].map(String),
);
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
const fmt = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(
  `\nCustomer endpoints, ${CUSTOMERS} customers, ${DURATION} s per run, service and load generator on one machine (${cpus().length} cores, Node ${process.version}, load average ${loadavg()[0].toFixed(1)} at the end)\n`,
);
console.log(fmt(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const l of lines) console.log(fmt(l));
