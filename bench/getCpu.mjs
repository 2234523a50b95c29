#!/usr/bin/env node
/**
 * Service CPU per customer GET or PUT, this build against a baseline, interleaved: each
 * build runs on its own fresh database, and ROUNDS short rounds alternate between them, so
 * a change of the machine's load (a shared VM can swing by a third from one minute to the
 * next) hits both alike. Prints each round, then the medians. For a change of the request
 * path, where `bench/compare.mjs` on a noisy machine cannot tell 20 % from the noise.
 *
 *   npm run build:server
 *   git worktree add /tmp/base <commit> && (cd /tmp/base && npm ci && npm run build:server)
 *   BASELINE=/tmp/base node bench/getCpu.mjs
 *   BASELINE=/tmp/base OPERATION=PUT CONNECTIONS=10 node bench/getCpu.mjs
 *
 * OPERATION=GET (a customer of 1,000) or PUT (one of them, a new name each time).
 * DATABASE=postgres (default; BENCH_DATABASE_URL, one process, rate limits in Redis at
 * BENCH_REDIS_URL when it answers; the CPU of the database's backends is counted too) or
 * pglite. CONNECTIONS=1, ROUNDS=8, DURATION=3 seconds, WARMUP=5 seconds; without BASELINE,
 * this build alone. CPU_PROF=<dir>: each service writes a V8 CPU profile there
 * (bench/support/profile-summary.mjs reads them).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  clientToken,
  cpuMs,
  importDocument,
  loadTest,
  log,
  median,
  printTable,
  procStat,
  startService,
  stopService,
  treeTicks,
  UNLIMITED,
} from './support/service.mjs';

const DATABASE = process.env.DATABASE ?? 'postgres';
const OPERATION = process.env.OPERATION ?? 'GET';
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 1);
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const DURATION = Number(process.env.DURATION ?? 3);
const WARMUP = Number(process.env.WARMUP ?? 5);
const SECRET = `bench-${randomBytes(16).toString('hex')}`;
const code = (i) => `BENCH${String(i).padStart(6, '0')}`;
const dataset = {
  offices: [
    { code: 'HQ', name: 'Head office' },
    { code: 'BENCH', name: 'Bench', parentCode: 'HQ' },
  ],
  applications: [{ name: 'Bench', officeCode: 'HQ', clientId: 'bench', clientSecret: SECRET }],
  customers: Array.from({ length: 1000 }, (_, i) => ({
    customerCode: code(i),
    name: `Customer ${i}`,
    officeCode: 'BENCH',
    addressDetails: { address: `${i} bench street`, zipCode: '69002', city: 'Lyon', country: 'FR' },
  })),
};

async function redisAnswers() {
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL, { connectTimeout: 1000, maxRetriesPerRequest: 0, lazyConnect: true });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'fieldwork-getcpu-'));
const admin = DATABASE === 'postgres' ? new pg.Client({ connectionString: PG_URL }) : undefined;
const databases = [];
const targets = [];
try {
  await admin?.connect();
  const redis = admin && (await redisAnswers()) ? REDIS_URL : '';
  const builds = [
    ['this build', undefined],
    ...(process.env.BASELINE ? [['baseline', process.env.BASELINE]] : []),
  ];
  for (const [name, checkout] of builds) {
    let env = { DATA_DIR: join(dir, `data-${targets.length}`), DATABASE_URL: '', REDIS_URL: '' };
    if (admin) {
      const db = `fieldwork_getcpu_${randomBytes(4).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${db}`);
      databases.push(db);
      const url = new URL(PG_URL);
      url.pathname = `/${db}`;
      env = { DATABASE_URL: url.toString(), REDIS_URL: redis, FIELDWORK_WORKERS: '1' };
    }
    env = { ...process.env, FIELDWORK_RATE_LIMITS: UNLIMITED, LOG_LEVEL: 'info', ...env };
    log(`${name}: importing 1000 customers`);
    importDocument(dir, dataset, env, checkout);
    const nodeArgs = process.env.CPU_PROF
      ? ['--cpu-prof', '--cpu-prof-dir', join(process.env.CPU_PROF, name.replaceAll(' ', '-'))]
      : [];
    const { child, url } = await startService(env, { checkout, nodeArgs });
    const token = await clientToken(url, 'bench', SECRET);
    targets.push({ name, child, url, token, database: databases.at(-1), cpu: [], service: [], rps: [] });
  }
  const run = (t, duration) => {
    let i = 0;
    return loadTest({
      url: t.url,
      connections: CONNECTIONS,
      duration,
      headers: { authorization: `Bearer ${t.token}` },
      requests: [
        {
          method: OPERATION,
          setupRequest: (r) => {
            const n = i++;
            const path = `/eTech/rest/ws/referentials/v1/customers/code:${code(n % 1000)}`;
            if (OPERATION === 'GET') return { ...r, path };
            const body = { name: `Customer ${n}`, officeCode: 'BENCH', addressDetails: { city: 'Lyon' } };
            return {
              ...r,
              path,
              headers: { ...r.headers, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            };
          },
        },
      ],
    });
  };
  // The service's processes, and on PostgreSQL the backends serving its database.
  const ticks = async (t) => {
    const all = treeTicks(t.child.pid);
    if (!admin) return all;
    const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [t.database]);
    for (const { pid } of rows) {
      const s = procStat(pid);
      if (s) all.set(pid, s.ticks);
    }
    return all;
  };
  for (const t of targets) await run(t, WARMUP);
  for (let round = 1; round <= ROUNDS; round++)
    for (const t of targets) {
      const before = await ticks(t);
      const serviceBefore = treeTicks(t.child.pid);
      const result = await run(t, DURATION);
      const ms = cpuMs(before, await ticks(t)) / result.requests.total;
      t.service.push(cpuMs(serviceBefore, treeTicks(t.child.pid)) / result.requests.total);
      if (result.non2xx) throw new Error(`${t.name}: ${result.non2xx} answers were not 2xx`);
      t.cpu.push(ms);
      t.rps.push(result.requests.average);
      log(
        `round ${round}, ${t.name}: ${Math.round(result.requests.average)} req/s, ${ms.toFixed(3)} CPU ms/req`,
      );
    }
  printTable(
    `Customer ${OPERATION}, ${DATABASE === 'postgres' ? `PostgreSQL, one process${redis ? ', rate limits in Redis' : ''}` : 'PGlite'}, ${CONNECTIONS} connection(s), ${ROUNDS} interleaved rounds of ${DURATION} s`,
    [
      'build',
      'median req/s',
      `median CPU ms/req${admin ? ' (with database)' : ''}`,
      'median CPU ms/req of the service alone',
      'CPU ms/req, every round',
    ],
    targets.map((t) => [
      t.name,
      Math.round(median(t.rps)),
      median(t.cpu).toFixed(3),
      median(t.service).toFixed(3),
      t.cpu.map((c) => c.toFixed(3)).join(' '),
    ]),
  );
} finally {
  for (const t of targets) await stopService(t.child);
  for (const db of databases) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  await admin?.end();
  rmSync(dir, { recursive: true, force: true });
}
