import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Endpoint, InputOf, StatusOf } from '../../contract/endpoint.ts';
import { derivedCode } from '../../contract/errors.ts';
import type { Db, DbHandle } from '../db/index.ts';
import { actorState } from '../events/changes.ts';
import { actorOf } from '../events/index.ts';
import type { Caller } from './caller.ts';
import { INVALID_UTF8 } from './encoding.ts';
import { ApiError, methodRefusal } from './errors.ts';
import type { Idempotency } from './idempotency.ts';
import { endpointPathPattern, type MethodIndex, type RoutePaths } from './methods.ts';
import { tenantOf } from './officeScope.ts';
import type { PageTokens } from './pagination.ts';
import { JsonSyntaxError, parseStrictJson } from './strictJson.ts';
import { validate } from './validation.ts';

/** What a handler gets besides its validated input. */
export interface RequestContext {
  db: Db;
  caller: Caller;
  tokens: PageTokens;
  request: FastifyRequest;
  /** For an answer the handler writes itself (server-sent events: changes/stream.ts). */
  reply: FastifyReply;
  endpoint: Endpoint;
}

type ResponseSchema<E extends Endpoint, S extends number> = E['responses'][S];
/** One of the row's success answers: its status and a body of that status's schema. */
export type HandlerResult<E extends Endpoint> = {
  [S in StatusOf<E>]: ResponseSchema<E, S> extends z.ZodType
    ? { status: S; body: z.input<ResponseSchema<E, S>>; headers?: Record<string, string> }
    : { status: S; body?: undefined; headers?: Record<string, string> };
}[StatusOf<E>];

/** Input of a row's handler: params, query and body already validated by the row's schemas. */
export interface HandlerInput<E extends Endpoint> {
  params: InputOf<E, 'params'>;
  query: InputOf<E, 'query'>;
  body: InputOf<E, 'body'>;
}

export type Handler<E extends Endpoint> = (
  input: HandlerInput<E>,
  ctx: RequestContext,
) => Promise<HandlerResult<E>>;

export interface Route {
  endpoint: Endpoint;
  handler: (
    input: HandlerInput<Endpoint>,
    ctx: RequestContext,
  ) => Promise<{
    status: number;
    body?: unknown;
    headers?: Record<string, string>;
  }>;
}

/** Pairs an endpoint row with its handler, typed end to end by the row. */
export function implement<E extends Endpoint>(endpoint: E, handler: NoInfer<Handler<E>>): Route {
  return { endpoint, handler: handler as unknown as Route['handler'] };
}

/** A handler for each endpoint of a domain, under the endpoint's name in the contract. */
export type DomainImplementation<C extends Readonly<Record<string, Endpoint>>> = {
  [K in keyof C]: Handler<C[K]>;
};

/**
 * A domain's routes: its contract's endpoints (`<domain>Endpoints`), each with the handler
 * of its name. A handler missing, misnamed or typed for another row fails tsc.
 */
export function implementDomain<C extends Readonly<Record<string, Endpoint>>>(
  contract: C,
  handlers: NoInfer<DomainImplementation<C>>,
): Route[] {
  return Object.entries(contract).map(([name, endpoint]) =>
    implement(endpoint, handlers[name] as Handler<Endpoint>),
  );
}

/** Hooks the platform runs before every handler (authentication, rights, rate limit). */
export interface Guards {
  authenticate(request: FastifyRequest, endpoint: Endpoint): Promise<Caller>;
  rateLimit(request: FastifyRequest, reply: FastifyReply, caller: Caller, endpoint: Endpoint): Promise<void>;
}

interface Segment {
  /** literal text before the value, e.g. `code:` */
  prefix: string;
  name: string;
  /** Fastify's name of the value: positional (`p0`), so `code:{workOrderCode}` and
   * `uuid:{workOrderUuid}` share one fastify route. */
  key: string;
}

type Routed = { chosen: Route & { segments: Segment[] }; caller: Caller };

declare module 'fastify' {
  interface FastifyRequest {
    /** The endpoint chosen and the caller authenticated by the route's onRequest. */
    fieldworkRouted: Routed | null;
  }
}

/** What onRequest settled for the request (it ran before any later hook or the handler). */
function routedOf(request: FastifyRequest): Routed {
  if (!request.fieldworkRouted) throw new Error(`${request.method} ${request.url}: not routed`);
  return request.fieldworkRouted;
}

