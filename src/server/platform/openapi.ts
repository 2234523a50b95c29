import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ALL_SCOPES } from '../../contract/domains.ts';
import { type Endpoint, requiredScope } from '../../contract/endpoint.ts';
import { CommonCodes, derivedCode, ErrorBody, OperationsCodes } from '../../contract/errors.ts';
import { type OperationExample, operationExamples } from '../../contract/examples.ts';
import type { WebhookEventDoc } from '../../contract/webhooks.ts';

type Json = Record<string, unknown>;

/** Codes every endpoint may answer with (spec: Endpoints, Common codes). */
const COMMON_ERRORS: Record<number, string[]> = {
  401: [CommonCodes.noCredentials, CommonCodes.badCredentials],
  403: [CommonCodes.forbidden],
  429: [CommonCodes.tooManyRequests],
  500: [CommonCodes.internal],
  503: [OperationsCodes.databaseUnavailable],
};

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'Updated, no body',
  400: 'Invalid request',
  401: 'No credentials, or bad or expired credentials',
  403: 'Not enough rights',
  404: 'Not found',
  409: 'Conflict',
  412: 'If-Match is not the current ETag of the record (or the record is unknown); nothing written',
  413: 'Body larger than 1 MiB',
  415: 'Content-Type is not application/json, or its charset is not utf-8',
  422: 'The Idempotency-Key was used for another request',
  429: 'Rate limit reached',
  500: 'Internal error',
  503: 'The database is unavailable or did not answer in time; nothing was applied, retry after Retry-After seconds',
};

const RATE_HEADERS = {
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
};

type BuildInfo = {
  version?: string;
  webhooks?: readonly WebhookEventDoc[];
  /** One example request and answer per endpoint id (contract/examples.ts). */
  examples?: Readonly<Record<string, OperationExample>>;
  /** The instance's public URL: the document's `servers`. */
  publicUrl?: string;
};

/**
 * JSON Schemas of the contract's zod schemas, their named parts (`.meta({ id })`) hoisted
 * into `components.schemas` in the order they are met. Schemas come from zod 4's own
 * `z.toJSONSchema` (JSON Schema 2020-12, the dialect of OpenAPI 3.1). Input shapes are
 * documented (`io: 'input'`): codes are transformed to uppercase after validation, which
 * JSON Schema cannot express.
 */
function schemaRegistry() {
  const components: Record<string, Json> = {};
  /** JSON Schema of `schema`, its named parts hoisted into components.schemas. */
  function convert(schema: z.ZodType): Json {
    const {
      $schema: _s,
      $defs,
      ...root
    } = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: 'input',
      unrepresentable: 'any',
    }) as Json & { $defs?: Record<string, Json> };
    const rewrite = (value: Json) =>
      JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
    for (const [id, def] of Object.entries($defs ?? {})) components[id] ??= rewrite(def);
    return rewrite(root);
  }
  /** The object behind a (possibly named) schema, to list its properties as parameters. */
  function objectOf(schema: z.ZodType): Json {
    const json = convert(schema);
    const ref = typeof json.$ref === 'string' ? json.$ref.split('/').pop() : undefined;
    return ref ? components[ref] : json;
  }
  return { components, convert, objectOf };
}
type Schemas = ReturnType<typeof schemaRegistry>;

/** `examples` of a content: the demo dataset's request or answer. */
const shownIn = (example: OperationExample | undefined) => (value: unknown) =>
  example && value !== undefined ? { demo: { summary: example.summary, value } } : undefined;

