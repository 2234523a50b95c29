import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint, endpoints, requiredScope } from '../../contract/index.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';
import { buildOpenApi } from './openapi.ts';

/** A node of the JSON document, read as the test expects it (a property or an item is a node). */
type Node = { readonly [key: string]: Node } & readonly Node[];
type Doc = {
  openapi: string;
  info: { title: string; description: string };
  paths: Record<string, Record<string, Node>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, Node> };
};

let t: TestApp;
let doc: Doc;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = JSON.parse(res.body);
});
afterAll(() => t.close());

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document with the BearerAuthentication scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    // A jsonSchemaDialect made /docs (Swagger UI) show a red warning: the 3.1 default is meant.
    expect(doc).not.toHaveProperty('jsonSchemaDialect');
    const bearer = doc.components.securitySchemes.BearerAuthentication;
    expect(bearer.flows.clientCredentials.tokenUrl).toBe('/oauth/token');
    expect(bearer.flows.authorizationCode.tokenUrl).toBe('/oauth/token');
    expect(doc.components.securitySchemes.bearerToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.ErrorBody).toBeDefined();
  });

  it('holds every endpoint of the table with its method, scope, range and error body', () => {
    for (const e of endpoints) {
      const op = doc.paths[e.path]?.[e.method.toLowerCase()];
      expect(op, `${e.method} ${e.path}`).toBeDefined();
      expect(op.operationId).toBe(e.id);
      expect(op['x-rate-limit-range']).toBe(e.range);
      const scope = requiredScope(e);
      expect(op.security[0].BearerAuthentication).toEqual(scope ? [scope] : []);
      expect(op['x-extension']).toBe(e.extension ? true : undefined);
      expect(op.deprecated).toBe(e.deprecated ? true : undefined);
      for (const status of ['401', '403', '429', '500']) {
        expect(op.responses[status].content['application/json'].schema.$ref).toBe(
          '#/components/schemas/ErrorBody',
        );
      }
      for (const [status, codes] of Object.entries(e.errors ?? {}))
        for (const code of codes) expect(op.responses[status]['x-error-codes']).toContain(code);
    }
  });

  it('documents ETag and If-Match on versioned records, and the 412 of their PUT', () => {
    const versioned = endpoints.filter((e) => e.versioned);
    expect(versioned.map((e) => e.id)).toEqual(
      expect.arrayContaining(['getCustomer', 'putCustomer', 'putSite', 'getAsset', 'staff.skills.put']),
    );
    for (const e of versioned) {
      const op = doc.paths[e.path][e.method.toLowerCase()];
      for (const status of Object.keys(e.responses))
        expect(op.responses[status].headers.ETag.$ref, `${e.id} ${status}`).toBe('#/components/headers/ETag');
      if (e.method === 'PUT') {
        expect(op.parameters).toContainEqual({ $ref: '#/components/parameters/If-Match' });
        expect(op.responses['412']['x-error-codes']).toEqual([`${e.errorPrefix}.precondition.failed`]);
      }
    }
    expect(doc.paths[versioned[0].path].get.responses['412']).toBeUndefined();
    const full = doc as unknown as { components: { headers: object; parameters: object } };
    expect(full.components.headers).toHaveProperty('ETag');
    expect(full.components.parameters).toHaveProperty('If-Match');
  });

  it('advertises Idempotency-Key on every POST (and no other method), with its answers', () => {
    const posts = endpoints.filter((e) => e.method === 'POST');
    expect(posts.length).toBeGreaterThan(5);
    const ref = { $ref: '#/components/parameters/Idempotency-Key' };
    for (const e of endpoints) {
      const op = doc.paths[e.path][e.method.toLowerCase()];
      if (e.method !== 'POST') {
        expect(op.parameters ?? [], e.id).not.toContainEqual(ref);
        continue;
      }
      expect(op.parameters, e.id).toContainEqual(ref);
      expect(op.responses['400']['x-error-codes']).toContain('request.idempotencykey.invalid');
      expect(op.responses['409']['x-error-codes']).toContain('request.idempotencykey.inprogress');
      expect(op.responses['422']['x-error-codes']).toEqual(['request.idempotencykey.mismatch']);
      expect(op.responses['503']['x-error-codes']).toContain('request.idempotencykey.unavailable');
      for (const status of Object.keys(e.responses))
        expect(op.responses[status].headers['Idempotent-Replayed'].$ref).toBe(
          '#/components/headers/Idempotent-Replayed',
        );
    }
    const full = doc as unknown as { components: { parameters: Record<string, object> } };
    expect(full.components.parameters['Idempotency-Key']).toMatchObject({
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      'x-extension': true,
    });
  });

  it('leaves no dangling $ref', () => {
    const text = JSON.stringify(doc);
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g))
      expect(doc.components.schemas[name], name).toBeDefined();
    expect(text).not.toContain('#/$defs/');
  });
});