/** `/a/code:{x}/b/{y}` -> fastify path `/a/:p0/b/:p1` and the literal prefix of each value. */
export function toFastifyPath(path: string): { url: string; segments: Segment[] } {
  const segments: Segment[] = [];
  const url = path.replace(/([^/{}]*)\{(\w+)\}/g, (_m, prefix: string, name: string) => {
    const key = `p${segments.length}`;
    segments.push({ prefix, name, key });
    return `:${key}`;
  });
  return { url, segments };
}

export interface RouteDeps {
  /** The database of a caller's requests: inside its tenant, its writes naming it (DbHandle.tenantDbFor). */
  dbFor: DbHandle['tenantDbFor'];
  tokens: PageTokens;
  guards: Guards;
  /** The paths each method takes: a request no variant takes is a 405 or a 404 (methods.ts). */
  methods: MethodIndex;
  /** Check every success answer against its row's response schema (tests). */
  validateResponses?: boolean;
  /** Idempotency-Key on every POST (idempotency.ts). */
  idempotency?: Idempotency;
}

/**
 * Registers every route of the table. Endpoints that share a method and a fastify path
 * but differ by literal prefix (`code:{x}` vs `uuid:{x}`) share one fastify route and
 * are told apart here. An empty value after its prefix is the spec's "code missing in
 * path" (`<prefix>.code.mandatory`, or the endpoint's `codeMandatory`).
 */
export function registerRoutes(app: FastifyInstance, routes: Route[], deps: RouteDeps) {
  const groups = new Map<
    string,
    { url: string; method: string; variants: (Route & { segments: Segment[] })[] }
  >();
  for (const route of routes) {
    const { url, segments } = toFastifyPath(route.endpoint.path);
    const key = `${route.endpoint.method} ${url}`;
    const group = groups.get(key) ?? { url, method: route.endpoint.method, variants: [] };
    group.variants.push({ ...route, segments });
    groups.set(key, group);
  }

  // What the guards found for a request, from its onRequest hook to its handler.
  if (!app.hasRequestDecorator('fieldworkRouted')) app.decorateRequest('fieldworkRouted', null);
  for (const group of groups.values()) {
    app.route({
      method: group.method,
      url: group.url,
      // The paths this route serves, each value with its literal prefix (methods.ts).
      config: { paths: group.variants.map((v) => endpointPathPattern(v.endpoint.path)) } satisfies RoutePaths,
      // The caller is authenticated, its rights checked and its rate counted before the
      // body is read: a refused request's body is never read (errors.ts closes the
      // connection), so a client without a token cannot hold one by sending it slowly.
      onRequest: async (request, reply) => {
        const raw = request.params as Record<string, string>;
        const chosen = group.variants.find((v) =>
          v.segments.every((s) => (raw[s.key] ?? '').startsWith(s.prefix)),
        );
        if (!chosen) {
          const refusal = methodRefusal(deps.methods, request.method, request.url.split('?')[0]);
          throw new ApiError(
            refusal.status,
            [refusal.error],
            undefined,
            refusal.allow ? { allow: refusal.allow } : {},
          );
        }
        const caller = await deps.guards.authenticate(request, chosen.endpoint);
        await deps.guards.rateLimit(request, reply, caller, chosen.endpoint);
        request.fieldworkRouted = { chosen, caller };
      },
      ...(group.method === 'POST' && deps.idempotency ? idempotencyHooks(deps.idempotency) : {}),
      handler: async (request, reply) => {
        const { chosen, caller } = routedOf(request);
        const raw = request.params as Record<string, string>;
        const { endpoint, handler } = chosen;
        if (endpoint.deprecated) {
          reply.header('Deprecation', 'true');
          reply.header('Link', `<${endpoint.deprecated.successor}>; rel="successor-version"`);
        }

        const params: Record<string, string> = {};
        for (const s of chosen.segments) {
          const value = raw[s.key].slice(s.prefix.length);
          if (value.trim() === '') {
            throw new ApiError(
              400,
              endpoint.codeMandatory ?? `${endpoint.errorPrefix}.code.mandatory`,
              `${s.name} is missing in the path`,
            );
          }
          params[s.name] = value;
        }
        const prefix = endpoint.errorPrefix;
        const query = endpoint.query ? refuseNul(prefix, request.query ?? {}) : undefined;
        const body = endpoint.body ? refuseNul(prefix, parseBody(endpoint, request)) : undefined;
        if (Object.values(params).some((v) => v.includes('\0')))
          throw new ApiError(400, `${prefix}.code.invalid`, 'A code cannot hold the NUL character');
        const input = {
          params: endpoint.params ? validate(prefix, endpoint.params, params) : params,
          query: endpoint.query ? validate(prefix, endpoint.query, query) : undefined,
          body: endpoint.body ? validate(prefix, endpoint.body, body, endpoint.shapeErrors) : undefined,
        };
        // The tenant guard (db/tenant.ts): the handler's statements see the caller's tenant
        // only, and the changes it commits name the caller (events/changes.ts).
        const result = await handler(input as HandlerInput<Endpoint>, {
          db: deps.dbFor(tenantOf(caller.scope) ?? '', actorState(actorOf(caller))),
          caller,
          tokens: deps.tokens,
          request,
          reply,
          endpoint,
        });
        if (deps.validateResponses) checkResponse(endpoint, result.status, result.body);
        // A handler that took the connection over (a stream) has answered already.
        if (reply.sent) return reply;
        if (result.headers) for (const [k, v] of Object.entries(result.headers)) reply.header(k, v);
        reply.status(result.status);
        return result.body === undefined ? reply.send() : reply.send(result.body);
      },
    });
  }
}

