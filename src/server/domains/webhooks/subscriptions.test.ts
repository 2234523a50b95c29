/**
 * Subscriptions endpoints (exact shapes, limit, ownership, every refusal's code) and the
 * SSRF rule on an instance that does not allow private addresses (the default): refused at
 * creation from the URL, and again at delivery for a host name resolving to loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommonCodes } from '../../../contract/errors.ts';
import { putAsset } from '../../../contract/referentials.ts';
import {
  WebhooksCodes as C,
  createSubscription as createSubscriptionEndpoint,
  deleteSubscription,
  getDelivery,
  listDeliveries,
  listSubscriptions as listSubscriptionsEndpoint,
  SUBSCRIPTION_LIMIT,
  sendTestEvent,
} from '../../../contract/webhooks.ts';
import { deleteApplication } from '../../platform/auth/applications.ts';
import { codesOf, pathOf } from '../../testing/api.ts';
import { createTestApp, type TestApp, type TestClient } from '../../testing/harness.ts';
import { createSubscription, listSubscriptions } from './service.ts';
import { NO_RATE_LIMITS, type Receiver, startReceiver } from './testReceiver.ts';

let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await createTestApp(
    {
      rateLimits: NO_RATE_LIMITS,
      webhooks: { worker: true, allowPrivate: false, timeScale: 0.02, concurrency: 4 },
    },
    {
      logger: false,
      // A public-looking name that resolves to loopback: refused when delivering.
      webhooks: {
        resolve: async (host) =>
          host === 'rebind.example.test'
            ? [{ address: '127.0.0.1', family: 4 }]
            : [{ address: '::1', family: 6 }],
      },
    },
  );
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const create = (body: unknown, as: TestClient = 'root') => t.api(createSubscriptionEndpoint, { body, as });
const valid = { eventTypes: ['asset.upsert'], callbackUrl: 'https://hooks.example.com/fieldwork' };
async function refused(body: unknown, expected: string[], raw?: string) {
  const res = raw === undefined ? await create(body) : await t.api(createSubscriptionEndpoint, { raw });
  expect(res.statusCode, res.body).toBe(400);
  expect(codesOf(res).sort()).toEqual([...expected].sort());
}
async function clear(as: TestClient) {
  const list = await t.api(listSubscriptionsEndpoint, { as });
  for (const s of list.json().data)
    await t.api(deleteSubscription, { params: { subscriptionId: s.subscriptionId }, as });
}

describe('subscriptions: create, list, delete', () => {
  it('creates (201, exact shape, no secret), lists, deletes (204) then 404', async () => {
    const res = await create({
      eventTypes: ['asset.upsert', 'status.scheduled', 'asset.upsert'],
      callbackUrl: 'https://hooks.example.com/fieldwork?tenant=1',
      secret: 'a-secret-of-24-characters',
      headers: { Authorization: 'Bearer receiver-token', 'X-Tenant': 'acme' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(Object.keys(created).sort()).toEqual([
      'callbackUrl',
      'createdAt',
      'eventTypes',
      'headers',
      'secretSet',
      'subscriptionId',
    ]);
    // Whether a secret is set (extension), never the secret.
    expect(created.secretSet).toBe(true);
    expect(created).toMatchObject({
      eventTypes: ['asset.upsert', 'status.scheduled'],
      callbackUrl: 'https://hooks.example.com/fieldwork?tenant=1',
      headers: { Authorization: 'Bearer receiver-token', 'X-Tenant': 'acme' },
    });
    expect(created.subscriptionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(res.body).not.toContain('a-secret-of-24-characters');

    const list = await t.api(listSubscriptionsEndpoint);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ data: [created] });
    expect(list.body).not.toContain('a-secret');

    expect(
      (await t.api(deleteSubscription, { params: { subscriptionId: created.subscriptionId } })).statusCode,
    ).toBe(204);
    const again = await t.api(deleteSubscription, { params: { subscriptionId: created.subscriptionId } });
    expect(again.statusCode).toBe(404);
    expect(codesOf(again)).toEqual([C.subscriptionNotFound]);
    expect((await t.api(listSubscriptionsEndpoint)).json()).toEqual({ data: [] });
  });

  it('headers and secret may be omitted or null', async () => {
    const res = await create({ ...valid, secret: null, headers: null });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().headers).toEqual({});
    expect(res.json().secretSet).toBe(false);
    expect((await create(valid)).json().headers).toEqual({});
    await clear('root');
  });

  it(`holds at most ${SUBSCRIPTION_LIMIT} per application; another application has its own`, async () => {
    for (let i = 0; i < SUBSCRIPTION_LIMIT; i++) expect((await create(valid)).statusCode).toBe(201);
    const fourth = await create(valid);
    expect(fourth.statusCode).toBe(400);
    expect(codesOf(fourth)).toEqual([C.subscriptionLimit]);
    expect((await create(valid, 'north')).statusCode).toBe(201);
    // Concurrent creations cannot pass the limit either.
    await clear('north');
    const burst = await Promise.all(Array.from({ length: 6 }, () => create(valid, 'north')));
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(SUBSCRIPTION_LIMIT);
    expect(
      burst.filter((r) => r.statusCode === 400).every((r) => codesOf(r)[0] === C.subscriptionLimit),
    ).toBe(true);
    await clear('root');
    await clear('north');
  });

  it("another application's subscription is unknown: not listed, 404 on delete and on its log", async () => {
    const mine = (await create(valid, 'north')).json();
    expect((await t.api(listSubscriptionsEndpoint, { as: 'south' })).json()).toEqual({ data: [] });
    const subscriptionId = mine.subscriptionId;
    for (const [row, res] of [
      [deleteSubscription, await t.api(deleteSubscription, { params: { subscriptionId }, as: 'south' })],
      [listDeliveries, await t.api(listDeliveries, { params: { subscriptionId }, as: 'south' })],
      [sendTestEvent, await t.api(sendTestEvent, { params: { subscriptionId }, as: 'south' })],
      [
        getDelivery,
        await t.api(getDelivery, { params: { subscriptionId, deliveryId: subscriptionId }, as: 'south' }),
      ],
    ] as const) {
      expect(res.statusCode, `${row.method} ${row.path}`).toBe(404);
      expect(codesOf(res)).toEqual([C.subscriptionNotFound]);
    }
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await t.api(deleteSubscription, { params: { subscriptionId: id }, as: 'north' });
      expect(res.statusCode).toBe(404);
      expect(codesOf(res)).toEqual([C.subscriptionNotFound]);
    }
    const unknownDelivery = await t.api(getDelivery, {
      params: { subscriptionId: mine.subscriptionId, deliveryId: '00000000-0000-4000-8000-000000000000' },
      as: 'north',
    });
    expect(unknownDelivery.statusCode).toBe(404);
    expect(codesOf(unknownDelivery)).toEqual([C.deliveryNotFound]);
    expect((await t.api(listSubscriptionsEndpoint, { as: 'north' })).json().data).toHaveLength(1);
    await clear('north');
  });

  it('a console user owns subscriptions of its own, apart from the applications', async () => {
    const userId = await t.createUser('planner', 'a long password', 'NORTH');
    const root = (await t.api(listSubscriptionsEndpoint)).json().data.length;
    const user = {
      kind: 'user' as const,
      id: userId,
      name: 'planner',
      rateKey: 'u',
      scopes: new Set<string>(),
      scope: { officeId: '2', officeCode: 'NORTH', path: '/1/2/' },
    };
    const made = await createSubscription(t.db, user, valid, false);
    expect((await listSubscriptions(t.db, user)).data).toEqual([made]);
    expect((await t.api(listSubscriptionsEndpoint)).json().data).toHaveLength(root);
  });

  it('go with their application when it is deleted (fieldwork apps delete)', async () => {
    const id = (await create(valid, 'northA')).json().subscriptionId;
    await deleteApplication(t.db, 'northA');
    const left = await t.db.selectFrom('webhook_subscriptions').select('id').where('id', '=', id).execute();
    expect(left).toEqual([]);
  });

  it('has no update: PUT and PATCH on a subscription are refused and change nothing', async () => {
    const sub = (
      await create({ ...valid, secret: 'a-secret-of-24-characters', headers: { 'X-A': '1' } })
    ).json();
    const before = (await t.api(listSubscriptionsEndpoint)).json();
    const row = () =>
      t.db
        .selectFrom('webhook_subscriptions')
        .selectAll()
        .where('id', '=', sub.subscriptionId)
        .executeTakeFirst();
    const stored = await row();
    const change = {
      eventTypes: ['workorder.deletion'],
      callbackUrl: 'https://other.example.com/hook',
      secret: 'another-secret-of-24-chars',
      headers: { 'X-B': '2' },
    };
    for (const method of ['PUT', 'PATCH'] as const) {
      for (const as of ['root', 'south'] as const) {
        // A method the row does not have: the row's path with another method.
        const res = await t.call(method, pathOf(deleteSubscription, { subscriptionId: sub.subscriptionId }), {
          body: change,
          as,
        });
        // The path takes DELETE only (issue 25: 405 with Allow, not 404).
        expect(res.statusCode, `${method} as ${as}: ${res.body}`).toBe(405);
        expect(codesOf(res)).toEqual([CommonCodes.methodNotAllowed]);
        expect(res.headers.allow).toBe('DELETE');
        expect(res.json().errorReference).toEqual(expect.any(String));
      }
    }
    expect((await t.api(listSubscriptionsEndpoint)).json()).toEqual(before);
    expect(await row()).toEqual(stored);
    // Nor does the OpenAPI document offer one.
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths[deleteSubscription.path])).toEqual(['delete']);
    await clear('root');
  });

  it('needs webhooks:write to create and delete, webhooks:read to list', async () => {
    const res = await create(valid, 'readonly');
    expect(res.statusCode).toBe(403);
    expect(codesOf(res)).toEqual(['access.forbiden']);
    expect((await t.api(listSubscriptionsEndpoint, { as: 'readonly' })).statusCode).toBe(200);
  });
});

describe('subscriptions: every refusal has its webhooks.* code', () => {
  it('event types', async () => {
    await refused({ callbackUrl: valid.callbackUrl }, [C.eventTypesMandatory]);
    await refused({ ...valid, eventTypes: null }, [C.eventTypesMandatory]);
    await refused({ ...valid, eventTypes: [] }, [C.eventTypesMandatory]);
    await refused({ ...valid, eventTypes: 'asset.upsert' }, [C.eventTypesInvalid]);
    await refused({ ...valid, eventTypes: [1] }, [C.eventTypesInvalid]);
    await refused({ ...valid, eventTypes: ['asset.upsert', 'asset.deleted'] }, [C.eventTypeUnknown]);
    await refused({ ...valid, eventTypes: ['ASSET.UPSERT'] }, [C.eventTypeUnknown]);
  });

  it('callback URL: malformed, not http(s), credentials, plain http', async () => {
    await refused({ eventTypes: valid.eventTypes }, [C.callbackUrlMandatory]);
    await refused({ ...valid, callbackUrl: 'hooks.example.com/x' }, [C.callbackUrlInvalid]);
    await refused({ ...valid, callbackUrl: 'ftp://hooks.example.com/x' }, [C.callbackUrlInvalid]);
    await refused({ ...valid, callbackUrl: 'https://user:pw@hooks.example.com/x' }, [C.callbackUrlInvalid]);
    await refused({ ...valid, callbackUrl: `https://example.com/${'x'.repeat(2048)}` }, [
      C.callbackUrlInvalid,
    ]);
    await refused({ ...valid, callbackUrl: 'http://hooks.example.com/x' }, [C.callbackUrlHttps]);
  });

  it('callback URL: private, loopback and link-local addresses are refused (SSRF)', async () => {
    for (const host of [
      '127.0.0.1',
      '127.1',
      '2130706433',
      'localhost',
      'api.localhost',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.10',
      '169.254.169.254',
      '[fe80::1]',
      '[fd00::1]',
      '0.0.0.0',
      '100.64.0.1',
    ])
      await refused({ ...valid, callbackUrl: `https://${host}:8443/hook` }, [C.callbackUrlPrivate]);
    // Without the instance's permission, http:// to them is refused on both counts.
    await refused({ ...valid, callbackUrl: 'http://127.0.0.1/hook' }, [C.callbackUrlPrivate]);
    // Public addresses are fine over https.
    expect((await create({ ...valid, callbackUrl: 'https://93.184.216.34/hook' })).statusCode).toBe(201);
    expect((await create({ ...valid, callbackUrl: 'https://[2606:4700::1111]/hook' })).statusCode).toBe(201);
    await clear('root');
  });

  it('secret and custom headers', async () => {
    await refused({ ...valid, secret: 'short' }, [C.secretInvalid]);
    await refused({ ...valid, secret: 'has spaces in the middle' }, [C.secretInvalid]);
    await refused({ ...valid, secret: 42 }, [C.secretInvalid]);
    await refused({ ...valid, headers: 'X-A: 1' }, [C.headersInvalid]);
    await refused(
      { ...valid, headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])) },
      [C.headersInvalid],
    );
    await refused({ ...valid, headers: { 'X Bad': '1' } }, [C.headerNameInvalid]);
    await refused({ ...valid, headers: { 'X-Été': '1' } }, [C.headerNameInvalid]);
    await refused({ ...valid, headers: { 'X-A': '1', 'x-a': '2' } }, [C.headerNameInvalid]);
    for (const name of ['x-service-secret', 'X-Service-Event', 'Content-Type', 'Host', 'webhook-signature'])
      await refused({ ...valid, headers: { [name]: '1' } }, [C.headerNameReserved]);
    await refused({ ...valid, headers: { 'X-A': 'one\r\nX-Injected: yes' } }, [C.headerValueInvalid]);
    await refused({ ...valid, headers: { 'X-A': 1 } }, [C.headerValueInvalid]);
    await refused({ ...valid, headers: { 'X-A': 'x'.repeat(1001) } }, [C.headerValueInvalid]);
    // Several problems are reported together.
    await refused(
      { eventTypes: ['nope'], callbackUrl: 'http://x.example', headers: { Host: 'h', 'X-B': null } },
      [C.eventTypeUnknown, C.callbackUrlHttps, C.headerNameReserved, C.headerValueInvalid],
    );
  });

  it('unknown field, malformed JSON, duplicated key, no body', async () => {
    await refused({ ...valid, callbackURL: 'https://x.example' }, [C.fieldUnknown]);
    await refused({ ...valid, subscriptionId: 'mine' }, [C.fieldUnknown]);
    await refused(undefined, [C.invalidJson], '{"eventTypes": [');
    await refused(
      undefined,
      [C.invalidJson],
      '{"eventTypes":["asset.upsert"],"callbackUrl":"https://a.example","callbackUrl":"https://b.example"}',
    );
    await refused(undefined, [C.invalidJson], '[]');
    const none = await t.api(createSubscriptionEndpoint, { headers: { 'content-type': 'application/json' } });
    expect(none.statusCode).toBe(400);
    expect(codesOf(none)).toEqual([C.invalidJson]);
    expect((await t.api(listSubscriptionsEndpoint)).json().data).toEqual([]);
  });
});

describe('SSRF at delivery time', () => {
  it('a host name resolving to loopback is refused after DNS: no request reaches it', async () => {
    const sub = (
      await create({ ...valid, callbackUrl: `https://rebind.example.test:${receiver.port}/hook` })
    ).json();
    expect(sub.subscriptionId).toBeDefined();
    expect(
      (await t.api(putAsset, { params: { assetCode: 'SSRF-1' }, body: { name: 'Pump' } })).statusCode,
    ).toBe(201);
    const log = () => t.api(listDeliveries, { params: { subscriptionId: sub.subscriptionId } });
    let delivery: { attempts: number; lastError: string | null; status: string } | undefined;
    for (let i = 0; i < 200 && !(delivery && delivery.attempts >= 2); i++) {
      await new Promise((r) => setTimeout(r, 25));
      delivery = (await log()).json().data[0];
    }
    expect(delivery).toBeDefined();
    expect(delivery?.attempts).toBeGreaterThanOrEqual(2);
    expect(delivery?.status).toBe('pending');
    expect(delivery?.lastError).toContain('resolves to 127.0.0.1');
    expect(receiver.received).toHaveLength(0);
    expect(
      (await t.api(deleteSubscription, { params: { subscriptionId: sub.subscriptionId } })).statusCode,
    ).toBe(204);
  });
});

describe('OpenAPI', () => {
  it('documents the four events and the test callback in the webhooks section', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'asset.upsert',
      'status.scheduled',
      'webhooks.test',
      'workorder.deletion',
      'workorder.validation',
    ]);
    const asset = doc.webhooks['asset.upsert'].post;
    expect(asset.parameters.map((p: { name: string }) => p.name)).toContain('x-service-secret');
    const schema =
      doc.components.schemas[asset.requestBody.content['application/json'].schema.$ref.split('/').pop()];
    expect(schema.required).toEqual(
      expect.arrayContaining(['version', 'id', 'creationTime', 'eventType', 'subscriptionId', 'data']),
    );
    expect(doc.components.schemas.AssetUpsertData.required.sort()).toEqual([
      'assetCode',
      'officeCode',
      'updatedAt',
    ]);
    expect(doc.components.schemas.Actor.properties.type.enum).toEqual([
      'webUser',
      'technician',
      'process',
      'webService',
    ]);
    expect(doc.paths[createSubscriptionEndpoint.path].post['x-extension']).toBeUndefined();
    expect(doc.paths[listDeliveries.path].get['x-extension']).toBe(true);
  });
});
