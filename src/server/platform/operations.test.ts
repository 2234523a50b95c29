/**
 * /healthz, /readyz and /metrics (platform/operations.ts), in-process; the shutdown of a
 * real process is in main.pglite.test.ts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationsCodes } from '../../contract/errors.ts';
import { getCustomer, putAsset, putCustomer } from '../../contract/referentials.ts';
import { createSubscription, deleteSubscription } from '../../contract/webhooks.ts';
import { configFromEnv } from '../config.ts';
import { NO_RATE_LIMITS, type Receiver, startReceiver } from '../domains/webhooks/testReceiver.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { merge, render } from './metrics.ts';

/** The route label /metrics gives putCustomer (Fastify's template of its path): an expected value, kept literal. */
const CUSTOMER_ROUTE = '/eTech/rest/ws/referentials/v1/customers/:p0';
const METRICS_TOKEN = 'metrics-token-of-the-test-0123456789';
let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver((r) => ({ status: r.json?.data?.assetCode === 'FAILS' ? 500 : 200 }));
  t = await createTestApp({
    rateLimits: NO_RATE_LIMITS,
    webhooks: { worker: true, allowPrivate: true, timeScale: 0.05, concurrency: 4 },
  });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const codeOf = (res: { json(): { errors: { code: string }[] } }) => res.json().errors[0].code;

