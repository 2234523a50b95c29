import { randomBytes, randomUUID } from 'node:crypto';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type pino from 'pino';
import { endpoints, webhookEvents } from '../contract/index.ts';
import { type AppConfig, DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './config.ts';
import { DEFAULT_DB_TIMEOUT_MS } from './db/faults.ts';
import { type DbHandle, openDatabase } from './db/index.ts';
import { domains } from './domains/index.ts';
import { type CallerCache, listenForCallerChanges } from './platform/auth/callerCache.ts';
import { registerAuth } from './platform/auth/index.ts';
import { consoleRoutes } from './platform/auth/meRoute.ts';
import {
  createLoginGuard,
  createTokenGuard,
  DEFAULT_LOGIN_LIMITS,
  DEFAULT_TOKEN_LIMITS,
} from './platform/auth/tokenLimits.ts';
import { registerConsole } from './platform/console.ts';
import { createCounterStore } from './platform/counterStore.ts';
import { startDomains } from './platform/domain.ts';
import { decodeContentEncoding, decodeJsonBody } from './platform/encoding.ts';
import {
  clientErrorHandler,
  frameworkErrors,
  refuseConnect,
  registerErrorHandling,
} from './platform/errors.ts';
import { createIdempotency, databaseKeys, redisKeys } from './platform/idempotency.ts';
import { BatchedDestination } from './platform/logDestination.ts';
import { MethodIndex } from './platform/methods.ts';
import { registerOpenApi } from './platform/openapi.ts';
import { type Operations, registerOperations } from './platform/operations.ts';
import { PageTokens } from './platform/pagination.ts';
import { createRateLimiter } from './platform/rateLimit.ts';
import { type RouteDeps, registerRoutes } from './platform/routes.ts';
import { instanceSecret } from './platform/secrets.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** routeDeps: what registerRoutes needs, for routes added after buildApp (tests). */
    fieldwork: {
      config: AppConfig;
      dbh: DbHandle;
      routeDeps?: RouteDeps;
      /** The hot path's caches (auth/callerCache.ts), for tests. */
      auth?: { callers: CallerCache; stats: { verifications: number } };
      /** Health, readiness, metrics and the shutdown state (platform/operations.ts). */
      operations?: Operations;
    };
  }
}

/**
 * The longest code (spec: 10000 characters), percent-encoded: up to 4 UTF-8 bytes a
 * letter, 3 characters a byte. A path segment holds it after its `code:` prefix; the
 * request line and headers together may take it plus 40 KiB of headers (Node's default
 * limit is 16 KiB; docs/operations.md, Limits of a request).
 */
export const MAX_ENCODED_CODE = 10_000 * 4 * 3;
export const MAX_HEADER_SIZE = MAX_ENCODED_CODE + 40 * 1024;
/** The largest body, after its Content-Encoding is decoded (413 beyond). */
export const BODY_LIMIT = 1024 * 1024;

/**
 * Query parameters that carry a credential: a client secret sent in the query string (refused),
 * the authorization code and state the browser brings back to the console's
 * `/auth/callback`, a token or ID token hint (sign-out). None is an API parameter.
 */
