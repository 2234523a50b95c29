/**
 * Database faults on PostgreSQL (issue 25 §1), as faults: the service's connections
 * terminated by the server, a table held by another session's ACCESS EXCLUSIVE lock, and
 * the server refusing connections (a TCP proxy of this test, closed then reopened). The
 * process goes on, a request the fault touches answers 503 `service.database.unavailable`
 * with Retry-After within the timeout, and the next ones succeed once the database answers.
 *
 * The server is shared: only this test's backends are terminated, found by the
 * application_name its connection string gives them.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { getCustomer, putCustomer as putCustomerEndpoint } from '../../contract/referentials.ts';
import { listSkills, putSkill } from '../../contract/staff.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { POOL_SIZE } from './index.ts';

const adminUrl = process.env.TEST_DATABASE_URL as string;
const unlimited = { perMinute: 1_000_000, perHour: 1_000_000 };
const rateLimits = { high: unlimited, standard: unlimited, low: unlimited };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Figures for the issue's note, printed at the end. */
const figures: string[] = [];
afterAll(() => {
  if (figures.length) process.stdout.write(`\n[faults] ${figures.join('\n[faults] ')}\n`);
});

function withAppName(url: string, name: string) {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Terminates every backend of `appName` (this test's service only); how many there were. */
const terminate = (appName: string) =>
  admin(async (c) => {
    const { rows } = await c.query(
      'SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()) t',
      [appName],
    );
    return rows[0].n as number;
  });

function expectUnavailable(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(503);
  expect(res.json().errors[0].code).toBe('service.database.unavailable');
  expect(res.json().errorReference).toEqual(expect.any(String));
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

/** POST /oauth/token as the root test client (client_credentials). */
const requestToken = (t: TestApp) =>
  t.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`root:${t.secrets.root}`).toString('base64')}`,
    },
    payload: 'grant_type=client_credentials',
  });

async function putCustomer(t: TestApp, code: string) {
  return t.api(putCustomerEndpoint, {
    params: { customerCode: code },
    body: { name: code, addressDetails: { city: 'Lyon' } },
  });
}

describe('connections terminated by the server', () => {
  it('three times in a row under load: no exit, 200s again within seconds, no acknowledged write lost', async () => {
    const appName = `fw_faults_${randomBytes(4).toString('hex')}`;
    const t = await createTestApp({
      databaseUrl: withAppName(adminUrl, appName),
      dbTimeoutMs: 2_000,
      rateLimits,
    });
    try {
      expect((await putCustomer(t, 'READ-ME')).statusCode).toBe(201);
      await t.token();
      const acknowledged: string[] = [];
      const answers: { at: number; status: number; res: LightMyRequestResponse }[] = [];
      let running = true;
      let n = 0;
      const writer = async (w: number) => {
        while (running) {
          const code = `W${w}-${n++}`;
          const res = await t.api(putSkill, { params: { skillCode: code }, body: { name: code } });
          answers.push({ at: Date.now(), status: res.statusCode, res });
          if (res.statusCode === 201) acknowledged.push(code);
        }
      };
      const reader = async () => {
        while (running) {
          const res = await t.api(getCustomer, { params: { customerCode: 'READ-ME' } });
          answers.push({ at: Date.now(), status: res.statusCode, res });
        }
      };
      const load = [...[0, 1, 2].map(writer), reader(), reader(), reader()];
      const recoveries: number[] = [];
      try {
        await sleep(500);
        for (let round = 0; round < 3; round++) {
          const killedAt = Date.now();
          expect(await terminate(appName)).toBeGreaterThan(0);
          // Recovered: a read and a write both answered 2xx, sent after the termination.
          let recoveredAt: number | undefined;
          for (let i = 0; i < 200 && recoveredAt === undefined; i++) {
            await sleep(25);
            const after = answers.filter((a) => a.at > killedAt + 50 && a.status < 300);
            if (after.some((a) => a.status === 200) && after.some((a) => a.status === 201))
              recoveredAt = Math.min(...after.map((a) => a.at));
          }
          expect(recoveredAt, `round ${round + 1}: no 200 and 201 within 5 s`).toBeDefined();
          recoveries.push((recoveredAt as number) - killedAt);
          await sleep(700);
        }
      } finally {
        running = false;
        await Promise.all(load);
      }
      // Every answer is a success or the database's 503; never a 500.
      for (const a of answers) {
        if (a.status === 503) expectUnavailable(a.res);
        else expect([200, 201], a.res.body).toContain(a.status);
      }
      const { rows } = await admin((c) =>
        c.query(`SELECT code FROM "${t.config.databaseSchema}".skills WHERE code = ANY($1)`, [acknowledged]),
      );
      expect(rows.length).toBe(acknowledged.length);
      // The caller notifications' LISTEN connection came back (and the cache was dropped).
      for (let i = 0; i < 100 && !t.app.fieldwork.auth?.callers.isLive; i++) await sleep(100);
      expect(t.app.fieldwork.auth?.callers.isLive).toBe(true);
      const failed = answers.filter((a) => a.status === 503).length;
      figures.push(
        `terminate x3 under load: recovered in ${recoveries.join(', ')} ms; ${answers.length} answers, ${failed} 503, ${acknowledged.length} writes acknowledged, 0 lost`,
      );
    } finally {
      await t.close();
    }
  });
});

describe('a connection lost under a request', () => {
  it('a read is run again on another connection (200); a write answers 503 and writes nothing', async () => {
    const appName = `fw_faults_${randomBytes(4).toString('hex')}`;
    const t = await createTestApp({
      databaseUrl: withAppName(adminUrl, appName),
      // Long enough that a busy machine's request reaches the lock before it times out.
      dbTimeoutMs: 30_000,
      rateLimits,
    });
    const schema = t.config.databaseSchema as string;
    try {
      expect((await putCustomer(t, 'HELD')).statusCode).toBe(201);
      await t.token();
      await t.api(getCustomer, { params: { customerCode: 'HELD' } });
      /** Sends `fn` while customers is locked, kills the backend waiting on the lock, then unlocks. */
      const underLostConnection = (fn: () => Promise<LightMyRequestResponse>) =>
        admin(async (c) => {
          await c.query('BEGIN');
          await c.query(`LOCK TABLE "${schema}".customers IN ACCESS EXCLUSIVE MODE`);
          let settled = false;
          const pending = fn().finally(() => {
            settled = true;
          });
          let killed = 0;
          // Up to 20 s for the request to wait on the lock (CI's two cores are busy).
          for (let i = 0; i < 400 && killed === 0 && !settled; i++) {
            await sleep(30);
            const { rows } = await c.query(
              "SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock') t",
              [appName],
            );
            killed = rows[0].n;
          }
          const answered = settled ? await pending : undefined;
          await c.query('ROLLBACK');
          expect(
            killed,
            `the request answered before waiting on the lock: ${answered?.statusCode} ${answered?.body.slice(0, 200)}`,
          ).toBe(1);
          return pending;
        });
      const read = await underLostConnection(() => t.api(getCustomer, { params: { customerCode: 'HELD' } }));
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().customerCode).toBe('HELD');
      const write = await underLostConnection(() => putCustomer(t, 'NEVER'));
      expectUnavailable(write);
      expect((await t.api(getCustomer, { params: { customerCode: 'NEVER' } })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('a table locked by another session', () => {
  it('its requests answer 503 within the timeout; others 200; the token endpoint keeps its pace, even with every connection of the main pool held', async () => {
    const TIMEOUT = 1_000;
    const PHASE = 4_000;
    const t = await createTestApp({ dbTimeoutMs: TIMEOUT, rateLimits });
    try {
      expect((await putCustomer(t, 'LOCKED')).statusCode).toBe(201);
      expect(
        (await t.api(putSkill, { params: { skillCode: 'FREE' }, body: { name: 'Free' } })).statusCode,
      ).toBe(201);
      await t.token();
      const max = (list: { ms: number }[]) => Math.round(Math.max(...list.map((x) => x.ms)));
      const p50 = (list: { ms: number }[]) =>
        Math.round(list.map((x) => x.ms).sort((a, b) => a - b)[Math.floor(list.length / 2)]);
      const timed = async (fn: () => Promise<LightMyRequestResponse>) => {
        const started = performance.now();
        const res = await fn();
        return { ms: performance.now() - started, res };
      };
      /** A token, its caller dropped from the cache first: authentication reads the database too. */
      const token = () => {
        t.app.fieldwork.auth?.callers.invalidate();
        return timed(() => requestToken(t));
      };
      // The token endpoint's pace on this machine without the lock (it hashes the secret: CPU,
      // several times slower when the machine is busy).
      const baseline: { ms: number }[] = [];
      for (let i = 0; i < 7; i++) baseline.push(await token());

      const locked: { ms: number; res: LightMyRequestResponse }[] = [];
      const free: { ms: number; res: LightMyRequestResponse }[] = [];
      const tokens: { ms: number; res: LightMyRequestResponse }[] = [];
      /** For `PHASE` ms: `lockedClients` on the locked table, `freeClients` on another, the token endpoint. */
      const phase = async (lockedClients: number, freeClients: number) => {
        const until = Date.now() + PHASE;
        const loop = async (fn: () => Promise<void>) => {
          while (Date.now() < until) await fn();
        };
        await Promise.all([
          ...Array.from({ length: lockedClients }, () =>
            loop(async () => {
              locked.push(await timed(() => t.api(getCustomer, { params: { customerCode: 'LOCKED' } })));
            }),
          ),
          ...Array.from({ length: freeClients }, () =>
            loop(async () => {
              free.push(await timed(() => t.api(listSkills)));
            }),
          ),
          loop(async () => {
            tokens.push(await token());
            await sleep(100);
          }),
        ]);
      };
      const holder = new pg.Client({ connectionString: adminUrl });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE "${t.config.databaseSchema}".customers IN ACCESS EXCLUSIVE MODE`);
      try {
        // Some clients on the locked table: the others are served.
        await phase(4, 2);
        expect(free.length).toBeGreaterThan(10);
        for (const { res } of free) expect(res.statusCode, res.body).toBe(200);
        // Every connection of the main pool (POOL_SIZE) held by statements waiting on the
        // lock, one after the other: a request waits for a connection until the timeout, but
        // authentication and the token endpoint have a pool of their own.
        const until = Date.now() + PHASE;
        const held = Array.from({ length: POOL_SIZE }, () =>
          t.db.connection().execute(async (c) => {
            while (Date.now() < until) await sql`SELECT count(*) FROM customers`.execute(c).catch(() => {});
          }),
        );
        await phase(4, 0);
        await Promise.all(held);
      } finally {
        await holder.query('ROLLBACK');
        await holder.end();
      }
      expect(locked.length).toBeGreaterThan(POOL_SIZE);
      for (const { ms, res } of locked) {
        expectUnavailable(res);
        // The statement timeout, or the wait for a connection of the main pool.
        expect(ms).toBeLessThan(2 * TIMEOUT + 1_500);
      }
      // Every token issued, at the pace of the machine: its median under a second, or under
      // three times the median without the lock on a machine too busy for that.
      expect(tokens.length).toBeGreaterThan(5);
      for (const { res } of tokens) expect(res.statusCode, res.body).toBe(200);
      expect(p50(tokens)).toBeLessThan(Math.max(1_000, 3 * p50(baseline)));
      // The lock gone, the table answers again.
      expect((await t.api(getCustomer, { params: { customerCode: 'LOCKED' } })).statusCode).toBe(200);
      figures.push(
        `lock ${(2 * PHASE) / 1000} s, timeout ${TIMEOUT} ms: ${locked.length} locked-table GETs 503 (max ${max(locked)} ms), ${free.length} other GETs 200 (p50 ${p50(free)} ms, max ${max(free)} ms), ${tokens.length} tokens 200 (p50 ${p50(tokens)} ms, max ${max(tokens)} ms; p50 ${p50(baseline)} ms without the lock)`,
      );
    } finally {
      await t.close();
    }
  });
});

