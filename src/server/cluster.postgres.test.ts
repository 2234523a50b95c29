import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCustomer } from '../contract/referentials.ts';
import { pathOf } from './testing/api.ts';
import { runCapturedCli } from './testing/cli.ts';

/**
 * FIELDWORK_WORKERS=2: two service processes behind one port, on one PostgreSQL database
 * and one Redis. A token issued by one is accepted by the other, the rate limit is one
 * budget across both, and a revocation made with the command line is in force in both
 * when the command returns.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const adminUrl = process.env.TEST_DATABASE_URL as string;
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const dbName = `fieldwork_cluster_${randomBytes(4).toString('hex')}`;
const dbUrl = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const PER_MINUTE = 30;
const CUSTOMER = pathOf(getCustomer, { customerCode: 'C1' });

let dir: string;
let service: ChildProcess;
let port: number;
let out = '';
let err = '';
const secrets = {
  limited: `secret-${randomBytes(16).toString('hex')}`,
  revoked: `secret-${randomBytes(16).toString('hex')}`,
  sturdy: `secret-${randomBytes(16).toString('hex')}`,
};
const config = () => ({ databaseUrl: dbUrl });

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(p));
    });
  });
}

/** One request on a connection of its own, so the cluster hands it to the next worker. */
function request(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, agent: false, headers: { connection: 'close', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function token(clientId: string, secret: string) {
  const res = await request(
    'POST',
    '/oauth/token',
    {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
    },
    'grant_type=client_credentials',
  );
  expect(res.status).toBe(200);
  return JSON.parse(res.body).access_token as string;
}

/** The worker (pid) that logged each request completed since `from` in the output. */
function servedBy(from: number) {
  const pids = new Set<number>();
  for (const line of out.slice(from).split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { msg?: string; pid?: number };
    if (entry.msg === 'request completed' && entry.pid) pids.add(entry.pid);
  }
  return pids;
}

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  dir = mkdtempSync(join(tmpdir(), 'fieldwork-cluster-'));
  const file = join(dir, 'import.json');
  writeFileSync(
    file,
    JSON.stringify({
      offices: [{ code: 'HQ', name: 'Head office' }],
      applications: [
        { name: 'Limited', officeCode: 'HQ', clientId: 'limited', clientSecret: secrets.limited },
        { name: 'Revoked', officeCode: 'HQ', clientId: 'revoked', clientSecret: secrets.revoked },
        { name: 'Sturdy', officeCode: 'HQ', clientId: 'sturdy', clientSecret: secrets.sturdy },
      ],
      customers: [
        { customerCode: 'C1', name: 'Customer 1', officeCode: 'HQ', addressDetails: { city: 'Lyon' } },
      ],
    }),
  );
  const imported = await runCapturedCli(['import', file], { config: config() });
  expect(imported.code, imported.stderr).toBe(0);

  port = await freePort();
  service = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/server/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl,
      FIELDWORK_WORKERS: '2',
      // Counters of this test alone in a Redis shared with other runs.
      FIELDWORK_INSTANCE_ID: `cluster-test-${randomBytes(4).toString('hex')}`,
      FIELDWORK_RATE_LIMITS: JSON.stringify({ high: { perMinute: PER_MINUTE, perHour: 1000 } }),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      FIELDWORK_NO_DEMO: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  service.stdout?.on('data', (d) => {
    out += d;
  });
  service.stderr?.on('data', (d) => {
    err += d;
  });
  for (let i = 0; i < 1200 && !err.includes('Fieldwork is running'); i++) {
    if (service.exitCode !== null) throw new Error(`the service exited: ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(err).toContain('2 processes');
});

afterAll(async () => {
  if (service && service.exitCode === null) {
    const exited = new Promise((r) => service.once('exit', r));
    service.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (service.exitCode === null) service.kill('SIGKILL');
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
});

describe('several service processes behind one port (FIELDWORK_WORKERS)', () => {
  it('a token issued by one process is accepted by the other, and the rate limit is one budget', async () => {
    // A fixed one-minute window: start at the beginning of one rather than across two.
    const second = new Date().getUTCSeconds();
    if (second > 45) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
    const bearer = { authorization: `Bearer ${await token('limited', secrets.limited)}` };
    const from = out.length;
    const statuses: number[] = [];
    for (let i = 0; i < PER_MINUTE + 10; i++) statuses.push((await request('GET', CUSTOMER, bearer)).status);
    // Each process alone would have let PER_MINUTE through.
    expect(statuses.filter((s) => s === 200)).toHaveLength(PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(statuses.slice(0, PER_MINUTE).every((s) => s === 200)).toBe(true);
    // Logs are written asynchronously: give them a moment to reach the pipe.
    await new Promise((r) => setTimeout(r, 300));
    expect(servedBy(from).size).toBe(2);
  });

  it('/metrics answers for every process: counters summed, process figures one per worker', async () => {
    // The requests of the test before: PER_MINUTE answered 200 and 10 refused 429, by both workers.
    const res = await request('GET', '/metrics');
    expect(res.status).toBe(200);
    const value = (pattern: RegExp) => Number(pattern.exec(res.body)?.[1]);
    // The metric's route label as Fastify names it (code:{customerCode} -> :p0), not a row's path.
    const route = '/eTech/rest/ws/referentials/v1/customers/:p0';
    expect(
      value(
        new RegExp(
          `^fieldwork_http_requests_total\\{method="GET",route="${route}",status="2xx"\\} (\\d+)$`,
          'm',
        ),
      ),
    ).toBe(PER_MINUTE);
    expect(
      value(
        new RegExp(
          `^fieldwork_http_requests_total\\{method="GET",route="${route}",status="4xx"\\} (\\d+)$`,
          'm',
        ),
      ),
    ).toBe(10);
    const workers = [...res.body.matchAll(/^process_resident_memory_bytes\{worker="(\d+)"\} \d+$/gm)].map(
      (m) => m[1],
    );
    expect(new Set(workers).size).toBe(2);
    expect(res.body.match(/^# TYPE fieldwork_http_requests_total counter$/gm)).toHaveLength(1);
  });

  it('apps disable is in force in both processes when the command returns', async () => {
    const bearer = { authorization: `Bearer ${await token('revoked', secrets.revoked)}` };
    for (let i = 0; i < 4; i++) expect((await request('GET', CUSTOMER, bearer)).status).toBe(200);
    const disabled = await runCapturedCli(['apps', 'disable', 'revoked'], { config: config() });
    expect(disabled).toMatchObject({ code: 0, stderr: '' });
    const from = out.length;
    for (let i = 0; i < 6; i++) {
      const res = await request('GET', CUSTOMER, bearer);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body).errors[0].code).toBe('unauthorized.badcredentials');
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(servedBy(from).size).toBe(2);
    const enabled = await runCapturedCli(['apps', 'enable', 'revoked'], { config: config() });
    expect(enabled.code).toBe(0);
    for (let i = 0; i < 4; i++) expect((await request('GET', CUSTOMER, bearer)).status).toBe(200);
  });

  it('no worker dies when the database terminates every connection of the service', async () => {
    const bearer = { authorization: `Bearer ${await token('sturdy', secrets.sturdy)}` };
    expect((await request('GET', CUSTOMER, bearer)).status).toBe(200);
    const before = err.length;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      for (let round = 0; round < 3; round++) {
        const { rowCount } = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [dbName],
        );
        expect(rowCount).toBeGreaterThan(0);
        // Answered again at once (a read whose connection broke is run again; 503 at worst).
        for (let i = 0; i < 4; i++)
          expect([200, 503]).toContain((await request('GET', CUSTOMER, bearer)).status);
        await new Promise((r) => setTimeout(r, 300));
      }
    } finally {
      await admin.end();
    }
    for (let i = 0; i < 4; i++) expect((await request('GET', CUSTOMER, bearer)).status).toBe(200);
    expect(err.slice(before)).not.toMatch(/exited/);
    expect(service.exitCode).toBeNull();
  });

  it('a worker that dies is replaced and the port keeps answering', async () => {
    const pids = [...servedBy(0)];
    expect(pids.length).toBe(2);
    process.kill(pids[0], 'SIGKILL');
    for (let i = 0; i < 100 && !/worker \d+ exited/.test(err); i++)
      await new Promise((r) => setTimeout(r, 100));
    const bearer = { authorization: `Bearer ${await token('limited', secrets.limited)}` };
    // 429 or 200: answered, by the survivor and, once started, the new worker.
    for (let i = 0; i < 4; i++) expect([200, 429]).toContain((await request('GET', CUSTOMER, bearer)).status);
  });
});
