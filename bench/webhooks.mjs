#!/usr/bin/env node
/**
 * Webhooks: events per second from commit to acknowledged delivery, and the latency from
 * commit to the callback's arrival, against a receiver on this machine.
 *
 * For each database (PGlite in a temporary DATA_DIR; PostgreSQL in a fresh database when
 * one answers at BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres):
 *   1. imports an office and a bench application with `fieldwork import`,
 *   2. starts the service (src/server/main.ts) with FIELDWORK_WEBHOOKS_ALLOW_PRIVATE=1 and
 *      the rate limits raised, and a receiver (in this process) that answers 200 at once,
 *   3. subscribes the application to asset.upsert, then changes assets with the asset PUT:
 *      - burst: EVENTS changes, CONCURRENCY at a time, as fast as the API takes them;
 *      - paced: PACED changes one after the other (latency without queueing).
 * Commit time of an event = when its PUT answered (the answer follows the commit, so the
 * latency is slightly understated, and may be negative when the callback arrives before the
 * client reads the answer). Events/s = events / (first PUT sent -> every callback
 * acknowledged, i.e. recorded delivered in the delivery log).
 *
 *   npm run bench -- webhooks          # EVENTS=2000 CONCURRENCY=16 PACED=200
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clientToken,
  importDocument,
  log,
  PG_URL,
  postgresAnswers,
  printTable,
  startService,
  stopService,
  UNLIMITED,
  withScratchDatabase,
} from './support/service.mjs';

const EVENTS = Number(process.env.EVENTS ?? 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const PACED = Number(process.env.PACED ?? 200);
const CLIENT_ID = 'bench-hooks';
const CLIENT_SECRET = `bench-${randomBytes(16).toString('hex')}`;
const ASSETS = '/eTech/rest/ws/referentials/v1/assets/code:';
const SUBSCRIPTIONS = '/rest/ws/webhooks/v1/subscriptions';

/** Receiver: records when each asset's callback arrived; answers 200 at once. */
async function startReceiver() {
  const arrivals = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString());
        const code = body.data?.assetCode;
        if (code && !arrivals.has(code)) arrivals.set(code, at);
      } catch {}
      res.writeHead(200).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    arrivals,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function waitAll(receiver, codes, timeoutMs, diagnose) {
  const deadline = Date.now() + timeoutMs;
  while (codes.some((c) => !receiver.arrivals.has(c))) {
    if (Date.now() > deadline)
      throw new Error(`callbacks missing after ${timeoutMs} ms; last deliveries: ${await diagnose()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Waits until no callback of the subscription is pending (every one acknowledged and recorded). */
async function waitAcknowledged(url, bearer, subscriptionId) {
  for (;;) {
    const res = await fetch(`${url}${SUBSCRIPTIONS}/${subscriptionId}/deliveries?status=pending`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    const page = await res.json();
    if (page.data.length === 0) return performance.now();
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function run(url, bearer, receiver, subscriptionId, mode, count, concurrency) {
  const prefix = `${mode}-${randomBytes(3).toString('hex')}-`.toUpperCase();
  const codes = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  const committed = new Map();
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < codes.length) {
      const code = codes[next++];
      const res = await fetch(`${url}${ASSETS}${code}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Asset ${code}` }),
      });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`PUT ${code}: ${res.status}`);
      committed.set(code, performance.now());
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await waitAll(receiver, codes, 120_000, async () => {
    const res = await fetch(`${url}${SUBSCRIPTIONS}/${subscriptionId}/deliveries`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    return JSON.stringify((await res.json()).data?.slice(0, 3));
  });
  const acknowledged = await waitAcknowledged(url, bearer, subscriptionId);
  const latencies = codes.map((c) => receiver.arrivals.get(c) - committed.get(c)).sort((a, b) => a - b);
  return {
    mode,
    events: count,
    concurrency,
    perSecond: Math.round((count / (acknowledged - started)) * 1000),
    p50: percentile(latencies, 0.5).toFixed(1),
    p99: percentile(latencies, 0.99).toFixed(1),
  };
}

async function bench(database, dbEnv, dir) {
  const env = {
    ...process.env,
    ...dbEnv,
    FIELDWORK_RATE_LIMITS: UNLIMITED,
    FIELDWORK_WEBHOOKS_ALLOW_PRIVATE: '1',
  };
  importDocument(
    dir,
    {
      offices: [{ code: 'BENCH', name: 'Bench office' }],
      applications: [
        { name: 'Bench hooks', officeCode: 'BENCH', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
      ],
    },
    env,
  );
  const receiver = await startReceiver();
  const { child, url } = await startService(env);
  const rows = [];
  try {
    const bearer = await clientToken(url, CLIENT_ID, CLIENT_SECRET);
    const res = await fetch(`${url}${SUBSCRIPTIONS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        eventTypes: ['asset.upsert'],
        callbackUrl: receiver.url,
        secret: randomBytes(24).toString('hex'),
      }),
    });
    if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
    const { subscriptionId } = await res.json();
    // Warm-up: JIT, connections.
    await run(url, bearer, receiver, subscriptionId, 'warm-up', 50, 4);
    for (const [mode, count, concurrency] of [
      ['burst', EVENTS, CONCURRENCY],
      ['paced', PACED, 1],
    ]) {
      log(`${database}: ${mode}, ${count} events`);
      const row = {
        database,
        ...(await run(url, bearer, receiver, subscriptionId, mode, count, concurrency)),
      };
      log(JSON.stringify(row));
      rows.push(row);
    }
  } finally {
    await stopService(child);
    await receiver.close();
  }
  return rows;
}

const rows = [];
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-hooks-'));
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
  'Webhooks: asset PUT -> asset.upsert callback to a local receiver (commit = PUT answered; events/s until every callback is recorded delivered)',
  ['database', 'mode', 'events', 'PUTs in flight', 'events/s', 'p50 ms', 'p99 ms'],
  rows.map((r) => [r.database, r.mode, r.events, r.concurrency, r.perSecond, r.p50, r.p99]),
);