const SECRET_PARAMS =
  /([?&](?:client_secret|code|code_verifier|state|token|access_token|refresh_token|id_token|id_token_hint|password|secret)=)[^&#]*/gi;

/** The request as logged: its URL without the credentials of SECRET_PARAMS (docs/security.md). */
export function loggedRequest(request: Pick<FastifyRequest, 'method' | 'url' | 'ip'>) {
  const url = request.url;
  return {
    method: request.method,
    // Every parameter SECRET_PARAMS redacts has a `=`: a URL without one is logged as it is.
    url: url.includes('=') ? url.replace(SECRET_PARAMS, '$1[redacted]') : url,
    remoteAddress: request.ip,
  };
}

/** One log line per request, when it is answered, instead of Fastify's two. */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

export interface BuildOptions {
  /** pino options (merged with the service's redaction), or false. */
  logger?: boolean | object;
  /** Clock of the rate limits and of the idempotency keys' expiry (tests). */
  now?: () => number;
  // A domain adds its own options (domains/webhooks/lifecycle.ts).
}

/** Builds the whole service; tests call it in-process and use `inject`. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  // A connection the database closed is dropped and replaced; said in the log once the
  // logger exists (a failure while migrating fails the start anyway).
  let connectionLost = (_err: Error) => {};
  const dbh = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    schema: config.databaseSchema,
    timeoutMs: config.dbTimeoutMs ?? DEFAULT_DB_TIMEOUT_MS,
    onConnectionError: (err) => connectionLost(err),
  });
  const { logger, destination } = loggerOptions(config, options);
  const app = createServer(config, logger);
  app.decorate('fieldwork', { config, dbh });
  // Which methods each path takes, from every route registered from here on (methods.ts).
  const methods = new MethodIndex();
  methods.watch(app);
  refuseConnect(app);
  connectionLost = (err) => app.log.warn({ err }, 'database connection lost; dropped from the pool');
  // Which process migrated the database (one only, under an advisory lock: db/index.ts).
  if (dbh.migrationsApplied.length > 0)
    app.log.info({ migrations: dbh.migrationsApplied }, 'migrations applied');

  registerErrorHandling(app, methods);
  const operations = await registerOperations(app, { dbh, metricsToken: config.metricsToken });
  app.fieldwork.operations = operations;
  await registerBodyHandling(app);
  const access = await registerAccess(app, dbh, config, options);

  const routeDeps: RouteDeps = {
    // Every statement of a handler runs inside the caller's tenant (db/tenant.ts).
    dbFor: dbh.tenantDbFor,
    tokens: new PageTokens(await instanceSecret(dbh.db, 'pagination.hmac')),
    guards: access.guards,
    methods,
    validateResponses: config.validateResponses,
    idempotency: access.idempotency,
  };
  registerRoutes(app, [...consoleRoutes, ...domains.flatMap((d) => d.routes)], routeDeps);
  await registerOpenApi(app, endpoints, { webhooks: webhookEvents, publicUrl: config.publicUrl });
  app.fieldwork.routeDeps = routeDeps;
  // The built console at / (after the API routes, whose paths win).
  await registerConsole(app, config.consoleDir);

  // Each domain's background work (DomainModule.start), stopped in reverse order on close.
  const stopDomains = await startDomains(domains, { app, dbh, config, operations, options });

  app.addHook('onClose', async () => {
    await stopDomains();
    await access.close();
    await dbh.close();
    destination?.close();
  });
  return app;
}

/** pino's options: the service's level, redaction and request line; standard output in batches. */
function loggerOptions(config: AppConfig, options: BuildOptions) {
  // Standard output in batches (platform/logDestination.ts); tests pass their own stream.
  const given =
    typeof options.logger === 'object' ? (options.logger as { stream?: pino.DestinationStream }) : {};
  const destination = options.logger === false || given.stream ? undefined : new BatchedDestination();
  const logger =
    options.logger === false
      ? false
      : {
          level: config.logLevel,
          ...(destination ? { stream: destination } : {}),
          ...given,
          redact: ['req.headers.authorization'],
          serializers: { req: loggedRequest },
        };
  return { logger, destination };
}

/** Fastify with the service's limits: body and header sizes, timeouts, proxies, request ids. */
function createServer(config: AppConfig, logger: ReturnType<typeof loggerOptions>['logger']) {
  // A client slow to send its request is cut off with 408 request.timeout (errors.ts):
  // its headers within headersTimeout, the whole request, body included, within
  // requestTimeout; Node checks its connections every connectionsCheckingInterval.
  const headersTimeout = config.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeout = config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const app: FastifyInstance = Fastify({
    logger,
    logController: new OneLinePerRequest(),
    genReqId: () => randomUUID(),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy ?? 'loopback',
    routerOptions: { maxParamLength: MAX_ENCODED_CODE + 64 },
    requestTimeout,
    http: {
      maxHeaderSize: MAX_HEADER_SIZE,
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
    clientErrorHandler: clientErrorHandler(() => app.log),
    frameworkErrors,
    // While closing, platform/operations.ts answers 503 with the error body instead.
    return503OnClosing: false,
  });
  return app;
}

/** How bodies come in (UTF-8 JSON, decoded Content-Encoding) and answers go out (typed, compressed). */
async function registerBodyHandling(app: FastifyInstance) {
  // Every answer (API, console, OAuth, its middleware included: raw header) is taken for
  // the type it declares, never sniffed: a JSON error echoing input is not run as HTML.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.raw.setHeader('x-content-type-options', 'nosniff');
    done();
  });
  // Bodies are kept as text: each endpoint parses them strictly, with its own error codes.
  // UTF-8 only (platform/encoding.ts): another charset is a 415, bytes that are not UTF-8
  // a 400 <domain>.invalid.json (never decoded to U+FFFD and stored).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, decodeJsonBody);
  app.addContentTypeParser(/^application\/[\w.+-]*\+json$/, { parseAs: 'buffer' }, decodeJsonBody);
  // A body sent with Content-Encoding gzip, deflate or br is decoded, at most BODY_LIMIT
  // bytes of it (a bomb is a 413); another coding is a 415 (encoding.ts).
  app.addHook('preParsing', decodeContentEncoding(BODY_LIMIT));

  // JSON answers of 1 KiB or more, by Accept-Encoding. Brotli at quality 4 costs about
  // what gzip does for a smaller answer (quality 11, the default, is for static files).
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    customTypes: /^application\/(?:[\w.+-]+\+)?json\b/,
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
    globalDecompression: false,
  });
}

