/**
 * The OpenAPI document as a contract others generate from (issue 25 §4): parameters typed as
 * the spec types them, enums their own patterns accept, a `servers` list, an example request
 * and answer for every operation that matches both the service's schemas (zod) and the
 * document's (ajv, formats included); Redocly's recommended rules pass; openapi-typescript
 * generates types from it and a small client calling every operation with its example
 * type-checks.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { operationExamples } from '../../contract/examples.ts';
import { endpoints } from '../../contract/index.ts';
import { createTestApp, type TestApp } from '../testing/harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: the JSON document, read loosely
type Json = Record<string, any>;
const root = fileURLToPath(new URL('../../..', import.meta.url));
const PUBLIC_URL = 'https://fieldwork.example.com';

let t: TestApp;
let doc: Json;
let dir: string;
let file: string;
beforeAll(async () => {
  t = await createTestApp({ publicUrl: PUBLIC_URL });
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  dir = mkdtempSync(join(tmpdir(), 'fieldwork-openapi-'));
  file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const operationOf = (id: string) => {
  const e = endpoints.find((x) => x.id === id);
  if (!e) throw new Error(`no endpoint ${id}`);
  return { endpoint: e, op: doc.paths[e.path][e.method.toLowerCase()] as Json };
};
const parameter = (id: string, name: string) =>
  (operationOf(id).op.parameters as Json[]).find((p) => p.name === name) as Json;

/** Every schema object of the document, with where it is. */
function* schemas(value: unknown, where = '#'): Generator<[string, Json]> {
  if (!value || typeof value !== 'object') return;
  const o = value as Json;
  if (typeof o.type === 'string' || o.enum || o.pattern) yield [where, o];
  for (const [k, v] of Object.entries(o))
    if (k !== 'examples' && k !== 'example') yield* schemas(v, `${where}/${k}`);
}

describe('parameters, enums and servers', () => {
  it('integers and booleans of the query are typed so, with their bounds, and still read from a query string', async () => {
    expect(parameter('fieldService.workOrders.usedItems.code', 'pageSize').schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 200,
    });
    expect(parameter('rostering.crews.list', 'crewsSize').schema).toMatchObject({
      type: 'integer',
      maximum: 500,
    });
    expect(parameter('rostering.technicians.list', 'active').schema).toEqual({ type: 'boolean' });
    expect(parameter('businessOrganization.items.list', 'active').schema).toMatchObject({ type: 'boolean' });
    // No query parameter of the document is a number or a boolean disguised as a string.
    for (const e of endpoints)
      for (const p of operationOf(e.id).op.parameters ?? [])
        if (p.in === 'query')
          expect(p.schema.pattern ?? '', `${e.id} ${p.name}`).not.toMatch(/^\^\\d\+\$$|true\|false/);
    const page = await t.call(
      'GET',
      '/eTech/rest/ws/rostering/v1/crews?crewsStartDate=2026-01-05&crewsEndDate=2026-01-11&crewsSize=20',
    );
    expect(page.statusCode, page.body).toBe(200);
    for (const bad of ['0', '501', '1.5', '2e1', 'ten']) {
      const res = await t.call(
        'GET',
        `/eTech/rest/ws/rostering/v1/crews?crewsStartDate=2026-01-05&crewsEndDate=2026-01-11&crewsSize=${bad}`,
      );
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().errors[0].code).toBe('rostering.crews.crewssize.invalid');
    }
    const yes = await t.call('GET', '/eTech/rest/ws/rostering/v1/technicians?active=true');
    expect(yes.statusCode).toBe(200);
    const no = await t.call('GET', '/eTech/rest/ws/rostering/v1/technicians?active=yes');
    expect(no.json().errors[0].code).toBe('rostering.technicians.active.invalid');
  });

  it('every enum is accepted by the pattern beside it (ProjectDependency.jobType takes workOrder)', async () => {
    for (const [where, s] of schemas(doc))
      if (s.enum && s.pattern)
        for (const value of s.enum)
          expect(new RegExp(s.pattern).test(String(value)), `${where}: ${value}`).toBe(true);
    const jobType = doc.components.schemas.ProjectDependency.properties.blocking.properties.jobType;
    expect(jobType.enum).toEqual(['task', 'workOrder']);
    expect(jobType.pattern).toBeUndefined();
  });

  it('names the instance: servers holds its public URL', () => {
    expect(doc.servers).toEqual([{ url: PUBLIC_URL, description: 'This instance' }]);
  });
});

