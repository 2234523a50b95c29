/**
 * Delivery end to end over real HTTP: a receiver on loopback (private addresses allowed on
 * this instance), the worker running at a time scale of 0.05 (timeout 250 ms, first retry
 * after 188..250 ms). Headers, payload, signature, retries, timeout, office tree, event
 * types, replay, test event, the delivery log and the purge.
 */
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAsset, putAsset as putAssetEndpoint } from '../../../contract/referentials.ts';
import { getScheduleByCode, scheduleByCode } from '../../../contract/scheduling.ts';
import {
  WebhooksCodes as C,
  createSubscription,
  deleteSubscription,
  getDelivery,
  listDeliveries,
  replayDelivery,
  sendTestEvent,
  webhookEvents,
} from '../../../contract/webhooks.ts';
import { runImport } from '../../cli/importFile.ts';
import { purgeFinished } from '../../events/outbox.ts';
import { deliveryTimes } from '../../events/schedule.ts';
import { type ApiOptions, codesOf, pathOf } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { futureMonday, slotFixture } from '../slots/fixture.ts';
import { NO_RATE_LIMITS, type Received, type Receiver, startReceiver } from './testReceiver.ts';

const SCALE = 0.05;
const SECRET = `whsec_${Buffer.from('a key of thirty-two bytes exactly').toString('base64')}`;
let t: TestApp;
let receiver: Receiver;
/** An https receiver whose certificate names `hooks.test` (trusted by this service only). */
let tls: { server: Server; port: number; servernames: string[] };
/** Answers by path: a queue of statuses (then 200), or a delay for the first answer. */
const plans = new Map<string, { statuses?: number[]; firstDelayMs?: number }>();