/**
 * Who may call, how often, and once: authentication (OAuth, the caller cache), the token
 * endpoint's and sign-in's guards, the rate limits and the idempotency keys, with the
 * counters they share.
 */
async function registerAccess(app: FastifyInstance, dbh: DbHandle, config: AppConfig, options: BuildOptions) {
  // Counters of every instance on this database, apart from other deployments on one Redis.
  const instanceId =
    config.instanceId ??
    (await instanceSecret(dbh.db, 'instance.id', () => randomBytes(9).toString('base64url')));
  const counters = createCounterStore({ redisUrl: config.redisUrl, log: app.log, now: options.now });
  // Callers (application or user, rights, office path) are kept until the database
  // announces a change of applications, users or offices (migration 020).
  const callerFeed = await listenForCallerChanges(dbh, {
    warn: (msg) => app.log.warn(msg),
    info: (msg) => app.log.info(msg),
  });
  const callers = callerFeed.callers;
  const auth = await registerAuth(app, {
    db: dbh.authDb,
    callers,
    publicUrl: config.publicUrl,
    accessTokenTtl: config.accessTokenTtl,
    tokenGuard: createTokenGuard(counters, config.tokenLimits ?? DEFAULT_TOKEN_LIMITS, {
      prefix: `fieldwork:${instanceId}:auth:`,
      now: options.now,
    }),
    loginGuard: createLoginGuard(counters, config.loginLimits ?? DEFAULT_LOGIN_LIMITS, {
      prefix: `fieldwork:${instanceId}:login:`,
      now: options.now,
    }),
    devConsole: config.devConsole,
  });
  app.fieldwork.auth = { callers, stats: auth.stats };
  const limiter = createRateLimiter(config.rateLimits, {
    store: counters,
    now: options.now,
    prefix: `fieldwork:${instanceId}:rl:`,
  });
  // Idempotency-Key on every POST: in Redis when set (every instance shares it), else in
  // the database, each key inside its caller's tenant.
  const idempotency = createIdempotency({
    store: config.redisUrl
      ? redisKeys(config.redisUrl, `fieldwork:${instanceId}:idem:`)
      : databaseKeys(dbh.tenantDbFor, dbh.db),
    now: options.now,
    log: app.log,
  });
  return {
    guards: { authenticate: auth.authenticate, rateLimit: limiter.check },
    idempotency,
    async close() {
      await callerFeed.stop();
      await idempotency.close();
      await counters.close();
    },
  };
}
