/**
 * What the operator's tooling calls (docs/operations.md, Deployment):
 *
 * - `GET /healthz`  liveness: the process answers; touches nothing else (a database outage
 *   must not get every process restarted).
 * - `GET /readyz`   readiness: the database answers and every migration of this build is
 *   applied; 503 with the error body otherwise, and from the moment shutdown starts.
 * - `GET /metrics`  Prometheus text format: requests by route template and status class,
 *   their latency histogram, the webhooks outbox backlog, delivery attempts by result,
 *   process figures. With FIELDWORK_METRICS_TOKEN, a bearer of that token only; without,
 *   only a peer on this machine that did not come through a proxy (no X-Forwarded-For).
 *
 * Once shutdown starts (main.ts on SIGTERM, or app.close()), a request that reaches the
 * service on a connection still open is answered 503 `service.shuttingdown` with
 * `Connection: close` (the ones in flight finish), except /healthz.
 */

import cluster from 'node:cluster';
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { OperationsCodes } from '../../contract/errors.ts';
import { type DbHandle, migrationFiles } from '../db/index.ts';
import { clusterMetrics } from './clusterMetrics.ts';
import { ApiError } from './errors.ts';
import {
  Counter,
  Gauge,
  Histogram,
  type Labels,
  Registry,
  registerProcessMetrics,
  render,
} from './metrics.ts';
import { errorCode, errorMessage } from './thrown.ts';

/** Longest wait for the database in a readiness check. */
const READY_TIMEOUT_MS = 2_000;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface Operations {
  registry: Registry;
  /** Delivery attempts of this process's webhooks worker, by result (delivered, failed). */
  deliveryAttempts: Counter;
  /** Readiness fails and new requests are refused from now on. */
  beginShutdown(): void;
  readonly shuttingDown: boolean;
}

export interface OperationsOptions {
  dbh: DbHandle;
  /** FIELDWORK_METRICS_TOKEN */
  metricsToken?: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

function isLoopback(address: string | undefined) {
  if (!address) return false;
  if (address.startsWith('::ffff:')) address = address.slice(7);
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1';
}

/** Races a promise against a timer. */
function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    }),
  ]);
}

const reasonOf = (err: unknown) => errorCode(err) ?? errorMessage(err);

export async function registerOperations(
  app: FastifyInstance,
  options: OperationsOptions,
): Promise<Operations> {
  const { dbh } = options;
  const expected = (await migrationFiles()).map((f) => f.name);
  let shuttingDown = false;
  const isShuttingDown = () => shuttingDown;

  const metrics = createMetrics(dbh);
  countRequests(app, metrics);
  refuseWhileShuttingDown(app, isShuttingDown);
  app.get('/healthz', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'alive' }),
  );
  registerReadiness(app, dbh, expected, isShuttingDown);
  registerMetricsRoute(app, metrics, options.metricsToken);

  const beginShutdown = () => {
    shuttingDown = true;
  };
  app.addHook('preClose', async () => beginShutdown());
  app.addHook('onClose', async () => metrics.stop());

  return {
    registry: metrics.registry,
    deliveryAttempts: metrics.deliveryAttempts,
    beginShutdown,
    get shuttingDown() {
      return shuttingDown;
    },
  };
}

/** The series of /metrics: requests, latency, the webhooks outbox, deliveries, the database, the process. */
function createMetrics(dbh: DbHandle) {
  const registry = new Registry();
  const requests = registry.register(
    new Counter(
      'fieldwork_http_requests_total',
      'HTTP requests answered, by method, route template and status class',
    ),
  );
  const latency = registry.register(
    new Histogram(
      'fieldwork_http_request_duration_seconds',
      'Time from the request received to its answer sent, by method, route template and status class',
    ),
  );
  const database = registerOutboxGauges(registry, dbh);
  const deliveryAttempts = registry.register(
    new Counter(
      'fieldwork_webhook_delivery_attempts_total',
      'Webhook delivery attempts made by this service, by result (delivered: a 2xx answer; failed: anything else)',
    ),
  );
  registry.register(
    new Gauge(
      'fieldwork_database_up',
      'Whether the last read of the database for these metrics succeeded',
      () => database.up,
    ),
  );
  const stopProcessMetrics = registerProcessMetrics(registry);
  // A worker of a cluster answers /metrics with every worker's series (clusterMetrics.ts).
  const gathered = cluster.isWorker ? clusterMetrics(registry) : undefined;
  return {
    registry,
    requests,
    latency,
    deliveryAttempts,
    gather: () => (gathered ? gathered.gather() : registry.snapshot()),
    stop() {
      stopProcessMetrics();
      gathered?.stop();
    },
  };
}