describe('buildOpenApi', () => {
  const Thing = z.strictObject({ name: z.string().min(1) }).meta({ id: 'TestThing' });
  const rows = [
    endpoint({
      id: 'putThing',
      method: 'PUT',
      path: '/x/v1/things/code:{thingCode}',
      domain: 'referentials',
      range: 'standard',
      summary: 'Creates a thing. More words.',
      errorPrefix: 'x.thing',
      params: z.object({ thingCode: z.string().min(1) }),
      body: Thing,
      responses: { 201: undefined, 204: undefined },
      errors: { 400: ['x.thing.name.mandatory'] },
    }),
    endpoint({
      id: 'listThings',
      method: 'GET',
      path: '/x/v1/things',
      domain: 'referentials',
      range: 'low',
      summary: 'Lists things.',
      errorPrefix: 'x.thing',
      query: z.object({ continuationToken: z.string().optional(), size: z.string() }),
      responses: { 200: z.object({ data: z.array(Thing) }) },
      extension: true,
      deprecated: { successor: '/x/v2/things' },
    }),
  ];
  const built = buildOpenApi(rows) as unknown as Doc;

  it('keeps code:{x} paths literally, with path and query parameters', () => {
    const put = built.paths['/x/v1/things/code:{thingCode}'].put;
    expect(put.parameters).toEqual([
      { name: 'thingCode', in: 'path', required: true, schema: { type: 'string', minLength: 1 } },
    ]);
    expect(put.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/TestThing',
    });
    expect(put.responses['400']['x-error-codes']).toEqual([
      'x.thing.invalid.json',
      'x.thing.field.unknown',
      'x.thing.name.mandatory',
    ]);
    expect(put.responses['415'].description).toMatch(/charset is not utf-8/);
    // Encodings of a body (docs/security.md) are documented for every operation.
    expect(built.info.description).toMatch(/another charset is `415`/);
    expect(built.info.description).toMatch(/not well-formed UTF-8 are `400` `<domain>\.invalid\.json`/);
    expect(put.summary).toBe('Creates a thing.');
    const list = built.paths['/x/v1/things'].get;
    expect(list.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['continuationToken', 'query', false],
      ['size', 'query', true],
    ]);
    expect(list['x-extension']).toBe(true);
    expect(list.deprecated).toBe(true);
    expect(list.responses['429'].headers['Retry-After']).toBeDefined();
  });
});

describe('GET /docs', () => {
  it('serves the interactive reference and its assets without a CDN', async () => {
    for (const url of ['/docs', '/docs/']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).not.toMatch(/https?:\/\//);
    }
    const bundle = await t.app.inject({ method: 'GET', url: '/docs/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    const init = await t.app.inject({ method: 'GET', url: '/docs/swagger-initializer.js' });
    expect(init.body).toContain("url: '/openapi.json'");
    const css = await t.app.inject({ method: 'GET', url: '/docs/swagger-ui.css' });
    expect(css.statusCode).toBe(200);
  });
});
