#!/usr/bin/env node
/**
 * The change stream (issue 29, 3): STREAMS connected server-sent event streams, the
 * delivery latency of each change to every stream while customer PUTs run, and the
 * service's memory per open stream.
 *
 * On PostgreSQL when one answers at BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres; a fresh database), else PGlite:
 *   1. imports an office and an application with `fieldwork import`, starts the service;
 *   2. reads the service's RSS, opens STREAMS streams (GET /eTech/rest/ws/changes/v1/stream),
 *      reads the RSS again: memory per connection = the difference / STREAMS;
 *   3. runs PUTS customer PUTs, CONCURRENCY at a time, and times, for every stream, each
 *      change's event from the moment its PUT answered (the answer follows the commit: the
 *      latency is slightly understated).
 * On PostgreSQL it does it twice: the PUTs through the streams' own process, then through a
 * second service process on the same database (the streams learn of its commits by
 * LISTEN/NOTIFY, domains/changes/signal.ts).
 *
 *   node bench/changesStream.mjs        # STREAMS=200 PUTS=2000 CONCURRENCY=8
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

const STREAMS = Number(process.env.STREAMS ?? 200);
const PUTS = Number(process.env.PUTS ?? 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const CLIENT_ID = 'bench-stream';
const CLIENT_SECRET = `bench-${randomBytes(16).toString('hex')}`;
const CUSTOMERS = '/eTech/rest/ws/referentials/v1/customers/code:';
const STREAM = '/eTech/rest/ws/changes/v1/stream';

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/** One stream: the arrival time of each change event, by customer code. */
async function openStream(url, bearer) {
  const controller = new AbortController();
  const res = await fetch(`${url}${STREAM}`, {
    headers: { authorization: `Bearer ${bearer}` },
    signal: controller.signal,
  });
  if (res.status !== 200) throw new Error(`stream: ${res.status} ${await res.text()}`);
  const arrivals = new Map();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        const at = performance.now();
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (data) arrivals.set(JSON.parse(data.slice(6)).code, at);
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {}
  })();
  return { arrivals, close: () => controller.abort(), pump };
}

/** `across`: the PUTs go through a second service process on the same database. */
async function bench(database, dbEnv, dir, across = false) {
  const env = { ...process.env, ...dbEnv, FIELDWORK_RATE_LIMITS: UNLIMITED };
  importDocument(
    dir,
    {
      offices: [{ code: 'BENCH', name: 'Bench office' }],
      applications: [
        { name: 'Bench stream', officeCode: 'BENCH', clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
      ],
    },
    env,
  );
  const { child, url } = await startService(env);
  const writer = across ? await startService(env) : undefined;
  try {
    const bearer = await clientToken(url, CLIENT_ID, CLIENT_SECRET);
    const writeUrl = writer?.url ?? url;
    const writeBearer = writer ? await clientToken(writer.url, CLIENT_ID, CLIENT_SECRET) : bearer;
    // Warm-up: JIT, the pool's connections, the hub's tenant.
    const warm = await openStream(url, bearer);
    for (let i = 0; i < 50; i++) await put(url, bearer, `WARM-${i}`);
    warm.close();
    await new Promise((r) => setTimeout(r, 1000));
    const before = rssKiB(child.pid);
    const streams = [];
    for (let i = 0; i < STREAMS; i++) streams.push(await openStream(url, bearer));
    await new Promise((r) => setTimeout(r, 1000));
    const after = rssKiB(child.pid);
    log(`${database}: ${STREAMS} streams open, RSS ${before} -> ${after} KiB`);

    const prefix = `S${randomBytes(3).toString('hex')}-`.toUpperCase();
    const answered = new Map();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < PUTS) {
          const code = `${prefix}${next++}`;
          await put(writeUrl, writeBearer, code);
          answered.set(code, performance.now());
        }
      }),
    );
    const putSeconds = (performance.now() - started) / 1000;
    // Every event to every stream, or 30 s.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && streams.some((s) => [...answered.keys()].some((c) => !s.arrivals.has(c))))
      await new Promise((r) => setTimeout(r, 50));
    const latencies = [];
    let missing = 0;
    for (const s of streams)
      for (const [code, at] of answered) {
        const arrived = s.arrivals.get(code);
        if (arrived === undefined) missing++;
        else latencies.push(arrived - at);
      }
    latencies.sort((a, b) => a - b);
    for (const s of streams) s.close();
    return {
      database: across ? `${database}, PUTs through another process` : database,
      streams: STREAMS,
      puts: PUTS,
      putsPerSecond: Math.round(PUTS / putSeconds),
      p50: percentile(latencies, 0.5).toFixed(1),
      p99: percentile(latencies, 0.99).toFixed(1),
      max: latencies[latencies.length - 1].toFixed(1),
      missing,
      kibPerStream: ((after - before) / STREAMS).toFixed(1),
    };
  } finally {
    await stopService(child);
    if (writer) await stopService(writer.child);
  }
}

async function put(url, bearer, code) {
  const res = await fetch(`${url}${CUSTOMERS}${code}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Customer ${code}`, addressDetails: { city: 'Lyon' } }),
  });
  await res.arrayBuffer();
  if (res.status !== 201 && res.status !== 204) throw new Error(`PUT ${code}: ${res.status}`);
}

const rows = [];
const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-stream-'));
try {
  if (await postgresAnswers()) {
    for (const across of [false, true])
      await withScratchDatabase('fieldwork_bench', async (url) => {
        rows.push(await bench('PostgreSQL', { DATABASE_URL: url }, dir, across));
      });
  } else {
    log(`no PostgreSQL answers at ${PG_URL}: PGlite`);
    rows.push(await bench('PGlite', { DATA_DIR: join(dir, 'data'), DATABASE_URL: '' }, dir));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

printTable(
  `Change stream: ${STREAMS} SSE streams while customer PUTs run (${CONCURRENCY} in flight); latency = event at the stream - PUT answered`,
  ['database', 'streams', 'PUTs', 'PUT/s', 'p50 ms', 'p99 ms', 'max ms', 'events missing', 'KiB per stream'],
  rows.map((r) => [
    r.database,
    r.streams,
    r.puts,
    r.putsPerSecond,
    r.p50,
    r.p99,
    r.max,
    r.missing,
    r.kibPerStream,
  ]),
);
