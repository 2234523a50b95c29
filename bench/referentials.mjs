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
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clientToken,
  importDocument,
  loadTest,
  log,
  PG_URL,
  postgresAnswers,
  printTable,
  startService,
  stopService,
  UNLIMITED,
  withScratchDatabase,
} from './support/service.mjs';

const CUSTOMERS = Number(process.env.CUSTOMERS ?? 1000);
const DURATION = Number(process.env.DURATION ?? 5);
const CONNECTIONS = (process.env.CONNECTIONS ?? '1,10,50').split(',').map(Number);
const PATH = '/eTech/rest/ws/referentials/v1/customers/code:';
const CLIENT_ID = 'bench';
const CLIENT_SECRET = `bench-${randomBytes(16).toString('hex')}`;
const code = (i) => `BENCH${String(i).padStart(6, '0')}`;

const dataset = () => ({
  offices: [{ code: 'BENCH', name: 'Bench office' }],
  applications: [{ name: 'Bench', officeCode: 'BENCH', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }],
  customers: Array.from({ length: CUSTOMERS }, (_, i) => ({
    customerCode: code(i),
    name: `Customer ${i}`,
    officeCode: 'BENCH',
    addressDetails: { address: `${i} bench street`, zipCode: '69002', city: 'Lyon', country: 'FR' },
    contact: { name: 'Desk', details: [{ type: 'Phone', value: '+33 4 00 00 00 00' }] },
  })),
});

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
  return loadTest({
    url,
    connections,
    duration: DURATION,
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    requests: [request],
  });
}

async function bench(database, dbEnv, dir) {
  log(`${database}: importing ${CUSTOMERS} customers`);
  const env = { ...process.env, ...dbEnv, FIELDWORK_RATE_LIMITS: UNLIMITED };
  importDocument(dir, dataset(), env);
  const { child, url } = await startService(env);
  const rows = [];
  try {
    const bearer = await clientToken(url, CLIENT_ID, CLIENT_SECRET);
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
    await withScratchDatabase('fieldwork_bench', async (url) => {
      rows.push(...(await bench('PostgreSQL', { DATABASE_URL: url }, dir)));
    });
  } else {
    log(`no PostgreSQL answers at ${PG_URL}: PGlite only`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

printTable(
  `Customer endpoints, ${CUSTOMERS} customers, ${DURATION} s per run, service and load generator on one machine`,
  ['database', 'operation', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx'],
  rows.map((r) => [r.database, r.operation, r.connections, r.reqPerSec, r.p50, r.p99, r.non2xx]),
);