/** A TCP proxy to the PostgreSQL server that can stop accepting (connections refused) and resume. */
async function tcpProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const sock of [client, upstream]) {
          sockets.add(sock);
          sock.on('close', () => sockets.delete(sock));
          sock.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });
  await open();
  return {
    get port() {
      return port;
    },
    open,
    /** Refuses new connections and cuts the open ones. */
    async close() {
      const s = server;
      server = undefined;
      for (const sock of sockets) sock.destroy();
      await new Promise((r) => s?.close(r));
    },
  };
}

describe('the server refusing connections', () => {
  it('/readyz and requests answer 503 while refused, and everything recovers after', async () => {
    const proxy = await tcpProxy(new URL(adminUrl));
    const via = new URL(adminUrl);
    via.host = `127.0.0.1:${proxy.port}`;
    const t = await createTestApp({ databaseUrl: via.toString(), dbTimeoutMs: 1_000, rateLimits });
    try {
      expect((await putCustomer(t, 'REFUSED')).statusCode).toBe(201);
      await t.token();
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

      await proxy.close();
      const down = Date.now();
      const during: number[] = [];
      while (Date.now() - down < 4_000) {
        const started = performance.now();
        const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
        expect(ready.statusCode).toBe(503);
        expect(ready.json().errors[0].code).toBe('service.database.unavailable');
        // A request that needs the database (its caller dropped from the cache, too).
        t.app.fieldwork.auth?.callers.invalidate();
        const res = await t.api(getCustomer, { params: { customerCode: 'REFUSED' } });
        expectUnavailable(res);
        // The token endpoint (oidc-provider) says so in OAuth's words, not 500 server_error.
        const token = await requestToken(t);
        expect(token.statusCode, token.body).toBe(503);
        expect(token.json().error).toBe('temporarily_unavailable');
        expect(token.headers['retry-after']).toBe('2');
        during.push(performance.now() - started);
        await sleep(200);
      }
      expect(Math.max(...during)).toBeLessThan(3_000);

      await proxy.open();
      const up = Date.now();
      let readyAfter: number | undefined;
      let servedAfter: number | undefined;
      for (let i = 0; i < 100 && servedAfter === undefined; i++) {
        if ((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200)
          readyAfter ??= Date.now() - up;
        if ((await t.api(getCustomer, { params: { customerCode: 'REFUSED' } })).statusCode === 200)
          servedAfter = Date.now() - up;
        else await sleep(100);
      }
      expect(readyAfter).toBeDefined();
      expect(servedAfter).toBeDefined();
      expect((await requestToken(t)).statusCode).toBe(200);
      // The caller notifications are listened to again (reconnected within its back-off).
      let liveAfter: number | undefined;
      for (let i = 0; i < 100 && liveAfter === undefined; i++) {
        if (t.app.fieldwork.auth?.callers.isLive) liveAfter = Date.now() - up;
        else await sleep(100);
      }
      expect(liveAfter).toBeDefined();
      figures.push(
        `refused 4 s: answers while refused within ${Math.round(Math.max(...during))} ms; after reopening /readyz 200 in ${readyAfter} ms, GET 200 in ${servedAfter} ms, LISTEN back in ${liveAfter} ms`,
      );
    } finally {
      await t.close();
      await proxy.close();
    }
  });
});

describe('another process migrating', () => {
  it('a start waits for its migration lock longer than the statement timeout', async () => {
    // A second session holds the migrators' lock (as a process migrating a large table
    // would) for three times the service's statement timeout.
    const holder = new pg.Client({ connectionString: adminUrl });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock(727274)');
    const released = sleep(1_500).then(() => holder.query('SELECT pg_advisory_unlock(727274)'));
    try {
      const started = Date.now();
      const t = await createTestApp({ dbTimeoutMs: 500, rateLimits });
      try {
        expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
        expect((await putCustomer(t, 'AFTER-LOCK')).statusCode).toBe(201);
      } finally {
        await t.close();
      }
    } finally {
      await released;
      await holder.end();
    }
  });
});