/** The path's values, then the query's fields (each with its demo value), then If-Match or Idempotency-Key. */
function parametersOf(e: Endpoint, example: OperationExample | undefined, schemas: Schemas): Json[] {
  const parameters: Json[] = [];
  const pathNames = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const params = e.params ? schemas.objectOf(e.params) : {};
  for (const name of pathNames) {
    const schema = (params.properties as Record<string, Json> | undefined)?.[name] ?? { type: 'string' };
    parameters.push({ name, in: 'path', required: true, schema, example: example?.request.params?.[name] });
  }
  if (e.query) {
    const query = schemas.objectOf(e.query);
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, Json>)) {
      const { description, ...rest } = schema;
      parameters.push({
        name,
        in: 'query',
        required: required.has(name),
        description,
        schema: rest,
        example: example?.request.query?.[name],
      });
    }
  }
  if (e.versioned && e.method === 'PUT') parameters.push({ $ref: '#/components/parameters/If-Match' });
  if (e.method === 'POST') parameters.push({ $ref: '#/components/parameters/Idempotency-Key' });
  return parameters;
}

/** The success answers of a row: their schemas, the rate-limit headers, the version's ETag. */
function successResponses(e: Endpoint, example: OperationExample | undefined, schemas: Schemas) {
  const shown = shownIn(example);
  const responses: Record<string, Json> = {};
  for (const [status, schema] of Object.entries(e.responses)) {
    responses[status] = {
      description: STATUS_TEXT[Number(status)] ?? 'Success',
      headers: {
        ...RATE_HEADERS,
        ...(e.versioned ? { ETag: { $ref: '#/components/headers/ETag' } } : {}),
        ...(e.method === 'POST'
          ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } }
          : {}),
      },
      ...(schema
        ? {
            content: {
              'application/json': {
                schema: schemas.convert(schema),
                examples:
                  example?.response.status === Number(status) ? shown(example.response.body) : undefined,
              },
            },
          }
        : {}),
    };
  }
  return responses;
}

/**
 * The codes a row may answer, by status: every endpoint's (authentication, rights, rate
 * limit), a body's (malformed, unknown field, too large, media type), a versioned PUT's 412,
 * and the row's own. Each status lists them in its description and in `x-error-codes`.
 */
function errorResponses(e: Endpoint): Record<string, Json> {
  const errors: Record<number, Set<string>> = {};
  const add = (status: number, codes: readonly string[]) => {
    errors[status] ??= new Set();
    for (const code of codes) errors[status].add(code);
  };
  for (const [status, codes] of Object.entries(COMMON_ERRORS)) add(Number(status), codes);
  if (e.body) {
    add(400, [derivedCode.invalidJson(e.errorPrefix), derivedCode.fieldUnknown(e.errorPrefix)]);
    add(413, [CommonCodes.payloadTooLarge]);
    add(415, [CommonCodes.unsupportedMediaType]);
  }
  if (e.versioned && e.method === 'PUT') add(412, [derivedCode.preconditionFailed(e.errorPrefix)]);
  if (e.method === 'POST') {
    add(400, [CommonCodes.idempotencyKeyInvalid]);
    add(409, [CommonCodes.idempotencyKeyInProgress]);
    add(422, [CommonCodes.idempotencyKeyMismatch]);
    add(503, [CommonCodes.idempotencyKeyUnavailable]);
  }
  for (const [status, codes] of Object.entries(e.errors ?? {})) add(Number(status), codes);
  const responses: Record<string, Json> = {};
  for (const [status, codes] of Object.entries(errors)) {
    const list = [...codes];
    responses[status] = {
      description: `${STATUS_TEXT[Number(status)] ?? 'Error'}. Codes: ${list.map((c) => `\`${c}\``).join(', ')}`,
      'x-error-codes': list,
      // Authentication and body parsing answer before the rate limit is counted.
      headers:
        Number(status) === 429 || Number(status) === 503
          ? { ...RATE_HEADERS, 'Retry-After': { $ref: '#/components/headers/Retry-After' } }
          : [401, 403, 413, 415].includes(Number(status))
            ? undefined
            : RATE_HEADERS,
      content: ERROR_CONTENT,
    };
  }
  return responses;
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };

/** One row of the table as an operation: parameters, body, answers, scope and rate range. */
function operationOf(e: Endpoint, example: OperationExample | undefined, schemas: Schemas): Json {
  const parameters = parametersOf(e, example, schemas);
  const responses = { ...successResponses(e, example, schemas), ...errorResponses(e) };
  const scope = requiredScope(e);
  return {
    operationId: e.id,
    tags: [e.domain],
    summary: e.summary.split(/(?<=\.)\s/)[0],
    description: [
      e.summary,
      `Rate range: ${e.range}. ${scope ? `Scope: \`${scope}\`.` : 'Any valid token (no scope).'}`,
      e.deprecated ? `Deprecated: use \`${e.deprecated.successor}\`.` : '',
    ]
      .filter(Boolean)
      .join('\n\n'),
    parameters: parameters.length ? parameters : undefined,
    requestBody: e.body
      ? {
          required: true,
          content: {
            'application/json': {
              schema: schemas.convert(e.body),
              examples: shownIn(example)(example?.request.body),
            },
          },
        }
      : undefined,
    responses,
    security: [{ BearerAuthentication: scope ? [scope] : [] }, { bearerToken: scope ? [scope] : [] }],
    'x-rate-limit-range': e.range,
    'x-extension': e.extension ? true : undefined,
    deprecated: e.deprecated ? true : undefined,
  };
}

