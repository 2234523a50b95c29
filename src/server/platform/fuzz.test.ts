import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Endpoint, endpoints } from '../../contract/index.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';

/**
 * Hostile input against every row of the endpoint table: whatever arrives, the answer is
 * never a 500, every 4xx carries the error body, and a refused write changes no table.
 */
let t: TestApp;
let tables: string[] = [];
const unlimited = { perMinute: 1e9, perHour: 1e9 };
beforeAll(async () => {
  t = await createTestApp({ rateLimits: { high: unlimited, standard: unlimited, low: unlimited } });
  await t.token('root');
  const rows = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.db);
  // caller_listeners: each service process's heartbeat (every 5 s on PostgreSQL), not data.
  tables = rows.rows.map((r) => r.table_name).filter((name) => name !== 'caller_listeners');
});
afterAll(() => t.close());

/** A checksum of every row of every table, in one query: any change shows, not just a count. */
async function counts(): Promise<string> {
  const union = tables
    .map(
      (name) =>
        `select '${name}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${name}" x`,
    )
    .join(' union all ');
  const { rows } = await sql.raw<{ t: string; h: string }>(union).execute(t.db);
  return rows
    .map((r) => `${r.t}=${r.h}`)
    .sort()
    .join(',');
}

/** Requests sent by this file (printed at the end). */
let cases = 0;
/** Of which accepted (2xx): the bodies that got through to the rules and the database. */
let accepted = 0;
afterAll(() =>
  console.log(
    `fuzz: ${cases} hostile requests over ${endpoints.length} endpoints, ${accepted} accepted (2xx)`,
  ),
);

const HOSTILE_SEGMENTS = [
  '%2F',
  '..',
  '%2e%2e',
  '%2E%2E%2Fetc',
  '%00',
  '%E2%80%AE',
  '%F0%9F%98%80',
  '%25',
  '%20',
  '.',
  '%C0%AF',
  '%FF%FE',
  '%ED%A0%80',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%5C..%5C',
  'code:',
  'uuid:',
  'code:%00',
  '__proto__',
  'constructor',
  '%3Cscript%3E',
  ';',
  '*',
];
const segment = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._-]{1,20}$/),
  fc.constant('X'.repeat(10_000)),
  fc.string().map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom(...HOSTILE_SEGMENTS),
  fc.string({ maxLength: 3000, minLength: 1000 }).map(encodeURIComponent),
);
const tokenGarbage = fc.oneof(
  fc.string(),
  fc.base64String(),
  fc.constantFrom('a.b', 'a.b.c', '.', 'e30.AAAA', 'eyJlIjoieCIsInAiOjF9.AAAAAAAAAAAAAAAAAAAAAA', '%'),
  fc.jsonValue().map((v) => `${Buffer.from(JSON.stringify(v) ?? '').toString('base64url')}.x`),
);

type JsonSchema = {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: string;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
};

function jsonSchemaOf(schema: z.ZodType): { root: JsonSchema; defs: Record<string, JsonSchema> } {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const defs = json.$defs ?? {};
  return { root: json.$ref ? defs[json.$ref.split('/').pop() ?? ''] : json, defs };
}

function propertiesOf(schema: z.ZodType | undefined): string[] {
  return schema ? Object.keys(jsonSchemaOf(schema).root.properties ?? {}) : [];
}

/** Known values for some fields, so that more writes get through to the database. */
function field(key: string, arbitrary: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  if (key === 'customFields') return fc.oneof(fc.constant({}), arbitrary);
  if (/officeCode$/.test(key))
    return fc.oneof(fc.constantFrom('ROOT', 'north', 'NORTH-A', 'SOUTH'), arbitrary);
  return arbitrary;
}

/**
 * Values that satisfy (or just miss) a JSON Schema: they get past validation, so the
 * business rules and the database see them too. Strings sometimes take their full
 * maximum length, where index and column limits live.
 */