/** The webhooks outbox's three gauges, read by one query per scrape; `up`: whether it answered. */
function registerOutboxGauges(registry: Registry, dbh: DbHandle) {
  const database = { up: 1 };
  const outbox = async () => {
    try {
      const { rows } = await within(
        READY_TIMEOUT_MS,
        sql<{ pending: number; due: number; oldest: number }>`
          SELECT count(*)::int AS pending,
                 count(*) FILTER (WHERE next_attempt_at <= clock_timestamp())::int AS due,
                 COALESCE(EXTRACT(EPOCH FROM clock_timestamp() - min(created_at)), 0)::float8 AS oldest
          FROM webhook_deliveries WHERE status = 'pending'`.execute(dbh.db),
      );
      database.up = 1;
      return rows[0];
    } catch (err) {
      database.up = 0;
      throw err;
    }
  };
  let backlog: ReturnType<typeof outbox> | undefined;
  const readBacklog = () => {
    backlog ??= outbox().finally(() => {
      setImmediate(() => {
        backlog = undefined;
      });
    });
    return backlog;
  };
  registry.register(
    new Gauge(
      'fieldwork_webhook_outbox_pending',
      'Webhook callbacks waiting for delivery (pending: not delivered, not given up)',
      async () => (await readBacklog()).pending,
    ),
  );
  registry.register(
    new Gauge(
      'fieldwork_webhook_outbox_due',
      'Pending webhook callbacks whose next attempt is due now',
      async () => (await readBacklog()).due,
    ),
  );
  registry.register(
    new Gauge(
      'fieldwork_webhook_outbox_oldest_pending_seconds',
      'Age of the oldest pending webhook callback, seconds (0: none)',
      async () => (await readBacklog()).oldest,
    ),
  );
  return database;
}

/**
 * Counts every answer by method, route template and status class, with its latency. The
 * hook takes a callback instead of returning a promise (one promise and microtask fewer a
 * request), and a request's labels are one object per method, route and status class, made
 * once (metrics.ts keys series by that object).
 */
function countRequests(
  app: FastifyInstance,
  { requests, latency }: Pick<ReturnType<typeof createMetrics>, 'requests' | 'latency'>,
) {
  const labelSets = new Map<string, Labels>();
  app.addHook('onResponse', (request, reply, done) => {
    const method = METHODS.has(request.method) ? request.method : 'OTHER';
    const route = request.routeOptions.url ?? 'unmatched';
    const status = `${Math.floor(reply.statusCode / 100)}xx`;
    const id = `${method} ${status} ${route}`;
    let labels = labelSets.get(id);
    if (!labels) {
      labels = { method, route, status };
      labelSets.set(id, labels);
    }
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}

/** Once shutdown starts, every request but /healthz answers 503 `service.shuttingdown`, Connection: close. */
function refuseWhileShuttingDown(app: FastifyInstance, isShuttingDown: () => boolean) {
  app.addHook('onRequest', (request, reply, done) => {
    if (!isShuttingDown() || request.url === '/healthz') return done();
    reply.header('connection', 'close').header('retry-after', '1');
    done(
      new ApiError(
        503,
        OperationsCodes.shuttingDown,
        'The service is shutting down; retry on another instance',
      ),
    );
  });
}

/** /readyz: the database answers and every migration of this build is applied. */
function registerReadiness(
  app: FastifyInstance,
  dbh: DbHandle,
  expected: string[],
  isShuttingDown: () => boolean,
) {
  app.get('/readyz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (isShuttingDown())
      throw new ApiError(503, OperationsCodes.shuttingDown, 'The service is shutting down');
    let applied: Set<string>;
    try {
      const rows = await within(
        READY_TIMEOUT_MS,
        dbh.db.selectFrom('schema_migrations').select('name').execute(),
      );
      applied = new Set(rows.map((r) => r.name));
    } catch (err) {
      throw new ApiError(
        503,
        OperationsCodes.databaseUnavailable,
        `The database does not answer (${reasonOf(err)})`,
      );
    }
    const missing = expected.filter((name) => !applied.has(name));
    if (missing.length > 0)
      throw new ApiError(
        503,
        OperationsCodes.migrationsPending,
        `Migrations not applied to the database: ${missing.join(', ')}`,
      );
    return reply.send({ status: 'ready', database: dbh.kind, migrations: expected.length });
  });
}

/**
 * Who may read /metrics: with FIELDWORK_METRICS_TOKEN a bearer of it (401 otherwise);
 * without, a peer on this machine that did not come through a proxy (403 otherwise).
 */
function metricsGuard(metricsToken: string | undefined) {
  const token = metricsToken ? digest(metricsToken) : undefined;
  return (request: FastifyRequest) => {
    if (token) {
      const header = String(request.headers.authorization ?? '');
      const given = /^Bearer (.+)$/i.exec(header)?.[1];
      if (given && timingSafeEqual(digest(given), token)) return;
      throw new ApiError(
        401,
        OperationsCodes.metricsUnauthorized,
        'A bearer of FIELDWORK_METRICS_TOKEN is required',
        {
          'www-authenticate': 'Bearer realm="fieldwork-metrics"',
        },
      );
    }
    if (isLoopback(request.socket.remoteAddress) && request.headers['x-forwarded-for'] === undefined) return;
    throw new ApiError(
      403,
      OperationsCodes.metricsForbidden,
      'Metrics are served to this machine only; set FIELDWORK_METRICS_TOKEN to scrape from elsewhere',
    );
  };
}

/** /metrics in Prometheus's text format, to whom metricsGuard lets in. */
function registerMetricsRoute(
  app: FastifyInstance,
  metrics: Pick<ReturnType<typeof createMetrics>, 'gather'>,
  metricsToken: string | undefined,
) {
  const allowed = metricsGuard(metricsToken);
  app.get('/metrics', async (request, reply) => {
    allowed(request);
    const families = await metrics.gather();
    return reply
      .header('cache-control', 'no-store')
      .type('text/plain; version=0.0.4; charset=utf-8')
      .send(render(families));
  });
}