/** The value of one sample of the text format, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}) {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries(
      [...(m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[4]);
  }
  return undefined;
}

describe('/healthz', () => {
  it('answers 200 without credentials and without touching the database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'alive' });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('/readyz', () => {
  it('answers 200 when the database answers and every migration is applied', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    const applied = await t.db.selectFrom('schema_migrations').select('name').execute();
    expect(res.json()).toEqual({
      status: 'ready',
      database: t.app.fieldwork.dbh.kind,
      migrations: applied.length,
    });
  });

  it('answers 503 service.migrations.pending, naming it, when a migration is not applied', async () => {
    const [first] = await t.db.selectFrom('schema_migrations').selectAll().orderBy('name').limit(1).execute();
    await t.db.deleteFrom('schema_migrations').where('name', '=', first.name).execute();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(codeOf(res)).toBe(OperationsCodes.migrationsPending);
      expect(res.json().errors[0].message).toContain(first.name);
      expect(res.json().errorReference).toEqual(expect.any(String));
    } finally {
      await t.db.insertInto('schema_migrations').values(first).execute();
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('answers 503 service.database.unavailable when the database does not answer within 2 s', async () => {
    // The migrations table locked by a transaction that waits for the readiness answer:
    // the check cannot read it (PGlite: its one connection is taken).
    let res: Awaited<ReturnType<TestApp['app']['inject']>> | undefined;
    await t.db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE schema_migrations IN ACCESS EXCLUSIVE MODE`.execute(trx);
      res = await t.app.inject({ method: 'GET', url: '/readyz' });
    });
    expect(res?.statusCode).toBe(503);
    expect(res && codeOf(res)).toBe(OperationsCodes.databaseUnavailable);
    // Liveness does not depend on the database.
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('/metrics', () => {
  it('counts requests by route template and status class, with a latency histogram', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/metrics' });
    const count = (text: string, status: string) =>
      sample(text, 'fieldwork_http_requests_total', { method: 'PUT', route: CUSTOMER_ROUTE, status }) ?? 0;
    const body = { name: 'Metrics', addressDetails: { city: 'Lyon' } };
    expect((await t.api(putCustomer, { params: { customerCode: 'M1' }, body })).statusCode).toBe(201);
    expect((await t.api(putCustomer, { params: { customerCode: 'M2' }, body })).statusCode).toBe(201);
    expect(
      (await t.api(putCustomer, { params: { customerCode: 'M3' }, body: { name: 'x' } })).statusCode,
    ).toBe(400);
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = res.body;
    expect(text).toContain('# TYPE fieldwork_http_requests_total counter');
    expect(text).toContain('# TYPE fieldwork_http_request_duration_seconds histogram');
    expect(count(text, '2xx') - count(before.body, '2xx')).toBe(2);
    expect(count(text, '4xx') - count(before.body, '4xx')).toBe(1);
    const labels = { method: 'PUT', route: CUSTOMER_ROUTE, status: '2xx' };
    const histogramCount = sample(text, 'fieldwork_http_request_duration_seconds_count', labels);
    expect(histogramCount).toBe(count(text, '2xx'));
    expect(sample(text, 'fieldwork_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(
      histogramCount,
    );
    expect(sample(text, 'fieldwork_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    // An unknown path (no row) is one series, whatever the path.
    await t.app.inject({ method: 'GET', url: '/eTech/nothing/here' });
    const after = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(
      sample(after, 'fieldwork_http_requests_total', { method: 'GET', route: 'unmatched', status: '4xx' }),
    ).toBeGreaterThan(0);
    expect(after).not.toContain('/eTech/nothing/here');
  });

  it('reports the process figures', async () => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'process_start_time_seconds')).toBeGreaterThan(1_700_000_000);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_version_info', { version: process.version })).toBe(1);
    expect(sample(text, 'fieldwork_database_up')).toBe(1);
  });

  it('reports the outbox backlog and the delivery attempts by result', async () => {
    const sub = await t.api(createSubscription, {
      body: { eventTypes: ['asset.upsert'], callbackUrl: `${receiver.url}/metrics` },
    });
    expect(sub.statusCode).toBe(201);
    const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const delivered = (text: string) =>
      sample(text, 'fieldwork_webhook_delivery_attempts_total', { result: 'delivered' }) ?? 0;
    const failed = (text: string) =>
      sample(text, 'fieldwork_webhook_delivery_attempts_total', { result: 'failed' }) ?? 0;
    const before = await scrape();
    expect((await t.api(putAsset, { params: { assetCode: 'OK1' }, body: { name: 'Ok' } })).statusCode).toBe(
      201,
    );
    expect(
      (await t.api(putAsset, { params: { assetCode: 'FAILS' }, body: { name: 'Fails' } })).statusCode,
    ).toBe(201);
    // The failing callback stays pending (retried after 188-250 ms at this time scale).
    let text = before;
    for (let i = 0; i < 200 && !(delivered(text) > delivered(before) && failed(text) > failed(before)); i++) {
      await new Promise((r) => setTimeout(r, 25));
      text = await scrape();
    }
    expect(delivered(text) - delivered(before)).toBe(1);
    expect(failed(text) - failed(before)).toBeGreaterThanOrEqual(1);
    const pendingRows = async () =>
      Number(
        (
          await t.db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '=', 'pending')
            .executeTakeFirstOrThrow()
        ).n,
      );
    // The gauge is read at the scrape: a callback whose attempt was counted may still be
    // settling then, so the gauge is compared once both reads see the same outbox.
    let pending = await pendingRows();
    for (let i = 0; i < 40 && sample(text, 'fieldwork_webhook_outbox_pending') !== pending; i++) {
      await new Promise((r) => setTimeout(r, 25));
      text = await scrape();
      pending = await pendingRows();
    }
    expect(sample(text, 'fieldwork_webhook_outbox_pending')).toBe(pending);
    expect(sample(text, 'fieldwork_webhook_outbox_pending')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'fieldwork_webhook_outbox_oldest_pending_seconds')).toBeGreaterThan(0);
    expect(sample(text, 'fieldwork_webhook_outbox_due')).toEqual(expect.any(Number));
    await t.api(deleteSubscription, { params: { subscriptionId: sub.json().subscriptionId } });
  });

  it('answers a peer on this machine only, when no token is configured', async () => {
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(remote.statusCode).toBe(403);
    expect(codeOf(remote)).toBe(OperationsCodes.metricsForbidden);
    // Through a reverse proxy on this machine: refused too.
    const proxied = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.statusCode).toBe(403);
    expect(codeOf(proxied)).toBe(OperationsCodes.metricsForbidden);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' })).statusCode).toBe(
      200,
    );
  });

  it('asks for the bearer of FIELDWORK_METRICS_TOKEN when one is configured, from anywhere', async () => {
    const other = await createTestApp({ metricsToken: METRICS_TOKEN });
    try {
      const none = await other.app.inject({ method: 'GET', url: '/metrics' });
      expect(none.statusCode).toBe(401);
      expect(codeOf(none)).toBe(OperationsCodes.metricsUnauthorized);
      expect(none.headers['www-authenticate']).toBe('Bearer realm="fieldwork-metrics"');
      const wrong = await other.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}x` },
      });
      expect(wrong.statusCode).toBe(401);
      expect(codeOf(wrong)).toBe(OperationsCodes.metricsUnauthorized);
      const right = await other.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '10.1.2.3',
        headers: { authorization: `Bearer ${METRICS_TOKEN}`, 'x-forwarded-for': '203.0.113.9' },
      });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain('fieldwork_http_requests_total');
    } finally {
      await other.close();
    }
  });

  it('merges the figures of several processes: counters summed, gauges per worker', () => {
    const one = [
      {
        name: 'c_total',
        help: 'c',
        type: 'counter' as const,
        samples: [{ name: 'c_total', labels: { a: '1' }, value: 2 }],
      },
      { name: 'g', help: 'g', type: 'gauge' as const, samples: [{ name: 'g', labels: {}, value: 5 }] },
    ];
    const two = [
      {
        name: 'c_total',
        help: 'c',
        type: 'counter' as const,
        samples: [{ name: 'c_total', labels: { a: '1' }, value: 3 }],
      },
      { name: 'g', help: 'g', type: 'gauge' as const, samples: [{ name: 'g', labels: {}, value: 7 }] },
    ];
    const text = render(
      merge([
        { worker: '11', families: one },
        { worker: '12', families: two },
      ]),
    );
    expect(sample(text, 'c_total', { a: '1' })).toBe(5);
    expect(sample(text, 'g', { worker: '11' })).toBe(5);
    expect(sample(text, 'g', { worker: '12' })).toBe(7);
    expect(text.match(/# TYPE c_total counter/g)).toHaveLength(1);
  });
});

describe('shutdown', () => {
  it('once started: /readyz and new requests 503 service.shuttingdown with Connection: close, /healthz 200', async () => {
    const own = await createTestApp();
    try {
      await own.token();
      own.app.fieldwork.operations?.beginShutdown();
      const ready = await own.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(codeOf(ready)).toBe(OperationsCodes.shuttingDown);
      const api = await own.api(getCustomer, { params: { customerCode: 'ANY' } });
      expect(api.statusCode).toBe(503);
      expect(codeOf(api)).toBe(OperationsCodes.shuttingDown);
      expect(api.headers.connection).toBe('close');
      expect(api.headers['retry-after']).toBe('1');
      expect((await own.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('configuration', () => {
  it('reads FIELDWORK_METRICS_TOKEN (16 characters or more) and FIELDWORK_SHUTDOWN_TIMEOUT (seconds, default 10)', () => {
    expect(configFromEnv({}).metricsToken).toBeUndefined();
    expect(configFromEnv({}).shutdownTimeout).toBe(10);
    expect(configFromEnv({ FIELDWORK_METRICS_TOKEN: METRICS_TOKEN }).metricsToken).toBe(METRICS_TOKEN);
    expect(() => configFromEnv({ FIELDWORK_METRICS_TOKEN: 'short' })).toThrow(/FIELDWORK_METRICS_TOKEN/);
    expect(configFromEnv({ FIELDWORK_SHUTDOWN_TIMEOUT: '2.5' }).shutdownTimeout).toBe(2.5);
    for (const bad of ['0', '-1', 'ten', '3601'])
      expect(() => configFromEnv({ FIELDWORK_SHUTDOWN_TIMEOUT: bad })).toThrow(/FIELDWORK_SHUTDOWN_TIMEOUT/);
  });
});