function near(s: JsonSchema, defs: Record<string, JsonSchema>, depth = 0): fc.Arbitrary<unknown> {
  if (s.$ref) return near(defs[s.$ref.split('/').pop() ?? ''] ?? {}, defs, depth);
  if (s.anyOf) return fc.oneof(...s.anyOf.map((x) => near(x, defs, depth)));
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  if (depth > 6) return fc.constant(null);
  switch (s.type) {
    case 'string': {
      const max = s.maxLength ?? 50;
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern));
      if (s.format === 'date') return fc.constantFrom('2026-03-01', '2026-02-30', '1900-01-01');
      if (s.format === 'date-time')
        return fc.constantFrom('2026-03-01T08:00', '2026-03-01T08:00:00Z', '2026-13-01T08:00');
      return fc.oneof(
        fc.string({ unit: 'grapheme', minLength: s.minLength ?? 0, maxLength: Math.min(max, 30) }),
        fc.constant('X'.repeat(Math.max(s.minLength ?? 0, max))),
      );
    }
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6 });
    case 'number':
      return fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(0, -90, 180, 1e-20),
      );
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(near(s.items ?? {}, defs, depth + 1), { maxLength: Math.min(s.maxItems ?? 3, 3) });
    case 'object': {
      if (s.properties) {
        const record = Object.fromEntries(
          Object.entries(s.properties).map(([k, v]) => [k, field(k, near(v, defs, depth + 1))]),
        );
        return fc.record(record, { requiredKeys: s.required ?? [] });
      }
      if (typeof s.additionalProperties === 'object')
        return fc.dictionary(
          fc.oneof(fc.constantFrom('A', 'COLOR', 'x'), fc.string({ maxLength: 8 })),
          near(s.additionalProperties, defs, depth + 1),
          { maxKeys: 2 },
        );
      return fc.constant({});
    }
    default:
      return fc.jsonValue();
  }
}

const deep = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const hostileValue = fc.oneof(
  fc.jsonValue(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom(
    '',
    ' ',
    'X',
    'a\u0000b',
    null,
    true,
    0,
    -1,
    1.5,
    Number.MAX_SAFE_INTEGER + 2,
    [],
    {},
    '0000-99-99',
    'x'.repeat(20_000),
  ),
  fc.object({ key: fc.constantFrom('__proto__', 'constructor', 'prototype', 'textValue', 'a') }),
);

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
/**
 * `value` with a `__proto__` / `constructor` / `prototype` own key added to one of its
 * objects, at any depth (`path` picks it), holding an object that would pollute a
 * prototype if merged carelessly.
 */
function withProtoKey(value: unknown, path: number[], key: string): unknown {
  const poison = JSON.parse('{"polluted":1,"prototype":{"polluted":1}}');
  const objects: Record<string, unknown>[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      objects.push(v as Record<string, unknown>);
      Object.values(v).forEach(walk);
    }
  };
  walk(value);
  if (!objects.length) return JSON.parse(`{"${key}":${JSON.stringify(poison)}}`);
  const target = objects[path[0] % objects.length];
  Object.defineProperty(target, key, { value: poison, enumerable: true, configurable: true, writable: true });
  return value;
}

/** Bytes that are not UTF-8: a lone continuation, an overlong `/`, a surrogate, a truncated sequence... */
const BAD_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0x80],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf0, 0x9f, 0x98],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xc3],
];
/** Text with invalid UTF-8 bytes put at `at` (a fraction of its length), inside a string or not. */
function withBadBytes(text: string, at: number, bytes: number[]): Buffer {
  const buf = Buffer.from(text, 'utf8');
  const quote = buf.indexOf(0x22, Math.floor(at * buf.length));
  const i = quote >= 0 ? quote + 1 : Math.floor(at * buf.length);
  return Buffer.concat([buf.subarray(0, i), Buffer.from(bytes), buf.subarray(i)]);
}

