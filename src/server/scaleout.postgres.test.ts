/**
 * Scale-out: TWO separate service processes (each its own port, as on two hosts) started
 * at the same moment on one fresh PostgreSQL database and one Redis:
 *  - the migrations run once (the advisory lock of db/index.ts: one process applies them
 *    all, the other none) and both are ready;
 *  - a token issued by one is accepted by the other;
 *  - the rate limit is one budget (Redis): what is spent on A is missing on B;
 *  - webhook callbacks of changes made through both are each delivered exactly once to a
 *    real receiver on loopback, although both processes run a delivery worker;
 *  - a change written through A, or by an import of the command line, reaches a change
 *    stream on B at once (LISTEN/NOTIFY: B's poll of the log is set to a minute), and still
 *    does after B's listening connection was terminated.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommonCodes } from '../contract/errors.ts';
import { getCustomer, putAsset, putCustomer } from '../contract/referentials.ts';
import { createSubscription } from '../contract/webhooks.ts';
import { migrationFiles } from './db/index.ts';
import { changeOf, openStream } from './domains/changes/sse.testing.ts';
import { type Receiver, startReceiver } from './domains/webhooks/testReceiver.ts';
import { pathOf } from './testing/api.ts';
import { runCapturedCli } from './testing/cli.ts';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const adminUrl = process.env.TEST_DATABASE_URL as string;
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const dbName = `fieldwork_scaleout_${randomBytes(4).toString('hex')}`;
const dbUrl = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const PER_MINUTE = 10;
const CUSTOMER = pathOf(getCustomer, { customerCode: 'C1' });
const SECRET = `secret-${randomBytes(16).toString('hex')}`;
const EVENTS = 24;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Service {
  child: ChildProcess;
  base: string;
  out: () => string;
  err: () => string;
}
let a: Service;
let b: Service;
let dir: string;
let receiver: Receiver;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function start(): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl,
      // The default: counters keyed by an id kept in the database, shared by both.
      FIELDWORK_INSTANCE_ID: '',
      FIELDWORK_WORKERS: '',
      FIELDWORK_RATE_LIMITS: JSON.stringify({
        high: { perMinute: PER_MINUTE, perHour: 1000 },
        standard: { perMinute: 1e6, perHour: 1e7 },
        low: { perMinute: 1e6, perHour: 1e7 },
      }),
      FIELDWORK_WEBHOOKS_ALLOW_PRIVATE: '1',
      // The change streams' poll for what no notification announced: out of the tests' reach.
      FIELDWORK_CHANGES_POLL_MS: '60000',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      FIELDWORK_NO_DEMO: '1',
      // One public address for both, as behind a load balancer: it is the tokens' issuer.
      PUBLIC_URL: 'http://fieldwork.test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    err += d;
  });
  return { child, base: `http://127.0.0.1:${port}`, out: () => out, err: () => err };
}

async function ready(s: Service) {
  for (let i = 0; i < 1200 && !s.err().includes('Fieldwork is running'); i++) {
    if (s.child.exitCode !== null) throw new Error(`a service exited: ${s.err()}${s.out()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(s.err()).toContain('Fieldwork is running');
}

async function stop(s: Service | undefined) {
  if (!s || s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (s.child.exitCode === null) s.child.kill('SIGKILL');
}

async function token(s: Service) {
  const res = await fetch(`${s.base}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`scaleout:${SECRET}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  expect(res.status).toBe(200);
  return (await res.json()).access_token as string;
}

/** Lines of a process's JSON log with this message. */
const logged = (s: Service, msg: string) =>
  s
    .out()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg?: string; migrations?: string[] })
    .filter((l) => l.msg === msg);

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  receiver = await startReceiver(() => ({ status: 200 }));
  // Both at once on the empty database: they race for the migrations.
  [a, b] = await Promise.all([start(), start()]);
  await Promise.all([ready(a), ready(b)]);
  dir = mkdtempSync(join(tmpdir(), 'fieldwork-scaleout-'));
  const file = join(dir, 'import.json');
  writeFileSync(
    file,
    JSON.stringify({
      offices: [{ code: 'HQ', name: 'Head office' }],
      applications: [{ name: 'Scale-out', officeCode: 'HQ', clientId: 'scaleout', clientSecret: SECRET }],
      customers: [
        { customerCode: 'C1', name: 'Customer 1', officeCode: 'HQ', addressDetails: { city: 'Lyon' } },
      ],
    }),
  );
  const imported = await runCapturedCli(['import', file], { config: { databaseUrl: dbUrl } });
  expect(imported.code, imported.stderr).toBe(0);
});

