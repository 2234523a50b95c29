import { availableParallelism } from 'node:os';
import { domains } from './domains/index.ts';
import {
  type LoginLimitFigures,
  parseLoginLimits,
  parseTokenLimits,
  type TokenLimitFigures,
} from './platform/auth/tokenLimits.ts';
import { parseRateLimits, type RateLimitFigures } from './platform/rateLimit.ts';

/**
 * Everything the service reads from its environment (docs/operations.md, Configuration). A
 * domain's own settings are declared and read in its folder (`DomainModule.config`), which
 * adds its fields to this interface.
 */
export interface AppConfig {
  host: string;
  port: number;
  /** Public base URL (issuer of tokens, links). */
  publicUrl: string;
  /** PGlite data directory, or `memory://`. Ignored when databaseUrl is set. */
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema to work in (tests). */
  databaseSchema?: string;
  /**
   * FIELDWORK_DB_TIMEOUT_MS: the longest a request waits for a database connection and
   * for each statement (default 5000); past it, 503 `service.database.unavailable`.
   */
  dbTimeoutMs?: number;
  /** FIELDWORK_HEADERS_TIMEOUT_MS: a request's line and headers must arrive within it (default 10000); 408 otherwise. */
  headersTimeoutMs?: number;
  /** FIELDWORK_REQUEST_TIMEOUT_MS: the whole request, body included, within it (default 30000); 408 otherwise. */
  requestTimeoutMs?: number;
  redisUrl?: string;
  /**
   * Prefix of this deployment's keys in Redis (FIELDWORK_INSTANCE_ID), so that two
   * deployments sharing a Redis do not share budgets. Default: an id generated once and
   * kept in the database, so every process on one database shares its counters.
   */
  instanceId?: string;
  rateLimits: RateLimitFigures;
  /** Failed client authentications at /oauth/token (FIELDWORK_TOKEN_LIMITS). */
  tokenLimits?: TokenLimitFigures;
  /**
   * FIELDWORK_DEV_CONSOLE=1 (`npm run dev`): the console client also accepts the redirect
   * and origin addresses of vite's dev server (port 5173). Off in production.
   */
  devConsole?: boolean;
  /** Failed console sign-ins per login and per address (FIELDWORK_LOGIN_LIMITS). */
  loginLimits?: LoginLimitFigures;
  /**
   * Which peers' X-Forwarded-For is believed for the client address (FIELDWORK_TRUST_PROXY):
   * `true`, `false`, or addresses/CIDRs/`loopback`, as Fastify's trustProxy. Default
   * `loopback`: a reverse proxy on the same machine.
   */
  trustProxy?: boolean | string;
  /** Lifetime of application access tokens, seconds. */
  accessTokenTtl: number;
  logLevel: string;
  /** Directory of the built console (served at /). */
  consoleDir?: string;
  /** Check every success answer against the contract's response schema (tests). */
  validateResponses?: boolean;
  /** Service processes behind the port (FIELDWORK_WORKERS, main.ts); 1 by default. */
  workers?: number;
  /**
   * FIELDWORK_METRICS_TOKEN: the bearer token /metrics requires; without it /metrics answers
   * only peers on this machine that did not come through a proxy.
   */
  metricsToken?: string;
  /** FIELDWORK_SHUTDOWN_TIMEOUT: seconds a graceful shutdown may take before the process exits anyway (default 10). */
  shutdownTimeout?: number;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = Number(env.PORT ?? 8080);
  const host = env.HOST ?? '127.0.0.1';
  return {
    host,
    port,
    publicUrl: (env.PUBLIC_URL ?? `http://${host}:${port}`).replace(/\/$/, ''),
    dataDir: env.DATA_DIR ?? './data',
    databaseUrl: env.DATABASE_URL || undefined,
    dbTimeoutMs: parseMilliseconds('FIELDWORK_DB_TIMEOUT_MS', env.FIELDWORK_DB_TIMEOUT_MS),
    ...parseRequestTimeouts(env),
    redisUrl: env.REDIS_URL || undefined,
    instanceId: parseInstanceId(env.FIELDWORK_INSTANCE_ID),
    rateLimits: parseRateLimits(env.FIELDWORK_RATE_LIMITS),
    tokenLimits: parseTokenLimits(env.FIELDWORK_TOKEN_LIMITS),
    loginLimits: parseLoginLimits(env.FIELDWORK_LOGIN_LIMITS),
    devConsole: env.FIELDWORK_DEV_CONSOLE === '1',
    trustProxy: parseTrustProxy(env.FIELDWORK_TRUST_PROXY),
    accessTokenTtl: Number(env.FIELDWORK_TOKEN_TTL ?? 3600),
    logLevel: env.LOG_LEVEL ?? 'info',
    consoleDir: env.FIELDWORK_CONSOLE_DIR,
    workers: parseWorkers(env.FIELDWORK_WORKERS, env),
    metricsToken: parseMetricsToken(env.FIELDWORK_METRICS_TOKEN),
    shutdownTimeout: parseShutdownTimeout(env.FIELDWORK_SHUTDOWN_TIMEOUT),
    // Each domain's own settings, read in its folder.
    ...Object.assign({}, ...domains.map((d) => d.config?.(env))),
  };
}