/** A body as raw text (or bytes): JSON or not, with the endpoint's own field names mixed in. */
function bodies(e: Endpoint): fc.Arbitrary<string | Buffer> {
  const fields = propertiesOf(e.body);
  const key = fields.length ? fc.oneof(fc.constantFrom(...fields), fc.string()) : fc.string();
  const object = fc.dictionary(key, hostileValue, { maxKeys: 8 });
  const { root, defs } = jsonSchemaOf(e.body ?? z.object({}));
  const valid = near(root, defs);
  return fc.oneof(
    { arbitrary: valid.map((v) => JSON.stringify(v)), weight: 3 },
    fc
      .tuple(valid, fc.array(fc.nat(), { minLength: 1, maxLength: 1 }), fc.constantFrom(...PROTO_KEYS))
      .map(([v, path, key]) => JSON.stringify(withProtoKey(v, path, key))),
    fc
      .tuple(valid, fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(...BAD_UTF8))
      .map(([v, at, bytes]) => withBadBytes(JSON.stringify(v), at, bytes)),
    fc.string({ unit: 'binary', maxLength: 200 }).map((x) => Buffer.from(x, 'latin1')),
    valid.map((v) => JSON.stringify(v).replace(/\}$/, ',"extra":1}')),
    object.map((o) => JSON.stringify(o)),
    fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
    fc.string(),
    object.map((o) => {
      // duplicate a key at the top or one level down
      const text = JSON.stringify(o);
      const k = fields[0] ?? 'name';
      return text === '{}' ? `{"${k}":1,"${k}":2}` : `{"${k}":{"x":1,"x":2},${text.slice(1)}`;
    }),
    fc.constantFrom(
      '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}',
      `{"a":{"b":{"c":[{"__proto__":{"polluted":1}}]}},"${fields[0] ?? 'name'}":{"constructor":{"prototype":{"polluted":1}}}}`,
      `{"${fields[0] ?? 'name'}":"\\ud800"}`,
      `{"${fields[0] ?? 'name'}":"a\\u0000b"}`,
      `{"${fields[0] ?? 'name'}":"${'é'.repeat(300_000)}"}`,
      `{"${fields[0] ?? 'name'}":[${'0,'.repeat(200_000)}0]}`,
      `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
      `{"${fields[0] ?? 'name'}":1e309}`,
      `{"${fields[0] ?? 'name'}":-1e309,"x":1e-400}`,
      deep(40),
      deep(5000),
      '['.repeat(100_000),
      '"\\\\"',
      '{"a\\\\":1,"a\\\\":2}',
      '   ',
      '\uFEFF{}',
      `{"customFields":{"A":{"textValue":"x"},"a":{"textValue":"y"}}}`,
      JSON.stringify({ name: 'x'.repeat(1_100_000) }),
    ),
  );
}

function queries(e: Endpoint) {
  const key = fc.oneof(
    fc.constantFrom('continuationToken', ...propertiesOf(e.query)),
    fc.string({ maxLength: 10 }),
  );
  const pairs = fc
    .array(fc.tuple(key, fc.oneof(tokenGarbage, fc.string({ unit: 'grapheme' }))), { maxLength: 4 })
    .map((pairs) => (pairs.length ? `?${new URLSearchParams(pairs)}` : ''));
  return fc.oneof(
    { arbitrary: pairs, weight: 4 },
    fc.constantFrom(
      '?__proto__[polluted]=1&constructor[prototype][polluted]=1',
      '?continuationToken=a&continuationToken=b',
      '?q[]=1&q[]=2&status[x]=y',
      `?q=${'x'.repeat(100_000)}`,
      '?q=%FF%FE&status=%C0%AF',
      '?q=%E0%80',
      '?%00=%00',
      '?&&&==&',
      `?${'a=1&'.repeat(5000)}`,
    ),
  );
}

function expectErrorBody(res: LightMyRequestResponse) {
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['errorReference', 'errors']);
  expect(typeof body.errorReference).toBe('string');
  expect(body.errors.length).toBeGreaterThan(0);
  for (const err of body.errors) {
    expect(typeof err.code).toBe('string');
    expect(typeof err.message).toBe('string');
  }
}

/**
 * Statuses an endpoint documents: its successes, its errors, and those of every endpoint
 * (credentials, rights, rate limit; the router's 404, 414 and a malformed URL's 400; the
 * body's 413 and 415).
 */
function documented(e: Endpoint): Set<number> {
  return new Set([
    ...Object.keys(e.responses).map(Number),
    ...Object.keys(e.errors ?? {}).map(Number),
    400,
    401,
    403,
    404,
    // A value that URL normalization removes (`.`) lands on another path, whose methods may differ.
    405,
    413,
    414,
    415,
    429,
  ]);
}

/** Content types: JSON ones (the body is read) and others (415 before anything else). */
const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/problem+json'];
const OTHER_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=iso-8859-1',
  'application/jsonx',
  'text/json',
  '*/*',
];

// About 1500 requests in all, whatever the size of the table (the suite stays under a minute).
const RUNS = Math.min(30, Math.max(10, Math.floor(1500 / Math.max(1, endpoints.length))));

describe('every endpoint of the table under hostile input', () => {
  it('has endpoints to fuzz', () => expect(endpoints.length).toBeGreaterThan(0));

  it.each(endpoints.map((e) => [`${e.method} ${e.path}`, e] as const))('%s', async (_name, e) => {
    const write = e.method !== 'GET';
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 3, maxLength: 3 }),
        queries(e),
        e.body ? bodies(e) : fc.constant(undefined),
        fc.oneof(
          { arbitrary: fc.constantFrom(...JSON_TYPES), weight: 6 },
          fc.constantFrom(...OTHER_TYPES, undefined),
        ),
        async (values, query, raw, type) => {
          let i = 0;
          const url = e.path.replace(/\{\w+\}/g, () => values[i++]) + query;
          const before = write ? await counts() : '';
          const res = await t.app.inject({
            method: e.method,
            url,
            headers: {
              authorization: `Bearer ${await t.token('root')}`,
              ...(raw !== undefined && type ? { 'content-type': type } : {}),
            },
            ...(raw === undefined ? {} : { payload: raw }),
          });
          cases++;
          if (res.statusCode < 300) accepted++;
          const what = `${e.method} ${url.slice(0, 300)} ${type} ${raw?.slice(0, 200).toString()}\n${res.body.slice(0, 300)}`;
          expect(res.statusCode, what).toBeLessThan(500);
          expect(documented(e), `${res.statusCode} undocumented: ${what}`).toContain(res.statusCode);
          // Not JSON (or not UTF-8 JSON): never read, never written.
          if (
            raw !== undefined &&
            (!JSON_TYPES.includes(type ?? '') || (typeof raw !== 'string' && !isUtf8(raw)))
          )
            expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
          if (res.statusCode >= 400) {
            expectErrorBody(res);
            if (write) expect(await counts()).toBe(before);
          }
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
      { numRuns: write ? RUNS + 10 : RUNS },
    );
  });

  const paths = [...new Set(endpoints.map((e) => e.path))];
  const urlOf = (path: string) => path.replace(/\{\w+\}/g, 'FUZZ-1');

  it('a 10 MB body, to every endpoint: 413 with the error body, nothing written', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024, 'x');
    big.write('{"name":"', 0);
    const before = await counts();
    for (const e of endpoints) {
      for (const type of ['application/json', 'text/plain']) {
        const res = await t.app.inject({
          method: e.method,
          url: urlOf(e.path),
          headers: { authorization: `Bearer ${await t.token('root')}`, 'content-type': type },
          payload: big,
        });
        cases++;
        const what = `${e.method} ${e.path} ${type}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        // A body is read only where a route takes one; else the route answers without it.
        expect(res.statusCode, what).toBeLessThan(500);
        if (e.body) expect([413, 415], what).toContain(res.statusCode);
        if (res.statusCode >= 400) expectErrorBody(res);
      }
    }
    expect(await counts()).toBe(before);
  });

  it('methods a path does not take: 405 with Allow (a method of the service) or 501 (any other), with the error body', async () => {
    const before = await counts();
    for (const path of paths) {
      const declared = new Set<string>(endpoints.filter((e) => e.path === path).map((e) => e.method));
      if (declared.has('GET')) declared.add('HEAD');
      for (const method of [
        'GET',
        'PUT',
        'POST',
        'DELETE',
        'PATCH',
        'OPTIONS',
        'HEAD',
        'TRACE',
        'PROPFIND',
        'SEARCH',
        'CONNECT',
      ]) {
        if (declared.has(method)) continue;
        const res = await t.app.inject({
          method: method as 'GET',
          url: urlOf(path),
          headers: { authorization: `Bearer ${await t.token('root')}`, 'content-type': 'application/json' },
          payload: method === 'GET' || method === 'HEAD' ? undefined : '{}',
        });
        cases++;
        const what = `${method} ${path}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        if (['TRACE', 'PROPFIND', 'SEARCH', 'CONNECT'].includes(method)) {
          expect(res.statusCode, what).toBe(501);
          expect(res.json().errors[0].code, what).toBe('request.method.notimplemented');
        } else {
          expect(res.statusCode, what).toBe(405);
          const allow = String(res.headers.allow).split(', ');
          for (const m of declared) expect(allow, what).toContain(m);
          expect(allow, what).not.toContain(method);
          if (method !== 'HEAD') expect(res.json().errors[0].code, what).toBe('route.method.notallowed');
        }
        if (method !== 'HEAD') expectErrorBody(res);
      }
    }
    expect(await counts()).toBe(before);
  });
});