describe('examples', () => {
  it('every operation has one, and every example names an operation', () => {
    expect(Object.keys(operationExamples).sort()).toEqual(endpoints.map((e) => e.id).sort());
    for (const e of endpoints) {
      const { op } = operationOf(e.id);
      const example = operationExamples[e.id];
      const success = op.responses[String(example.response.status)];
      expect(success, e.id).toBeDefined();
      if (example.response.body !== undefined)
        expect(success.content['application/json'].examples.demo.value).toEqual(example.response.body);
      if (e.body)
        expect(op.requestBody.content['application/json'].examples.demo.value).toEqual(example.request.body);
      for (const p of op.parameters ?? [])
        if (p.in === 'path') expect(p.example, `${e.id} ${p.name}`).toBe(example.request.params?.[p.name]);
    }
  });

  it("match the service's schemas: params, query and body are taken, the answer is its status's body", () => {
    const check = (schema: z.ZodType | undefined, value: unknown, what: string) => {
      if (!schema) return expect(value, what).toBeUndefined();
      const result = schema.safeParse(value);
      expect(result.success, `${what}: ${result.error?.message}`).toBe(true);
    };
    for (const e of endpoints) {
      const { request, response } = operationExamples[e.id];
      check(e.params, e.params ? request.params : undefined, `${e.id} params`);
      check(e.query, e.query ? (request.query ?? {}) : request.query, `${e.id} query`);
      check(e.body, request.body, `${e.id} body`);
      expect(Object.keys(e.responses).map(Number), e.id).toContain(response.status);
      check(e.responses[response.status], response.body, `${e.id} answer`);
    }
  });

  it("match the document's own schemas (ajv, JSON Schema 2020-12 with formats)", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = (schema: Json, value: unknown, what: string) => {
      const ok = ajv.validate({ ...schema, components: doc.components }, value);
      expect(ok, `${what}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
    };
    let checked = 0;
    for (const e of endpoints) {
      const { op } = operationOf(e.id);
      for (const p of op.parameters ?? []) {
        if (p.example === undefined) continue;
        validate(p.schema, p.example, `${e.id} ${p.in} ${p.name}`);
        checked++;
      }
      const body = op.requestBody?.content['application/json'];
      if (body) validate(body.schema, body.examples.demo.value, `${e.id} request body`);
      for (const [status, answer] of Object.entries(op.responses as Json)) {
        const content = answer.content?.['application/json'];
        if (!content?.examples) continue;
        validate(content.schema, content.examples.demo.value, `${e.id} ${status}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(endpoints.length);
  });
});

describe('tools that read the document', () => {
  it('Redocly (recommended rules) finds no error', () => {
    const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
    const run = spawnSync(process.execPath, [cli, 'lint', '--extends=recommended', '--format=json', file], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
      problems: { severity: string; ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const errors = report.problems.filter((p) => p.severity === 'error');
    expect(
      errors.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`),
      run.stderr,
    ).toEqual([]);
    expect(run.status).toBe(0);
  });

  it('openapi-typescript generates types, and a client calling every operation with its example type-checks', () => {
    const generator = join(root, 'tools/openapi-typescript/node_modules/openapi-typescript/bin/cli.js');
    const generated = spawnSync(process.execPath, [generator, file, '-o', join(dir, 'api.ts')], {
      encoding: 'utf8',
    });
    expect(generated.status, generated.stderr).toBe(0);
    writeFileSync(join(dir, 'client.ts'), clientSource());
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          allowImportingTsExtensions: true,
        },
        files: ['client.ts'],
      }),
    );
    const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
    const checked = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], {
      encoding: 'utf8',
    });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });
});

/**
 * A typed client over the generated `paths` (what a generated client does), and one call
 * of every operation with its example: path and query parameters, body, and the example
 * answer assigned to the call's result type.
 */
function clientSource() {
  const calls = endpoints.map((e, i) => {
    const { request, response } = operationExamples[e.id];
    const parameters = {
      ...(request.params ? { path: request.params } : {}),
      ...(request.query ? { query: request.query } : {}),
    };
    const input = { parameters, ...(request.body === undefined ? {} : { body: request.body }) };
    return [
      `export async function call${i}() {`,
      `  // ${e.id}`,
      `  const answer = await call(${JSON.stringify(e.path)}, ${JSON.stringify(e.method.toLowerCase())}, ${JSON.stringify(input)});`,
      `  const example: typeof answer = ${response.body === undefined ? 'undefined' : JSON.stringify(response.body)};`,
      '  return [answer, example];',
      '}',
    ].join('\n');
  });
  return `import type { paths } from './api.ts';

type Method = 'get' | 'put' | 'post' | 'delete';
type Operation<P extends keyof paths, M extends Method> = Extract<paths[P][M], { responses: unknown }>;
type Json<C> = C extends { content: { 'application/json': infer A } } ? A : undefined;
type Input<O> = (O extends { parameters: infer X } ? { parameters: X } : object) &
  (O extends { requestBody: { content: { 'application/json': infer B } } } ? { body: B } : object);
type Success<O> = O extends { responses: infer R }
  ? { [S in keyof R & (200 | 201 | 202 | 204)]: Json<R[S]> }[keyof R & (200 | 201 | 202 | 204)]
  : never;

const base = 'http://127.0.0.1:8080';
const token = 'a bearer token';

async function call<P extends keyof paths, M extends Method>(
  path: P,
  method: M,
  input: Input<Operation<P, M>>,
): Promise<Success<Operation<P, M>>> {
  const { parameters, body } = input as {
    parameters?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
    body?: unknown;
  };
  const url = String(path).replace(/\\{(\\w+)\\}/g, (_m, name: string) =>
    encodeURIComponent(String(parameters?.path?.[name])),
  );
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(parameters?.query ?? {})) if (v !== undefined) query.set(k, String(v));
  const res = await fetch(\`\${base}\${url}\${query.size ? \`?\${query}\` : ''}\`, {
    method: method.toUpperCase(),
    headers: { authorization: \`Bearer \${token}\`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (res.status === 204 ? undefined : await res.json()) as Success<Operation<P, M>>;
}

${calls.join('\n\n')}
`;
}