/** The callbacks the service POSTs to subscribers (OpenAPI 3.1 `webhooks`). */
function callbacksOf(events: readonly WebhookEventDoc[], schemas: Schemas): Record<string, Json> {
  const { convert } = schemas;
  const webhooks: Record<string, Json> = {};
  for (const w of events) {
    const header = (name: string, required: boolean, description: string) => ({
      name,
      in: 'header',
      required,
      description,
      schema: { type: 'string' },
    });
    webhooks[w.eventType] = {
      post: {
        operationId: `callback.${w.eventType}`,
        tags: ['webhooks'],
        summary: w.summary.split(/(?<=\.)\s/)[0],
        description: `${w.summary}\n\nPOSTed to the \`callbackUrl\` of each subscription to \`${w.eventType}\` whose office tree holds the event's office. Custom headers of the subscription are sent unchanged. Success is a 2xx within 5 s; otherwise the same callback (same \`id\`) is retried with exponential back-off, at most 10 minutes apart, for 1 hour.`,
        parameters: [
          header('x-service-event', true, 'The event type'),
          header(
            'x-service-secret',
            false,
            "The secret of the subscription; the header is absent when the subscription has none (the spec's null)",
          ),
          header('webhook-id', false, 'Standard Webhooks: the callback id (with a secret only)'),
          header(
            'webhook-timestamp',
            false,
            'Standard Webhooks: Unix seconds of the attempt (with a secret only)',
          ),
          header(
            'webhook-signature',
            false,
            'Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the secret (the bytes after `whsec_` base64-decoded when it has that form, else its UTF-8 bytes); with a secret only',
          ),
        ],
        requestBody: { required: true, content: { 'application/json': { schema: convert(w.payload) } } },
        responses: { '200': { description: 'Acknowledged (any 2xx within 5 s)' } },
        // Sent by the service: no token; the receiver checks `webhook-signature` instead.
        security: [],
      },
    };
  }

  return webhooks;
}

/**
 * Query objects (`PositionsQuery`...) are listed as parameters, never referenced whole:
 * components nothing references are dropped (generators and linters would list them).
 */
function dropUnreferenced(doc: Json, components: Record<string, Json>) {
  const refsIn = (value: unknown) =>
    [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
  const reached = new Set<string>();
  const queue = refsIn({ ...doc, components: { ...(doc.components as Json), schemas: {} } });
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (reached.has(name)) continue;
    reached.add(name);
    queue.push(...refsIn(components[name]));
  }
  for (const name of Object.keys(components)) if (!reached.has(name)) delete components[name];
}