/**
 * FIELDWORK_WORKERS: how many service processes share the port (node:cluster), a number
 * or `auto` (one per core). Several need PostgreSQL (PGlite is opened by one process) and
 * Redis (the rate limits and the token endpoint's counters are shared through it).
 */
export function parseWorkers(text: string | undefined, env: NodeJS.ProcessEnv = {}): number {
  const value = text?.trim();
  if (!value) return 1;
  const n = value === 'auto' ? availableParallelism() : Number(value);
  if (!Number.isSafeInteger(n) || n < 1 || n > 64)
    throw new Error(
      `FIELDWORK_WORKERS: a number of processes from 1 to 64, or auto; got ${JSON.stringify(text)}`,
    );
  if (n > 1 && !env.DATABASE_URL)
    throw new Error(
      'FIELDWORK_WORKERS: several processes need DATABASE_URL (PostgreSQL); a PGlite DATA_DIR is opened by one process',
    );
  if (n > 1 && !env.REDIS_URL)
    throw new Error(
      'FIELDWORK_WORKERS: several processes need REDIS_URL, where they share the rate limits and the token endpoint counters',
    );
  return n;
}

function parseInstanceId(text: string | undefined) {
  if (!text) return undefined;
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(text))
    throw new Error('FIELDWORK_INSTANCE_ID: 1 to 64 letters, digits, ".", "_" or "-"');
  return text;
}

function parseTrustProxy(text: string | undefined): boolean | string {
  const value = text?.trim();
  if (!value) return 'loopback';
  if (value === 'true' || value === 'false') return value === 'true';
  return value;
}

function parseMetricsToken(text: string | undefined) {
  if (!text) return undefined;
  if (text.length < 16) throw new Error('FIELDWORK_METRICS_TOKEN: at least 16 characters');
  return text;
}

export function parseShutdownTimeout(text: string | undefined): number {
  const value = text?.trim();
  if (!value) return 10;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 3600)
    throw new Error(
      `FIELDWORK_SHUTDOWN_TIMEOUT: seconds, above 0 and at most 3600; got ${JSON.stringify(text)}`,
    );
  return n;
}

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** FIELDWORK_HEADERS_TIMEOUT_MS and FIELDWORK_REQUEST_TIMEOUT_MS; the headers' may not be the longer. */
function parseRequestTimeouts(env: NodeJS.ProcessEnv) {
  const headersTimeoutMs = parseMilliseconds(
    'FIELDWORK_HEADERS_TIMEOUT_MS',
    env.FIELDWORK_HEADERS_TIMEOUT_MS,
  );
  const requestTimeoutMs = parseMilliseconds(
    'FIELDWORK_REQUEST_TIMEOUT_MS',
    env.FIELDWORK_REQUEST_TIMEOUT_MS,
  );
  if ((headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS) > (requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS))
    throw new Error(
      'FIELDWORK_HEADERS_TIMEOUT_MS: at most FIELDWORK_REQUEST_TIMEOUT_MS (the whole request includes its headers)',
    );
  return { headersTimeoutMs, requestTimeoutMs };
}

/** A duration in milliseconds from the environment (100 ms to 1 hour); undefined: the default. */
export function parseMilliseconds(name: string, text: string | undefined): number | undefined {
  const value = text?.trim();
  if (!value) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 100 || n > 3_600_000)
    throw new Error(`${name}: milliseconds, an integer from 100 to 3600000; got ${JSON.stringify(text)}`);
  return n;
}
