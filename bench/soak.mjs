#!/usr/bin/env node
/**
 * Soak: a steady mixed read/write load on PostgreSQL for a long time, to see that nothing
 * fails, slows down or grows (memory) over time.
 *
 * In a fresh PostgreSQL database (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres): imports CUSTOMERS customers, as many
 * assets and a bench application, starts the service (rate limits raised), then sends RATE
 * requests a second, open loop (each request leaves at its scheduled time whatever the
 * answers before it; latency is counted from that time, so a stall shows in p99) for
 * MINUTES minutes. Mix, per 10 requests: 5 GET customer, 1 GET asset, 1 GET the customer
 * list (first page of 100), 2 PUT customer (a real change each time), 1 PUT asset.
 *
 * Prints per minute and for the whole run: requests/s answered, p50, p99, errors (any
 * answer other than 200/201/204, or no answer) and the service's resident memory (from its
 * /metrics); exits 1 when an error happened.
 *
 *   npm run bench -- soak                          # 10 minutes at 50 requests/s
 *   npm run bench -- soak --minutes 1 --rate 100   # (or SOAK_MINUTES, SOAK_RATE)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  clientToken,
  importDocument,
  log,
  printTable,
  startService,
  stopService,
  UNLIMITED,
} from './support/service.mjs';

const { values: args } = parseArgs({
  options: { minutes: { type: 'string' }, rate: { type: 'string' } },
  allowPositionals: true,
});
const MINUTES = Number(args.minutes ?? process.env.SOAK_MINUTES ?? 10);
const RATE = Number(args.rate ?? process.env.SOAK_RATE ?? 50);
if (!(MINUTES > 0) || !(RATE > 0)) {
  console.error('--minutes and --rate: numbers above 0');
  process.exit(2);
}
const CUSTOMERS = Number(process.env.CUSTOMERS ?? 1000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BASE = '/eTech/rest/ws/referentials/v1';
const CLIENT_ID = 'soak';
const CLIENT_SECRET = `soak-${randomBytes(16).toString('hex')}`;
const code = (i) => `SOAK${String(i).padStart(6, '0')}`;
const MIX = [
  'getCustomer',
  'putCustomer',
  'getCustomer',
  'getAsset',
  'getCustomer',
  'listCustomers',
  'putCustomer',
  'getCustomer',
  'putAsset',
  'getCustomer',
];

const dataset = () => ({
  offices: [{ code: 'SOAK', name: 'Soak office' }],
  applications: [{ name: 'Soak', officeCode: 'SOAK', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }],
  customers: Array.from({ length: CUSTOMERS }, (_, i) => ({
    customerCode: code(i),
    name: `Customer ${i}`,
    officeCode: 'SOAK',
    addressDetails: { city: 'Lyon' },
  })),
  assets: Array.from({ length: CUSTOMERS }, (_, i) => ({
    assetCode: code(i),
    name: `Asset ${i}`,
    customerCode: code(i),
    officeCode: 'SOAK',
  })),
});

async function rssOf(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = /^process_resident_memory_bytes (\d+)/m.exec(text);
  return m ? Number(m[1]) : Number.NaN;
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);
const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : Number.NaN;

function request(url, bearer, op, n) {
  const i = Math.floor(Math.random() * CUSTOMERS);
  const auth = { authorization: `Bearer ${bearer}` };
  const json = { ...auth, 'content-type': 'application/json' };
  switch (op) {
    case 'getCustomer':
      return fetch(`${url}${BASE}/customers/code:${code(i)}`, { headers: auth });
    case 'getAsset':
      return fetch(`${url}${BASE}/assets/code:${code(i)}`, { headers: auth });
    case 'listCustomers':
      return fetch(`${url}${BASE}/customers`, { headers: auth });
    case 'putCustomer':
      return fetch(`${url}${BASE}/customers/code:${code(i)}`, {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({
          name: `Customer ${i} v${n}`,
          officeCode: 'SOAK',
          addressDetails: { city: 'Lyon' },
        }),
      });
    case 'putAsset':
      return fetch(`${url}${BASE}/assets/code:${code(i)}`, {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ name: `Asset ${i} v${n}`, customerCode: code(i), officeCode: 'SOAK' }),
      });
  }
}

async function soak(url, bearer) {
  const minutes = [];
  const all = [];
  let errors = 0;
  const errorSamples = new Map();
  const total = Math.round(MINUTES * 60 * RATE);
  const started = performance.now();
  let inFlight = 0;
  let minute = { latencies: [], errors: 0, rssStart: await rssOf(url) };
  const rssStart = minute.rssStart;
  let minuteIndex = 0;
  const pending = new Set();
  const closeMinute = async () => {
    minute.rssEnd = await rssOf(url);
    minutes.push(minute);
    const sorted = [...minute.latencies].sort((a, b) => a - b);
    log(
      `minute ${minutes.length}: ${(minute.latencies.length / 60).toFixed(1)} req/s, p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, errors ${minute.errors}, RSS ${mb(minute.rssEnd)} MB, in flight ${inFlight}`,
    );
    minute = { latencies: [], errors: 0, rssStart: minute.rssEnd };
  };
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const thisMinute = Math.floor((performance.now() - started) / 60_000);
    if (thisMinute > minuteIndex) {
      minuteIndex = thisMinute;
      await closeMinute();
    }
    const op = MIX[n % MIX.length];
    const bucket = minute;
    inFlight++;
    const p = (async () => {
      try {
        const res = await request(url, bearer, op, n);
        await res.arrayBuffer();
        if (![200, 201, 204].includes(res.status)) throw new Error(`${op} ${res.status}`);
        const ms = performance.now() - due;
        bucket.latencies.push(ms);
        all.push(ms);
      } catch (err) {
        errors++;
        bucket.errors++;
        const key = String(err.message ?? err);
        errorSamples.set(key, (errorSamples.get(key) ?? 0) + 1);
      } finally {
        inFlight--;
      }
    })();
    pending.add(p);
    void p.finally(() => pending.delete(p));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  if (minute.latencies.length || minute.errors) await closeMinute();
  const rssEnd = await rssOf(url);
  const sorted = all.sort((a, b) => a - b);
  return {
    minutes,
    requests: total,
    answered: all.length,
    perSecond: all.length / elapsed,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1],
    errors,
    errorSamples,
    rssStart,
    rssEnd,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-soak-'));
const name = `fieldwork_soak_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: PG_URL });
let result;
try {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(PG_URL);
  dbUrl.pathname = `/${name}`;
  const env = {
    ...process.env,
    DATABASE_URL: dbUrl.toString(),
    FIELDWORK_RATE_LIMITS: UNLIMITED,
    FIELDWORK_WORKERS: '',
    LOG_LEVEL: 'warn',
  };
  importDocument(dir, dataset(), env);
  const { child, url } = await startService(env);
  try {
    const bearer = await clientToken(url, CLIENT_ID, CLIENT_SECRET);
    // Warm-up: JIT, prepared statements, connections.
    for (let i = 0; i < 200; i++) await (await request(url, bearer, MIX[i % MIX.length], i)).arrayBuffer();
    log(`soak: ${MINUTES} min at ${RATE} requests/s on PostgreSQL, ${CUSTOMERS} customers and assets`);
    result = await soak(url, bearer);
  } finally {
    await stopService(child);
  }
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
}

printTable(
  `Soak: ${MINUTES} min at ${RATE} requests/s (open loop) on PostgreSQL; 70% reads, 30% upserts`,
  ['minute', 'req/s answered', 'p50 ms', 'p99 ms', 'errors', 'RSS at end MB'],
  [
    ...result.minutes.map((m, i) => {
      const sorted = [...m.latencies].sort((a, b) => a - b);
      return [
        i + 1,
        (m.latencies.length / 60).toFixed(1),
        percentile(sorted, 0.5).toFixed(1),
        percentile(sorted, 0.99).toFixed(1),
        m.errors,
        mb(m.rssEnd),
      ];
    }),
    [
      'all',
      result.perSecond.toFixed(1),
      result.p50.toFixed(1),
      result.p99.toFixed(1),
      result.errors,
      `${mb(result.rssStart)} -> ${mb(result.rssEnd)}`,
    ],
  ],
);
console.log(
  `\nrequests ${result.requests}, answered ${result.answered}, throughput ${result.perSecond.toFixed(1)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, max ${result.max.toFixed(1)} ms, errors ${result.errors}, RSS start ${mb(result.rssStart)} MB, end ${mb(result.rssEnd)} MB`,
);
for (const [message, count] of result.errorSamples) console.log(`  error: ${message} x${count}`);
console.log(
  JSON.stringify({
    minutes: MINUTES,
    rate: RATE,
    requests: result.requests,
    perSecond: Number(result.perSecond.toFixed(1)),
    p50: Number(result.p50.toFixed(1)),
    p99: Number(result.p99.toFixed(1)),
    errors: result.errors,
    rssStartBytes: result.rssStart,
    rssEndBytes: result.rssEnd,
  }),
);
process.exitCode = result.errors > 0 ? 1 : 0;