/** The OpenAPI 3.1 document of an endpoint table: an operation per row, the callbacks, the shared parts. */
export function buildOpenApi(endpoints: readonly Endpoint[], info: BuildInfo = {}) {
  const schemas = schemaRegistry();
  schemas.convert(ErrorBody);
  const paths: Record<string, Record<string, Json>> = {};
  for (const e of endpoints) {
    paths[e.path] ??= {};
    paths[e.path][e.method.toLowerCase()] = operationOf(e, info.examples?.[e.id], schemas);
  }
  const webhooks = callbacksOf(info.webhooks ?? [], schemas);
  const scopes = Object.fromEntries(
    ALL_SCOPES.map((s) => [s, `${s.endsWith(':read') ? 'Read' : 'Write'} ${s.split(':')[0]}`]),
  );
  const doc = {
    openapi: '3.1.0',
    servers: info.publicUrl ? [{ url: info.publicUrl, description: 'This instance' }] : undefined,
    info: {
      title: 'Fieldwork field-service management API',
      version: info.version ?? '1.0.68',
      description:
        'Every error answer carries `{ errors: [{ code, message }], errorReference }`; the codes of each status are listed in its description and in `x-error-codes`. Operations marked `x-extension: true` are additions to the interface description.\n\n' +
        'Bodies are JSON in UTF-8 (`application/json` or `application/*+json`, `charset` absent or `utf-8`): another charset is `415` `request.mediatype.unsupported`; bytes that are not well-formed UTF-8 are `400` `<domain>.invalid.json`, and a string holding a lone surrogate escape (`\\ud800`) or U+0000 is `400` `<domain>.<field>.invalid`: nothing is stored altered (never as U+FFFD).\n\n' +
        "Codes (customer, site, asset, office, item, skill...) hold ASCII letters, digits, `-`, `_` and `.` only; anything else is refused with the field's `.invalid` code. They are case-insensitive by ASCII folding (stored uppercase): `straße` is refused, never taken for `STRASSE`.\n\n" +
        'Versioned records (the operations whose answers carry `ETag`): send the ETag back in `If-Match` on PUT to write only that version (412 `<prefix>.precondition.failed` otherwise, nothing written).\n\n' +
        'Methods: a path takes the methods listed under it (and `HEAD` with `GET`). Another of `GET`, `HEAD`, `POST`, `PUT`, `DELETE`, `PATCH`, `OPTIONS` is `405` `route.method.notallowed` with `Allow` listing the methods the path takes; any other method (`CONNECT`, `TRACE`...) is `501` `request.method.notimplemented`; an unknown path is `404` `route.not.found`.\n\n' +
        'Requests: the token, scope and rate limit are checked when the headers arrive; a request refused then (401, 403, 429) is answered without reading its body, and its connection closes. Headers must arrive within 10 s and the whole request within 30 s (as configured), else `408` `request.timeout`. A body may be sent with `Content-Encoding` `gzip`, `deflate` or `br`: the 1 MiB limit applies to the decoded bytes (`413` `request.payload.toolarge`); another coding is `415` `request.encoding.unsupported`, bytes that do not decode `400` `request.encoding.invalid`.\n\n' +
        'Idempotent POSTs: every POST takes an optional `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header, `x-extension`). The first answer to a key (status, body, `Location`, `ETag`...) is kept 24 hours for the caller (its application or user, in its tenant) and given again, with `Idempotent-Replayed: true`, to the same request (method, path with query, body byte for byte) sent with that key, without doing the work twice. The same key with another request is `422` `request.idempotencykey.mismatch`; while the first request runs, `409` `request.idempotencykey.inprogress` with `Retry-After`; an empty key or one over 255 characters is `400` `request.idempotencykey.invalid`. A 5xx answer is not kept: retry with the same key.\n\n' +
        'The database: a request it cannot serve in time (unreachable, a lost connection, a lock held past the timeout) is `503` `service.database.unavailable` with `Retry-After`; nothing of it was applied.',
    },
    paths,
    webhooks: Object.keys(webhooks).length ? webhooks : undefined,
    components: {
      schemas: schemas.components,
      parameters: {
        'If-Match': {
          name: 'If-Match',
          in: 'header',
          required: false,
          description:
            'Conditional write (RFC 9110): the ETag of the version you read (or a list of ETags, or `*` for any existing version). When the record is not at that version, or does not exist for you (any If-Match, `*` included), the answer is 412 `<prefix>.precondition.failed` and nothing is written. Without it, the PUT writes unconditionally.',
          schema: { type: 'string' },
        },
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes the POST safe to retry (draft-ietf-httpapi-idempotency-key-header): a unique value per operation (a UUID), bare or as a quoted string, 1 to 255 printable ASCII characters. The same request sent again with it within 24 hours gets the first answer back (`Idempotent-Replayed: true`) and is not done again. Another request with the key: `422` `request.idempotencykey.mismatch`; the first still running: `409` `request.idempotencykey.inprogress`; a 5xx is not kept.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
          'x-extension': true,
        },
      },
      headers: {
        'Idempotent-Replayed': {
          description:
            '`true` on the answer given again to a POST whose Idempotency-Key was answered before: the request was not done again',
          schema: { type: 'string', enum: ['true'] },
        },
        ETag: {
          description:
            'Version of the record (strong, quoted), derived from its lastUpdate at the database\'s full precision, e.g. `"2026-03-01T08:00:00.123456Z"`. Send it back in If-Match to write only that version. A PUT that changes nothing keeps it.',
          schema: { type: 'string' },
        },
        RateLimit: {
          description:
            'Remaining quota of each window (draft-ietf-httpapi-ratelimit-headers), e.g. `"standard-minute";r=54;t=37, "standard-hour";r=1999;t=1200`',
          schema: { type: 'string' },
        },
        'RateLimit-Policy': {
          description:
            'Quota policies of the range, e.g. `"standard-minute";q=55;w=60, "standard-hour";q=2000;w=3600`',
          schema: { type: 'string' },
        },
        'Retry-After': {
          description: 'Seconds to wait: until the exhausted window resets (429), before trying again (503)',
          schema: { type: 'integer' },
        },
      },
      securitySchemes: {
        BearerAuthentication: {
          type: 'oauth2',
          description:
            'OAuth 2.0. Integrations: client_credentials at `/oauth/token` (HTTP Basic or form credentials). Console: authorization code with PKCE (S256). Then `Authorization: Bearer <token>`.',
          flows: {
            clientCredentials: { tokenUrl: '/oauth/token', scopes },
            authorizationCode: { authorizationUrl: '/oauth/auth', tokenUrl: '/oauth/token', scopes },
          },
        },
        bearerToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
  };
  dropUnreferenced(doc, schemas.components);
  // Drop the keys left undefined above.
  return JSON.parse(JSON.stringify(doc)) as Json;
}

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Fieldwork API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/swagger-initializer.js"></script>
</body>
</html>
`;

const DOCS_INIT = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

/** `GET /openapi.json` and the interactive reference at `/docs` (swagger-ui-dist, no CDN); no auth. */
export async function registerOpenApi(
  app: FastifyInstance,
  endpoints: readonly Endpoint[],
  options: { webhooks?: readonly WebhookEventDoc[]; publicUrl?: string } = {},
) {
  const doc = JSON.stringify(buildOpenApi(endpoints, { ...options, examples: operationExamples }));
  app.get('/openapi.json', async (_req, reply) => reply.type('application/json; charset=utf-8').send(doc));
  const page = async (_req: unknown, reply: import('fastify').FastifyReply) =>
    reply.type('text/html; charset=utf-8').send(DOCS_HTML);
  app.get('/docs', page);
  app.get('/docs/', page);
  app.get('/docs/index.html', page);
  app.get('/docs/swagger-initializer.js', async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').send(DOCS_INIT),
  );
  const root = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  await app.register(fastifyStatic, { root, prefix: '/docs/', decorateReply: false, index: false });
}
