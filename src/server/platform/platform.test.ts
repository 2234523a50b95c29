import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint } from '../../contract/endpoint.ts';
import { getCustomer, putCustomer } from '../../contract/referentials.ts';
import { buildApp, MAX_ENCODED_CODE } from '../app.ts';
import { pathOf } from '../testing/api.ts';
import { createTestApp, routeDepsOf, type TestApp } from '../testing/harness.ts';
import { DEFAULT_RATE_LIMITS } from './rateLimit.ts';
import { implement, registerRoutes } from './routes.ts';

/** A test-only endpoint: the platform rules are the same for every row of the table. */
const putThing = endpoint({
  id: 'test.putThing',
  method: 'PUT',
  path: '/test/v1/things/code:{thingCode}',
  domain: 'referentials',
  range: 'standard',
  summary: 'test',
  errorPrefix: 'test.thing',
  params: z.object({ thingCode: z.string().min(1) }),
  body: z.strictObject({
    name: z.string().min(1),
    nested: z.strictObject({ list: z.array(z.strictObject({ a: z.number() })) }).optional(),
  }),
  responses: { 204: undefined },
});

/** The same Fastify path as putThing's, told apart by the literal prefix of its value. */
const getThingByUuid = endpoint({
  id: 'test.getThingByUuid',
  method: 'GET',
  path: '/test/v1/things/uuid:{thingUuid}',
  domain: 'referentials',
  range: 'standard',
  summary: 'test',
  errorPrefix: 'test.thing',
  params: z.object({ thingUuid: z.string().min(1) }),
  responses: { 204: undefined },
});

/** A row whose handler answers outside its own response schema (a defect the harness must catch). */
const getDrifting = endpoint({
  id: 'test.getDrifting',
  method: 'GET',
  path: '/test/v1/drifting',
  domain: 'referentials',
  range: 'standard',
  summary: 'test',
  errorPrefix: 'test.drifting',
  responses: { 200: z.object({ name: z.string() }) },
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  registerRoutes(
    t.app,
    [
      implement(putThing, async () => ({ status: 204 })),
      implement(getThingByUuid, async () => ({ status: 204 })),
      // Typed handlers cannot drift; a cast can, and the response check is the net.
      implement(getDrifting, async () => ({ status: 200, body: { name: 42 as unknown as string } })),
    ],
    routeDepsOf(t.app),
  );
});

describe('response schemas (test harness)', () => {
  it('a success body outside its row response schema fails the request instead of passing silently', async () => {
    const res = await t.call('GET', '/test/v1/drifting');
    expect(res.statusCode).toBe(500);
    expect(res.json().errors[0].code).toBe('internal.server.error');
  });
});
afterAll(() => t.close());

const URL = '/test/v1/things/code:abc';

function expectErrorBody(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(body).toEqual({
    errors: expect.arrayContaining([{ code, message: expect.any(String) }]),
    errorReference: expect.any(String),
  });
  expect(Object.keys(body).sort()).toEqual(['errorReference', 'errors']);
  return body as { errors: { code: string }[]; errorReference: string };
}

describe('authentication (common codes)', () => {
  it('401 unauthorized.nocredentials without a header or with Basic', async () => {
    expectErrorBody(
      await t.app.inject({ method: 'PUT', url: URL, payload: { name: 'x' } }),
      401,
      'unauthorized.nocredentials',
    );
    const basic = `Basic ${Buffer.from(`root:${t.secrets.root}`).toString('base64')}`;
    expectErrorBody(
      await t.app.inject({
        method: 'PUT',
        url: URL,
        headers: { authorization: basic },
        payload: { name: 'x' },
      }),
      401,
      'unauthorized.nocredentials',
    );
  });

  it('401 unauthorized.badcredentials for a garbage token or one signed by another key', async () => {
    for (const token of ['garbage', 'a.b.c', `${'x'.repeat(5000)}`]) {
      expectErrorBody(
        await t.call('PUT', URL, { body: { name: 'x' }, headers: { authorization: `Bearer ${token}` } }),
        401,
        'unauthorized.badcredentials',
      );
    }
    const real = JSON.parse(Buffer.from((await t.token('root')).split('.')[1], 'base64url').toString());
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT(real).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
    expectErrorBody(
      await t.call('PUT', URL, { body: { name: 'x' }, headers: { authorization: `Bearer ${forged}` } }),
      401,
      'unauthorized.badcredentials',
    );
  });

  it('401 unauthorized.badcredentials for an expired token', async () => {
    const short = await createTestApp({ accessTokenTtl: 2 });
    try {
      registerRoutes(short.app, [implement(putThing, async () => ({ status: 204 }))], routeDepsOf(short.app));
      expect((await short.call('PUT', URL, { body: { name: 'x' } })).statusCode).toBe(204);
      await new Promise((r) => setTimeout(r, 3100)); // exp is whole seconds: iat + 2 < now
      expectErrorBody(
        await short.call('PUT', URL, { body: { name: 'x' } }),
        401,
        'unauthorized.badcredentials',
      );
    } finally {
      await short.close();
    }
  });

  it('403 access.forbiden for a read-only application writing', async () => {
    expectErrorBody(
      await t.call('PUT', URL, { as: 'readonly', body: { name: 'x' } }),
      403,
      'access.forbiden',
    );
    expect((await t.call('PUT', URL, { body: { name: 'x' } })).statusCode).toBe(204);
  });
});