/**
 * Idempotency-Key on a POST: the key is taken once the body is read (its hash is part of
 * the key's request), the answer recorded before compression (onSend hooks of the route run
 * after this one: @fastify/compress adds its own to each route).
 */
function idempotencyHooks(idempotency: Idempotency) {
  return {
    preHandler: async (request: FastifyRequest, reply: FastifyReply) =>
      idempotency.begin(request, reply, routedOf(request).caller),
    onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) =>
      idempotency.record(request, reply, payload),
    onResponse: async (request: FastifyRequest) => idempotency.settle(request),
  };
}

/** A handler answered outside its row's responses: a defect, reported as a 500. */
function checkResponse(endpoint: Endpoint, status: number, body: unknown) {
  if (!(status in endpoint.responses))
    throw new Error(`${endpoint.id} answered ${status}, not one of its documented statuses`);
  const schema = endpoint.responses[status];
  if (!schema) {
    if (body !== undefined) throw new Error(`${endpoint.id} answered ${status} with a body`);
    return;
  }
  const result = schema.safeParse(body);
  if (!result.success)
    throw new Error(`${endpoint.id} answered a body outside its schema: ${result.error.message}`);
}

/**
 * PostgreSQL text cannot hold U+0000, nor a lone surrogate (it would be stored as U+FFFD): a
 * string (or key) holding either is refused as an invalid field (`<prefix>.<field>.invalid`)
 * instead of failing in the database or being stored altered.
 */
/** A surrogate not paired with another (a paired one is one code point under the u flag). */
const LONE_SURROGATE = /\p{Surrogate}/u;

function refuseNul<T>(prefix: string, value: T): T {
  const walk = (v: unknown, field: string | undefined): void => {
    if (typeof v === 'string') {
      const problem = v.includes('\0')
        ? 'the NUL character is not allowed'
        : LONE_SURROGATE.test(v)
          ? 'a lone surrogate (\\uD800-\\uDFFF) is not a character'
          : undefined;
      if (problem)
        throw new ApiError(
          400,
          field ? derivedCode.invalid(prefix, field) : derivedCode.invalidJson(prefix),
          `${field ?? 'body'}: ${problem}`,
        );
    } else if (Array.isArray(v)) for (const item of v) walk(item, field);
    else if (v && typeof v === 'object')
      for (const [k, item] of Object.entries(v)) {
        walk(k, field);
        walk(item, k);
      }
  };
  walk(value, undefined);
  return value;
}

/** The body arrives as text (see app.ts); here it is parsed strictly with the endpoint's codes. */
function parseBody(endpoint: Endpoint, request: FastifyRequest): unknown {
  const text = request.body;
  if (text === INVALID_UTF8)
    throw new ApiError(400, derivedCode.invalidJson(endpoint.errorPrefix), 'The body is not valid UTF-8');
  if (typeof text !== 'string' || text.trim() === '') {
    throw new ApiError(400, derivedCode.invalidJson(endpoint.errorPrefix), 'A JSON body is required');
  }
  try {
    return parseStrictJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError)
      throw new ApiError(400, derivedCode.invalidJson(endpoint.errorPrefix), e.message);
    throw e;
  }
}
