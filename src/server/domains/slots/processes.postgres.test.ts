/**
 * The calendar index across processes: a service process B keeps the technicians' days in
 * memory; work orders scheduled through process A (this test's in-process service) and rows
 * written by a third process (this test's own connection) are seen by B's very next search,
 * each time, whenever B's notification arrives.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleByCode } from '../../../contract/scheduling.ts';
import { type Slot, type SlotSearchSent, searchSlots } from '../../../contract/slots.ts';
import { runImport } from '../../cli/importFile.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { futureMonday, plusDays, ROUBAIX, slotFixture } from './fixture.ts';

const MAIN = fileURLToPath(new URL('../../main.ts', import.meta.url));
const adminUrl = process.env.TEST_DATABASE_URL as string;
const dbName = `fieldwork_slots_${randomBytes(4).toString('hex')}`;
const dbUrl = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const MIN = 60_000;
const monday = futureMonday();
const uma: SlotSearchSent = {
  workOrderType: { code: 'GASFIX' },
  timeRanges: [{ start: `${monday}T00:00`, end: `${plusDays(monday, 1)}T00:00` }],
  location: ROUBAIX,
  offices: { codes: ['NORTH-A'] },
  maximumSlotNumber: 700,
  schedulerRequirements: { workingHours: { ignoreFieldResourceCapacityModel: true } },
};

let a: TestApp;
let b: { child: ChildProcess; base: string; err: () => string } | undefined;
let token: string;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const unlimited = { perMinute: 1e9, perHour: 1e9 };
  // A: migrates the fresh database, adds the test offices and applications.
  a = await createTestApp({
    databaseUrl: dbUrl,
    databaseSchema: undefined,
    rateLimits: { high: unlimited, standard: unlimited, low: unlimited },
  });
  await runImport(a.db, slotFixture(monday));
  const port = await freePort();
  let err = '';
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      REDIS_URL: '',
      FIELDWORK_WORKERS: '',
      FIELDWORK_RATE_LIMITS: JSON.stringify({ high: unlimited, standard: unlimited, low: unlimited }),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      FIELDWORK_NO_DEMO: '1',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (d) => {
    err += d;
  });
  b = { child, base: `http://127.0.0.1:${port}`, err: () => err };
  for (let i = 0; i < 1200 && !err.includes('Fieldwork is running'); i++) {
    if (child.exitCode !== null) throw new Error(`process B exited: ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const res = await fetch(`${b.base}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`root:${a.secrets.root}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  expect(res.status).toBe(200);
  token = (await res.json()).access_token;
});

afterAll(async () => {
  if (b && b.child.exitCode === null) {
    const exited = new Promise((r) => b?.child.once('exit', r));
    b.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (b.child.exitCode === null) b.child.kill('SIGKILL');
  }
  await a?.close();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
});

/** A search through process B. */
async function searchOnB(body: SlotSearchSent): Promise<Slot[]> {
  const res = await fetch(`${b?.base}${searchSlots.path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()).slots;
}
const overlaps = (list: Slot[], start: number, end: number) =>
  list.some(
    (s) =>
      Date.parse(s.end) + s.travelAfter.minutes * MIN > start &&
      Date.parse(s.start) - s.travelBefore.minutes * MIN < end,
  );

describe('calendar index across processes (PostgreSQL)', () => {
  it("a work order scheduled through process A is an obstacle in process B's next search, every time", async () => {
    const free = await searchOnB(uma);
    // T-UTC works 09:00-17:00 UTC on Monday, WO-BUSY from 11:00 to 12:30.
    for (const at of ['14:00', '09:00', '15:30', '13:00', '16:00']) {
      const put = await a.api(scheduleByCode, {
        params: { workOrderCode: 'WO-NEW' },
        body: { technicianCode: 'T-UTC', start: `${monday}T${at}` },
      });
      expect(put.statusCode, put.body).toBe(204);
      const start = Date.parse(`${monday}T${at}:00Z`);
      const after = await searchOnB(uma);
      expect(overlaps(free, start, start + 60 * MIN), at).toBe(true);
      expect(overlaps(after, start, start + 60 * MIN), at).toBe(false);
    }
  });

  it("a row written by a third process is seen by process B's next search", async () => {
    const before = await searchOnB(uma);
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    await client.query(
      `UPDATE technicians SET working_hours = '[{"weekday": 1, "start": "15:00", "end": "17:00"}]' WHERE code = 'T-UTC'`,
    );
    await client.end();
    const after = await searchOnB(uma);
    const early = (list: Slot[]) =>
      list.filter((s) => Date.parse(s.start) < Date.parse(`${monday}T15:00:00Z`));
    expect(early(before).length).toBeGreaterThan(0);
    expect(early(after)).toEqual([]);
  });
});