describe('the error body on every refusal', () => {
  it('404 for an unknown route; 405 with Allow for a method the path does not take; 501 for a method of no path', async () => {
    expectErrorBody(await t.call('GET', '/no/such/route'), 404, 'route.not.found');
    expectErrorBody(await t.call('DELETE', '/no/such/route'), 404, 'route.not.found');
    const wrong = await t.call('DELETE', URL);
    expectErrorBody(wrong, 405, 'route.method.notallowed');
    expect(wrong.headers.allow).toBe('PUT');
    // The literal prefix of a value is part of the path: uuid: takes what its own rows take.
    expect((await t.call('GET', '/test/v1/things/uuid:abc')).statusCode).toBe(204);
    const byUuid = await t.call('PUT', '/test/v1/things/uuid:abc', { body: { name: 'x' } });
    expectErrorBody(byUuid, 405, 'route.method.notallowed');
    expect(byUuid.headers.allow).toBe('GET, HEAD');
    expectErrorBody(await t.call('GET', '/test/v1/things/name:abc'), 404, 'route.not.found');
    expectErrorBody(await t.call('PROPFIND', URL), 501, 'request.method.notimplemented');
    expectErrorBody(await t.call('TRACE', '/no/such/route'), 501, 'request.method.notimplemented');
  });

  it('415 for a body that is not JSON', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      expectErrorBody(
        await t.call('PUT', URL, { raw: 'name=x', headers: { 'content-type': type } }),
        415,
        'request.mediatype.unsupported',
      );
    }
  });

  it('413 for a body over 1 MiB', async () => {
    const raw = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    expectErrorBody(await t.call('PUT', URL, { raw }), 413, 'request.payload.toolarge');
  });

  it('400 for a malformed URL (bad percent-encoding)', async () => {
    expectErrorBody(
      await t.call('PUT', '/test/v1/things/code:%E0%A4%A', { body: { name: 'x' } }),
      400,
      'request.url.invalid',
    );
  });

  it('414 for a path segment longer than the longest percent-encoded code', async () => {
    expectErrorBody(
      await t.call('PUT', `/test/v1/things/code:${'X'.repeat(MAX_ENCODED_CODE + 100)}`, {
        body: { name: 'x' },
      }),
      414,
      'request.uri.toolong',
    );
  });

  it('<prefix>.invalid.json for malformed JSON and duplicated keys at any depth', async () => {
    const bad = [
      '{"name":"x",}',
      '{"name":"x"',
      "{'name':'x'}",
      'nul',
      '',
      '   \n\t ',
      '{"name":"x","name":"y"}',
      '{"name":"x","nested":{"list":[{"a":1,"a":2}]}}',
      '{"na\\u006de":"x","name":"y"}',
      '{"name":"\\\\","name":"y"}',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      `{"name":"x","nested":${'{"list":'.repeat(3000)}1${'}'.repeat(3000)}}`,
    ];
    for (const raw of bad) expectErrorBody(await t.call('PUT', URL, { raw }), 400, 'test.thing.invalid.json');
  });

  it('accepts JSON whose strings hold escaped quotes and backslashes', async () => {
    for (const name of ['a"b', 'a\\', '\\"', '"{"name":"y"}', '\u2028😀']) {
      const res = await t.call('PUT', URL, {
        raw: JSON.stringify({ name, nested: { list: [{ a: 1 }, { a: 2 }] } }),
      });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(204);
    }
  });

  it('field.unknown and field constraints map to the prefix codes, with RateLimit headers', async () => {
    const res = await t.call('PUT', URL, { body: { name: 'x', colour: 'red' } });
    expectErrorBody(res, 400, 'test.thing.field.unknown');
    expect(res.headers['ratelimit-policy']).toMatch(/^"standard-minute";q=\d+;w=60/);
    expectErrorBody(await t.call('PUT', URL, { body: { name: 1 } }), 400, 'test.thing.name.invalid');
    expectErrorBody(await t.call('PUT', URL, { body: {} }), 400, 'test.thing.name.mandatory');
    // PostgreSQL text cannot hold NUL: refused up front, never a database error.
    expectErrorBody(await t.call('PUT', URL, { body: { name: 'a\u0000b' } }), 400, 'test.thing.name.invalid');
    expectErrorBody(
      await t.call('PUT', '/test/v1/things/code:a%00b', { body: { name: 'x' } }),
      400,
      'test.thing.code.invalid',
    );
    expectErrorBody(
      await t.call('PUT', '/test/v1/things/code:', { body: { name: 'x' } }),
      400,
      'test.thing.code.mandatory',
    );
  });
});

describe('errorReference', () => {
  let app: FastifyInstance;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await buildApp(
      {
        host: '127.0.0.1',
        port: 0,
        publicUrl: 'http://localhost',
        dataDir: 'memory://',
        rateLimits: DEFAULT_RATE_LIMITS,
        accessTokenTtl: 3600,
        logLevel: 'info',
      },
      { logger: { level: 'info', stream } },
    );
  });
  afterAll(() => app?.close());

  it('is unique per request and found in that request’s log line', async () => {
    const refs = new Set<string>();
    for (const [method, url] of [
      ['GET', '/nowhere'],
      ['GET', '/nowhere'],
      ['PUT', pathOf(putCustomer, { customerCode: 'X' })],
      ['GET', pathOf(getCustomer, { customerCode: 'X' })],
    ] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      const { errorReference } = res.json();
      expect(refs.has(errorReference)).toBe(false);
      refs.add(errorReference);
      const logged = lines.filter((l) => l.errorReference === errorReference);
      expect(logged.length, errorReference).toBe(1);
      expect(logged[0].reqId).toBe(errorReference);
    }
  });
});