beforeAll(async () => {
  receiver = await startReceiver((r) => {
    const path = r.url.split('?')[0];
    const plan = plans.get(path);
    const index = receiver.received.filter((x) => x.url.split('?')[0] === path).length - 1;
    if (plan?.firstDelayMs && index === 0) return { delayMs: plan.firstDelayMs };
    return { status: plan?.statuses?.[index] ?? 200 };
  });
  const dir = mkdtempSync(join(tmpdir(), 'fieldwork-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=hooks.test',
      '-addext',
      'subjectAltName=DNS:hooks.test',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const key = readFileSync(join(dir, 'key.pem'));
  const cert = readFileSync(join(dir, 'cert.pem'));
  rmSync(dir, { recursive: true, force: true });
  const servernames: string[] = [];
  const server = createHttpsServer({ key, cert }, (req, res) => {
    servernames.push((req.socket as import('node:tls').TLSSocket).servername || '');
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  tls = { server, port: (server.address() as AddressInfo).port, servernames };
  t = await createTestApp(
    {
      rateLimits: NO_RATE_LIMITS,
      webhooks: { worker: true, allowPrivate: true, timeScale: SCALE, concurrency: 8 },
    },
    {
      logger: false,
      webhooks: {
        ca: cert,
        resolve: async (host) =>
          host === 'public.example.test'
            ? [{ address: '93.184.216.34', family: 4 }]
            : host === 'fallback.example.test'
              ? // Nothing listens on 127.0.0.2: the next address is tried.
                [
                  { address: '127.0.0.2', family: 4 },
                  { address: '127.0.0.1', family: 4 },
                ]
              : [{ address: '127.0.0.1', family: 4 }],
      },
    },
  );
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  tls?.server.closeAllConnections();
  tls?.server.close();
});

async function subscribe(
  path: string,
  extra: Record<string, unknown> = {},
  as: TestClient = 'root',
  eventTypes = ['asset.upsert'],
): Promise<string> {
  const res = await t.api(createSubscription, {
    as,
    body: { eventTypes, callbackUrl: `${receiver.url}${path}`, ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().subscriptionId;
}
async function subscribeUrl(callbackUrl: string, as: TestClient = 'root') {
  const res = await t.api(createSubscription, { as, body: { eventTypes: ['asset.upsert'], callbackUrl } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().subscriptionId as string;
}
const putAsset = async (code: string, body: Record<string, unknown>, as: TestClient = 'root') => {
  const res = await t.api(putAssetEndpoint, { params: { assetCode: code }, as, body });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res;
};
const at = (path: string) => (r: Received) => r.url.split('?')[0] === path;
/** The delivery log of a subscription once `done` holds for its first entry. */
async function logOf(as: TestClient, subscriptionId: string, done: (d: Record<string, unknown>) => boolean) {
  for (let i = 0; i < 400; i++) {
    const page = (await t.api(listDeliveries, { params: { subscriptionId }, as })).json();
    if (page.data[0] && done(page.data[0])) return page.data;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the delivery log did not reach the expected state');
}
const outboxCount = async (subscriptionId: string) =>
  Number(
    (
      await t.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('subscription_id', '=', subscriptionId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const payloadSchema = (eventType: string) => {
  const found = webhookEvents.find((e) => e.eventType === eventType);
  if (!found) throw new Error(eventType);
  return found.payload;
};

describe('a callback', () => {
  it('carries the spec headers, custom headers, the Standard Webhooks signature and the payload', async () => {
    const id = await subscribe('/signed', {
      secret: SECRET,
      headers: { 'X-Tenant': 'acme', Authorization: 'Bearer r' },
    });
    await putAsset('PUMP-1', { name: 'Pump', officeCode: 'north-a' });
    const [got] = await receiver.waitFor(1, at('/signed'));

    expect(got.headers['x-service-event']).toBe('asset.upsert');
    expect(got.headers['x-service-secret']).toBe(SECRET);
    expect(got.headers['x-tenant']).toBe('acme');
    expect(got.headers.authorization).toBe('Bearer r');
    expect(got.headers['content-type']).toBe('application/json');

    const body = got.json;
    expect(payloadSchema('asset.upsert').safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      version: '1',
      eventType: 'asset.upsert',
      subscriptionId: id,
      data: {
        assetCode: 'PUMP-1',
        officeCode: 'NORTH-A',
        actor: { type: 'webService', identifier: 'Test root' },
      },
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.creationTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const asset = (await t.api(getAsset, { params: { assetCode: 'PUMP-1' } })).json();
    expect(Date.parse(body.data.updatedAt)).toBe(Date.parse(asset.lastUpdate));

    // Standard Webhooks: HMAC-SHA256 of "id.timestamp.body" with the base64-decoded key.
    expect(got.headers['webhook-id']).toBe(body.id);
    const timestamp = Number(got.headers['webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
    const mac = createHmac('sha256', key).update(`${body.id}.${timestamp}.${got.body}`).digest('base64');
    expect(got.headers['webhook-signature']).toBe(`v1,${mac}`);

    // The delivery log: delivered at the first attempt, with the answer's status and duration.
    const [entry] = await logOf('root', id, (d) => d.status === 'delivered');
    expect(entry).toMatchObject({
      deliveryId: body.id,
      subscriptionId: id,
      eventType: 'asset.upsert',
      status: 'delivered',
      attempts: 1,
      nextAttemptAt: null,
      lastStatusCode: 200,
      lastError: null,
    });
    expect(entry.lastDurationMs).toBeGreaterThanOrEqual(0);
    expect(entry.deliveredAt).toMatch(/Z$/);
    const detail = (await t.api(getDelivery, { params: { subscriptionId: id, deliveryId: body.id } })).json();
    expect(detail.payload).toEqual(body);
    expect(detail.attemptHistory).toEqual([
      {
        attempt: 1,
        time: expect.stringMatching(/Z$/),
        statusCode: 200,
        durationMs: expect.any(Number),
        error: null,
        succeeded: true,
      },
    ]);

    // A PUT that changes nothing emits nothing (checked in the outbox, at once: it is transactional).
    const before = await outboxCount(id);
    expect((await putAsset('PUMP-1', { name: 'Pump', officeCode: 'NORTH-A' })).statusCode).toBe(204);
    expect(await outboxCount(id)).toBe(before);
    await putAsset('PUMP-1', { name: 'Pump 2', officeCode: 'NORTH-A' });
    expect(await outboxCount(id)).toBe(before + 1);
    await receiver.waitFor(2, at('/signed'));
    expect((await t.api(deleteSubscription, { params: { subscriptionId: id } })).statusCode).toBe(204);
  });

  it('without a secret: no x-service-secret and no signature headers', async () => {
    const id = await subscribe('/plain');
    await putAsset('PUMP-2', { name: 'Pump', officeCode: 'NORTH' });
    const [got] = await receiver.waitFor(1, at('/plain'));
    expect(got.headers['x-service-event']).toBe('asset.upsert');
    for (const h of ['x-service-secret', 'webhook-id', 'webhook-timestamp', 'webhook-signature'])
      expect(got.headers[h], h).toBeUndefined();

    // An import is a `process` actor.
    await runImport(t.db, {
      assets: [{ assetCode: 'PUMP-IMPORTED', name: 'Imported', officeCode: 'NORTH' }],
    });
    const imported = await receiver.waitFor(
      1,
      (r) => at('/plain')(r) && r.json.data.assetCode === 'PUMP-IMPORTED',
    );
    expect(imported[0].json.data.actor).toEqual({ type: 'process', identifier: 'fieldwork import' });
    expect((await t.api(deleteSubscription, { params: { subscriptionId: id } })).statusCode).toBe(204);
  });

  it('reaches only subscribers whose office tree holds the event, and only for their event types', async () => {
    const north = await subscribe('/north', {}, 'north');
    const south = await subscribe('/south', {}, 'south');
    const root = await subscribe('/root-scheduled', {}, 'root', ['status.scheduled']);
    await putAsset('TREE-A', { name: 'In North A', officeCode: 'NORTH-A' });
    await putAsset('TREE-S', { name: 'In South', officeCode: 'SOUTH' });
    // Transactional: the outbox holds the callbacks as soon as the PUT answered.
    expect(await outboxCount(north)).toBe(1);
    expect(await outboxCount(south)).toBe(1);
    expect(await outboxCount(root)).toBe(0);
    const [n] = await receiver.waitFor(1, at('/north'));
    const [s] = await receiver.waitFor(1, at('/south'));
    expect(n.json.data.assetCode).toBe('TREE-A');
    expect(s.json.data.assetCode).toBe('TREE-S');

    // A disabled application receives nothing while it is disabled.
    await t.db
      .updateTable('applications')
      .set({ disabled_at: new Date() })
      .where('client_id', '=', 'south')
      .execute();
    await putAsset('TREE-S2', { name: 'In South too', officeCode: 'SOUTH' });
    expect(await outboxCount(south)).toBe(1);
    await t.db
      .updateTable('applications')
      .set({ disabled_at: null })
      .where('client_id', '=', 'south')
      .execute();
    for (const [as, id] of [
      ['north', north],
      ['south', south],
      ['root', root],
    ] as const)
      expect((await t.api(deleteSubscription, { params: { subscriptionId: id }, as })).statusCode).toBe(204);
  });

  it('status.scheduled when a work order is scheduled', async () => {
    const monday = futureMonday();
    await runImport(t.db, slotFixture(monday));
    const id = await subscribe('/scheduled', {}, 'north', ['status.scheduled']);
    const res = await t.api(scheduleByCode, {
      params: { workOrderCode: 'WO-NEW' },
      as: 'north',
      body: { technicianCode: 'T-PARIS', start: `${monday}T08:00` },
    });
    expect(res.statusCode, res.body).toBe(204);
    const [got] = await receiver.waitFor(1, at('/scheduled'));
    expect(got.headers['x-service-event']).toBe('status.scheduled');
    expect(payloadSchema('status.scheduled').safeParse(got.json).success).toBe(true);
    const wo = (await t.api(getScheduleByCode, { params: { workOrderCode: 'WO-NEW' }, as: 'north' })).json();
    expect(got.json.data).toEqual({
      updatedAt: expect.stringMatching(/Z$/),
      workOrderCode: 'WO-NEW',
      uuid: wo.uuid,
      officeCode: 'NORTH',
      status: 'SCHEDULED',
      technicianCode: 'T-PARIS',
      crewCode: null,
      scheduledStart: `${monday}T08:00:00Z`,
      scheduledEnd: `${monday}T09:00:00Z`,
      actor: { type: 'webService', identifier: 'Test north' },
    });
    expect(
      (await t.api(deleteSubscription, { params: { subscriptionId: id }, as: 'north' })).statusCode,
    ).toBe(204);
  });
});

describe('retries', () => {
  it('500 twice then 200: delivered at the third attempt, with the same id, after growing delays', async () => {
    plans.set('/flaky', { statuses: [500, 500, 200] });
    const id = await subscribe('/flaky');
    await putAsset('FLAKY-1', { name: 'Flaky' });
    const got = await receiver.waitFor(3, at('/flaky'));
    expect(new Set(got.map((r) => r.json.id)).size).toBe(1);
    expect(got.every((r) => r.body === got[0].body)).toBe(true);
    // Back-off: at least 75 % of 5 s then 10 s, scaled.
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(0.75 * 5000 * SCALE - 5);
    expect(got[2].at - got[1].at).toBeGreaterThanOrEqual(0.75 * 10_000 * SCALE - 5);
    const [entry] = await logOf('root', id, (d) => d.status === 'delivered');
    expect(entry).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200 });
    const detail = (
      await t.api(getDelivery, { params: { subscriptionId: id, deliveryId: entry.deliveryId } })
    ).json();
    expect(detail.attemptHistory.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 200]);
    expect(detail.attemptHistory[0]).toMatchObject({
      attempt: 1,
      succeeded: false,
      error: 'answered HTTP 500',
    });
    expect((await t.api(deleteSubscription, { params: { subscriptionId: id } })).statusCode).toBe(204);
  });

  it('no answer within 5 s (scaled: 250 ms) is a failed attempt, retried', async () => {
    plans.set('/slow', { firstDelayMs: 800 });
    const id = await subscribe('/slow');
    await putAsset('SLOW-1', { name: 'Slow' });
    const [entry] = await logOf('root', id, (d) => d.status === 'delivered');
    expect(entry.attempts).toBe(2);
    const detail = (
      await t.api(getDelivery, { params: { subscriptionId: id, deliveryId: entry.deliveryId } })
    ).json();
    expect(detail.attemptHistory[0]).toMatchObject({
      statusCode: null,
      succeeded: false,
      error: 'no answer within 250 ms',
    });
    expect(detail.attemptHistory[0].durationMs).toBeGreaterThanOrEqual(245);
    expect(detail.attemptHistory[0].durationMs).toBeLessThan(800);
    expect(detail.attemptHistory[1]).toMatchObject({ statusCode: 200, succeeded: true });
    expect((await t.api(deleteSubscription, { params: { subscriptionId: id } })).statusCode).toBe(204);
  });

  it('tries the next address of a host when one cannot be reached', async () => {
    const res = await t.api(createSubscription, {
      body: {
        eventTypes: ['asset.upsert'],
        callbackUrl: `http://fallback.example.test:${receiver.port}/fallback`,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().subscriptionId;
    await putAsset('FALLBACK-1', { name: 'Fallback' });
    const [got] = await receiver.waitFor(1, at('/fallback'));
    expect(got.headers.host).toBe(`fallback.example.test:${receiver.port}`);
    const [entry] = await logOf('root', id, (d) => d.status === 'delivered');
    expect(entry.attempts).toBe(1);
    expect((await t.api(deleteSubscription, { params: { subscriptionId: id } })).statusCode).toBe(204);
  });

  it('https: connects to the checked address and verifies the certificate against the host name', async () => {
    const ok = await subscribeUrl(`https://hooks.test:${tls.port}/tls`);
    // Same address, but the certificate does not name this host.
    const wrong = await subscribeUrl(`https://other.test:${tls.port}/tls`);
    await putAsset('TLS-1', { name: 'Over TLS' });
    const [delivered] = await logOf('root', ok, (d) => d.status === 'delivered');
    expect(delivered.lastStatusCode).toBe(204);
    expect(tls.servernames).toContain('hooks.test');
    const [refused] = await logOf('root', wrong, (d) => /ALTNAME|altnames/.test(String(d.lastError)));
    expect(refused.status).toBe('pending');
    expect(refused.lastError).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID|altnames/);
    for (const id of [ok, wrong])
      expect((await t.api(deleteSubscription, { params: { subscriptionId: id } })).statusCode).toBe(204);
  });

  it('http:// to a host that resolves to a public address is refused at delivery', async () => {
    const res = await t.api(createSubscription, {
      body: { eventTypes: ['asset.upsert'], callbackUrl: 'http://public.example.test/hook' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().subscriptionId;
    await putAsset('PUBLIC-1', { name: 'Public' });
    const [entry] = await logOf('root', id, (d) => (d.attempts as number) >= 1);
    expect(entry.lastError).toContain('resolves to 93.184.216.34, a public address');
    expect(entry.lastStatusCode).toBeNull();
    expect((await t.api(deleteSubscription, { params: { subscriptionId: id } })).statusCode).toBe(204);
  });
});

describe('delivery log extensions', () => {
  it('replays a delivered callback with the same id; refuses a pending one', async () => {
    const id = await subscribe('/replay');
    await putAsset('REPLAY-1', { name: 'Replay me' });
    const [first] = await receiver.waitFor(1, at('/replay'));
    const [entry] = await logOf('root', id, (d) => d.status === 'delivered');
    const res = await t.api(replayDelivery, { params: { subscriptionId: id, deliveryId: entry.deliveryId } });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ deliveryId: first.json.id, status: 'pending', attempts: 1 });
    const again = await receiver.waitFor(2, at('/replay'));
    expect(again[1].json.id).toBe(first.json.id);
    expect(again[1].body).toBe(first.body);
    await logOf('root', id, (d) => d.status === 'delivered' && d.attempts === 2);

    // A callback that keeps failing stays pending: no replay; deleting the subscription drops it.
    plans.set('/down', { statuses: Array(1000).fill(503) });
    const down = await subscribe('/down');
    await putAsset('REPLAY-2', { name: 'Nobody home' });
    const [pending] = await logOf('root', down, (d) => (d.attempts as number) >= 1);
    expect(pending.status).toBe('pending');
    expect(pending.nextAttemptAt).toMatch(/Z$/);
    const refused = await t.api(replayDelivery, {
      params: { subscriptionId: down, deliveryId: pending.deliveryId },
    });
    expect(refused.statusCode).toBe(400);
    expect(codesOf(refused)).toEqual([C.deliveryPending]);
    expect((await t.api(deleteSubscription, { params: { subscriptionId: down } })).statusCode).toBe(204);
    expect(await outboxCount(down)).toBe(0);
    const count = receiver.received.filter(at('/down')).length;
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.received.filter(at('/down')).length).toBeLessThanOrEqual(count + 1);
    expect((await t.api(deleteSubscription, { params: { subscriptionId: id } })).statusCode).toBe(204);
  });

  it('sends a test event, whatever the event types', async () => {
    const id = await subscribe('/test-event', { secret: 'a-plain-secret-of-some-length' }, 'north', [
      'workorder.deletion',
    ]);
    const res = await t.api(sendTestEvent, { params: { subscriptionId: id }, as: 'north' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({
      eventType: 'webhooks.test',
      status: 'pending',
      attempts: 0,
      subscriptionId: id,
    });
    const [got] = await receiver.waitFor(1, at('/test-event'));
    expect(got.headers['x-service-event']).toBe('webhooks.test');
    expect(got.headers['x-service-secret']).toBe('a-plain-secret-of-some-length');
    const mac = createHmac('sha256', 'a-plain-secret-of-some-length')
      .update(`${got.json.id}.${got.headers['webhook-timestamp']}.${got.body}`)
      .digest('base64');
    expect(got.headers['webhook-signature']).toBe(`v1,${mac}`);
    expect(payloadSchema('webhooks.test').safeParse(got.json).success).toBe(true);
    expect(got.json.data.actor).toEqual({ type: 'webService', identifier: 'Test north' });
    expect(
      (await t.api(deleteSubscription, { params: { subscriptionId: id }, as: 'north' })).statusCode,
    ).toBe(204);
  });

  it('pages the log newest first (keyset), filters by status, refuses bad tokens', async () => {
    const id = await subscribe('/log', {}, 'south', ['workorder.validation']);
    // 70 finished callbacks written directly: 25 failed, 45 delivered.
    await sql`
      INSERT INTO webhook_deliveries (subscription_id, event_type, data, status, attempts, next_attempt_at, finished_at)
      SELECT ${id}::uuid, 'workorder.validation', jsonb_build_object('n', g),
             CASE WHEN g % 14 < 5 THEN 'failed' ELSE 'delivered' END, 1, NULL, now()
      FROM generate_series(1, 70) g
    `.execute(t.db);
    const page = (query: ApiOptions<typeof listDeliveries>['query'] = {}) =>
      t.api(listDeliveries, { params: { subscriptionId: id }, query, as: 'south' });
    const first = (await page()).json();
    expect(first.data).toHaveLength(50);
    const second = (await page({ continuationToken: first.continuationToken })).json();
    expect(second.data).toHaveLength(20);
    expect(second.continuationToken).toBeNull();
    const all = [...first.data, ...second.data];
    expect(new Set(all.map((d) => d.deliveryId)).size).toBe(70);
    const order = await t.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('subscription_id', '=', id)
      .orderBy('seq', 'desc')
      .execute();
    expect(all.map((d) => d.deliveryId)).toEqual(order.map((r) => r.id));

    const failed = (await page({ status: 'failed' })).json();
    expect(failed.data).toHaveLength(25);
    expect(failed.data.every((d: { status: string }) => d.status === 'failed')).toBe(true);
    expect((await page({ status: 'pending' })).json().data).toEqual([]);

    const wrongFilter = await page({ status: 'failed', continuationToken: first.continuationToken });
    expect(wrongFilter.statusCode).toBe(400);
    expect(codesOf(wrongFilter)).toEqual([C.continuationTokenInvalid]);
    const tampered = await page({ continuationToken: `${first.continuationToken}x` });
    expect(codesOf(tampered)).toEqual([C.continuationTokenInvalid]);
    const badStatus = await page({ status: 'lost' });
    expect(badStatus.statusCode).toBe(400);
    expect(codesOf(badStatus)).toEqual([C.statusInvalid]);
    // Outside the row's query: its path with a query of its own.
    const since = await t.call('GET', `${pathOf(listDeliveries, { subscriptionId: id })}?since=yesterday`, {
      as: 'south',
    });
    expect(codesOf(since)).toEqual([C.fieldUnknown]);
  });

  it('purges callbacks finished more than 15 days (scaled) ago, with their attempts', async () => {
    const id = await subscribe('/purge');
    await putAsset('PURGE-1', { name: 'Old' });
    await putAsset('PURGE-2', { name: 'Recent' });
    await receiver.waitFor(2, at('/purge'));
    const times = deliveryTimes(SCALE);
    let rows: { id: string; asset: string; status: string }[] = [];
    for (let i = 0; i < 400; i++) {
      rows = await t.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'status', sql<string>`data->>'assetCode'`.as('asset')])
        .where('subscription_id', '=', id)
        .execute();
      if (rows.every((r) => r.status === 'delivered')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const old = rows.find((r) => r.asset === 'PURGE-1');
    if (!old) throw new Error('no delivery');
    await t.db
      .updateTable('webhook_deliveries')
      .set({ finished_at: new Date(Date.now() - times.retentionMs - 60_000) })
      .where('id', '=', old.id)
      .execute();
    expect(await purgeFinished(t.db, times.retentionMs)).toBe(1);
    const left = await t.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('subscription_id', '=', id)
      .execute();
    expect(left).toHaveLength(1);
    const attempts = await t.db
      .selectFrom('webhook_attempts')
      .select('id')
      .where('delivery_id', '=', old.id)
      .execute();
    expect(attempts).toEqual([]);
    const gone = await t.api(getDelivery, { params: { subscriptionId: id, deliveryId: old.id } });
    expect(gone.statusCode).toBe(404);
    expect(codesOf(gone)).toEqual([C.deliveryNotFound]);
  });
});
