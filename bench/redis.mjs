#!/usr/bin/env node
/**
 * Request latency when the rate-limit store (REDIS_URL) is down, over HTTP against the
 * real service: REQUESTS sequential GETs of a customer with REDIS_URL unset (counters in
 * memory), pointing to the local Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379,
 * when it answers) and pointing to a closed port (a Redis that is down).
 *
 *   node bench/redis.mjs        # REQUESTS=20
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clientToken,
  freePort,
  importDocument,
  log,
  median,
  printTable,
  startService,
  stopService,
} from './support/service.mjs';

const REQUESTS = Number(process.env.REQUESTS ?? 20);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECRET = 'bench-redis-secret-of-at-least-32-characters';
const PATH = '/eTech/rest/ws/referentials/v1/customers/code:BENCH1';

function answers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

async function measure(label, redisUrl, env) {
  log(`${label}: REDIS_URL=${redisUrl || '(unset)'}`);
  const { child, url } = await startService({ ...env, REDIS_URL: redisUrl });
  try {
    const bearer = await clientToken(url, 'bench-redis', SECRET);
    const times = [];
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      const res = await fetch(`${url}${PATH}`, {
        headers: { authorization: `Bearer ${bearer}` },
        signal: AbortSignal.timeout(60_000),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET: ${res.status}`);
      times.push(performance.now() - started);
    }
    return [label, median(times).toFixed(1), Math.max(...times).toFixed(1)];
  } finally {
    await stopService(child);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-bench-redis-'));
const rows = [];
try {
  const env = { ...process.env, DATA_DIR: join(dir, 'data'), DATABASE_URL: '' };
  importDocument(
    dir,
    {
      offices: [{ code: 'BENCH', name: 'Bench office' }],
      applications: [{ name: 'Bench', officeCode: 'BENCH', clientId: 'bench-redis', clientSecret: SECRET }],
      customers: [
        { customerCode: 'BENCH1', name: 'Customer', officeCode: 'BENCH', addressDetails: { city: 'Lyon' } },
      ],
    },
    env,
  );
  rows.push(await measure('no Redis (counters in memory)', '', env));
  if (await answers(REDIS_URL)) rows.push(await measure('Redis up', REDIS_URL, env));
  else log(`no Redis answers at ${REDIS_URL}`);
  rows.push(await measure('Redis down (closed port)', `redis://127.0.0.1:${await freePort()}`, env));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

printTable(
  `GET customer, ${REQUESTS} sequential requests per case`,
  ['rate-limit store', 'median ms', 'max ms'],
  rows,
);