afterAll(async () => {
  await Promise.all([stop(a), stop(b)]);
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
});

describe('two service processes on one PostgreSQL and one Redis', () => {
  it('migrate the fresh database once between them, and both are ready', async () => {
    const expected = (await migrationFiles()).map((f) => f.name);
    const runs = [...logged(a, 'migrations applied'), ...logged(b, 'migrations applied')];
    expect(runs).toHaveLength(1);
    expect(runs[0].migrations).toEqual(expected);
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    const { rows } = await client.query('SELECT name FROM schema_migrations ORDER BY name');
    await client.end();
    expect(rows.map((r) => r.name)).toEqual(expected);
    for (const s of [a, b]) {
      const res = await fetch(`${s.base}/readyz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: 'ready',
        database: 'postgres',
        migrations: expected.length,
      });
    }
  });

  it('accept on B a token issued by A, and the reverse', async () => {
    const fromA = await token(a);
    const fromB = await token(b);
    const onB = await fetch(`${b.base}${CUSTOMER}`, { headers: { authorization: `Bearer ${fromA}` } });
    expect(onB.status).toBe(200);
    expect((await onB.json()).name).toBe('Customer 1');
    const onA = await fetch(`${a.base}${CUSTOMER}`, { headers: { authorization: `Bearer ${fromB}` } });
    expect(onA.status).toBe(200);
  });

  it('share one rate limit budget: what A spent is missing on B', async () => {
    // A fixed one-minute window: start at the beginning of one rather than across two.
    const second = new Date().getUTCSeconds();
    if (second > 45) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
    const headers = { authorization: `Bearer ${await token(a)}` };
    // The calls of the test before may fall in this minute: count from what is left.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`${a.base}${CUSTOMER}`, { headers })).status);
    let refusedOnB: Response | undefined;
    for (let i = 0; i < PER_MINUTE; i++) {
      const res = await fetch(`${b.base}${CUSTOMER}`, { headers });
      if (res.status === 429) {
        refusedOnB = res;
        break;
      }
      statuses.push(res.status);
    }
    // B refused before it had served PER_MINUTE on its own.
    if (!refusedOnB) throw new Error(`B never refused: ${statuses.join(' ')}`);
    expect((await refusedOnB.json()).errors[0].code).toBe(CommonCodes.tooManyRequests);
    const servedOnB = statuses.length - 6;
    expect(servedOnB).toBeLessThanOrEqual(PER_MINUTE - 6);
    expect(statuses.every((s) => s === 200)).toBe(true);
    // And A sees what B spent.
    const againOnA = await fetch(`${a.base}${CUSTOMER}`, { headers });
    expect(againOnA.status).toBe(429);
  });

  it('deliver each webhook callback exactly once, both processes running a delivery worker', async () => {
    const bearer = await token(a);
    const json = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
    const sub = await fetch(`${a.base}${createSubscription.path}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ eventTypes: ['asset.upsert'], callbackUrl: `${receiver.url}/scaleout` }),
    });
    expect(sub.status).toBe(201);
    // Changes through both processes, several at once: both workers are woken (NOTIFY) for each.
    const codes = Array.from({ length: EVENTS }, (_, i) => `SCALE${i}`);
    await Promise.all(
      codes.map(async (code, i) => {
        const res = await fetch(`${(i % 2 ? a : b).base}${pathOf(putAsset, { assetCode: code })}`, {
          method: 'PUT',
          headers: json,
          body: JSON.stringify({ name: `Asset ${code}` }),
        });
        expect(res.status).toBe(201);
      }),
    );
    const isOurs = (r: { url: string }) => r.url === '/scaleout';
    await receiver.waitFor(EVENTS, isOurs);
    // Past the time a second claim would have taken.
    await new Promise((r) => setTimeout(r, 2500));
    const got = receiver.received.filter(isOurs);
    expect(got).toHaveLength(EVENTS);
    expect(new Set(got.map((r) => r.json.id)).size).toBe(EVENTS);
    expect(new Set(got.map((r) => r.json.data.assetCode))).toEqual(new Set(codes));
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    const { rows } = await client.query(
      `SELECT d.status, d.attempts, count(a.id)::int AS recorded FROM webhook_deliveries d
       LEFT JOIN webhook_attempts a ON a.delivery_id = d.id GROUP BY d.id`,
    );
    const workers = await client.query('SELECT DISTINCT worker FROM webhook_attempts');
    await client.end();
    expect(rows).toHaveLength(EVENTS);
    for (const row of rows) expect(row).toEqual({ status: 'delivered', attempts: 1, recorded: 1 });
    // Informative: which processes took part (usually both).
    console.log(`scale-out: ${EVENTS} callbacks delivered once each, by ${workers.rows.length} worker(s)`);
  });

  it("push a change written through A or by an import to a change stream on B at once, also after B's LISTEN connection is terminated", async () => {
    const bearer = await token(a);
    const put = async (code: string) => {
      const res = await fetch(`${a.base}${pathOf(putCustomer, { customerCode: code })}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: code, officeCode: 'HQ', addressDetails: { city: 'Lyon' } }),
      });
      expect(res.status).toBe(201);
      return Date.now();
    };
    const listening = async (client: pg.Client) =>
      (
        await client.query(
          `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN "fieldwork_changes:%'`,
          [dbName],
        )
      ).rows.map((r) => r.pid as number);
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    const s = await openStream(b.base, { token: bearer });
    try {
      expect(s.status).toBe(200);
      // Both processes listen on the database's channel.
      expect(await listening(client)).toHaveLength(2);
      const sent = await put('LIVE-1');
      await s.next(changeOf('LIVE-1'), 5_000);
      const latency = Date.now() - sent;
      // The listening connections die; a change is written while B has none.
      for (const pid of await listening(client)) await client.query('SELECT pg_terminate_backend($1)', [pid]);
      await put('LIVE-2');
      await s.next(changeOf('LIVE-2'), 15_000);
      // They come back (DbHandle.listen reconnects), and notify again.
      for (let i = 0; i < 100 && (await listening(client)).length < 2; i++) await sleep(100);
      expect(await listening(client)).toHaveLength(2);
      const again = await put('LIVE-3');
      await s.next(changeOf('LIVE-3'), 5_000);
      // A command's commits are announced too (it does not listen).
      const file = join(dir, 'live.json');
      writeFileSync(
        file,
        JSON.stringify({
          customers: [
            {
              customerCode: 'LIVE-CLI',
              name: 'By import',
              officeCode: 'HQ',
              addressDetails: { city: 'Lyon' },
            },
          ],
        }),
      );
      const imported = await runCapturedCli(['import', file], { config: { databaseUrl: dbUrl } });
      expect(imported.code, imported.stderr).toBe(0);
      await s.next(changeOf('LIVE-CLI'), 5_000);
      expect(s.changes().map((e) => e.code)).toEqual(['LIVE-1', 'LIVE-2', 'LIVE-3', 'LIVE-CLI']);
      console.log(
        `scale-out: A's change on B's stream after ${latency} ms, after reconnecting ${Date.now() - again} ms`,
      );
    } finally {
      s.close();
      await client.end();
    }
  });
});
