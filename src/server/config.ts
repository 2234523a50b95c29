import type { RateLimitFigures } from './platform/rateLimit.ts';
import { parseRateLimits } from './platform/rateLimit.ts';

/** Everything the service reads from its environment, in one place (README: Configuration). */
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
  redisUrl?: string;
  rateLimits: RateLimitFigures;
  /** Lifetime of application access tokens, seconds. */
  accessTokenTtl: number;
  logLevel: string;
  /** Directory of the built console (served at /). */
  consoleDir?: string;
  /** Check every success answer against the contract's response schema (tests). */
  validateResponses?: boolean;
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
    redisUrl: env.REDIS_URL || undefined,
    rateLimits: parseRateLimits(env.FIELDWORK_RATE_LIMITS),
    accessTokenTtl: Number(env.FIELDWORK_TOKEN_TTL ?? 3600),
    logLevel: env.LOG_LEVEL ?? 'info',
    consoleDir: env.FIELDWORK_CONSOLE_DIR,
  };
}
