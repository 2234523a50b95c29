import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { endpoints } from '../contract/index.ts';
import type { AppConfig } from './config.ts';
import { type DbHandle, openDatabase } from './db/index.ts';
import { domains } from './domains/index.ts';
import { registerAuth } from './platform/auth/index.ts';
import { meRoute } from './platform/auth/meRoute.ts';
import { registerConsole } from './platform/console.ts';
import { frameworkErrors, registerErrorHandling } from './platform/errors.ts';
import { registerOpenApi } from './platform/openapi.ts';
import { PageTokens } from './platform/pagination.ts';
import { createRateLimiter, type RateLimiterOptions } from './platform/rateLimit.ts';
import { type RouteDeps, registerRoutes } from './platform/routes.ts';
import { instanceSecret } from './platform/secrets.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** routeDeps: what registerRoutes needs, for routes added after buildApp (tests). */
    fieldwork: { config: AppConfig; dbh: DbHandle; routeDeps?: RouteDeps };
  }
}

/** Builds the whole service; tests call it in-process and use `inject`. */
export async function buildApp(
  config: AppConfig,
  options: { logger?: boolean | object; rateLimit?: RateLimiterOptions } = {},
): Promise<FastifyInstance> {
  const dbh = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    schema: config.databaseSchema,
  });
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, redact: ['req.headers.authorization'] },
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    // Codes are up to 10000 characters (spec), percent-encoded up to three times that.
    routerOptions: { maxParamLength: 32 * 1024 },
    frameworkErrors,
  });
  app.decorate('fieldwork', { config, dbh });

  registerErrorHandling(app);
  // Bodies are kept as text: each endpoint parses them strictly, with its own error codes.
  app.removeAllContentTypeParsers();
  const keepText = (_req: unknown, body: string | Buffer, done: (err: null, body: string) => void) =>
    done(null, body.toString());
  app.addContentTypeParser('application/json', { parseAs: 'string' }, keepText);
  app.addContentTypeParser(/^application\/[\w.+-]*\+json$/, { parseAs: 'string' }, keepText);

  const auth = await registerAuth(app, {
    db: dbh.db,
    publicUrl: config.publicUrl,
    accessTokenTtl: config.accessTokenTtl,
  });
  const limiter = createRateLimiter(config.rateLimits, { redisUrl: config.redisUrl, ...options.rateLimit });
  const tokens = new PageTokens(await instanceSecret(dbh.db, 'pagination.hmac'));

  const routeDeps: RouteDeps = {
    db: dbh.db,
    tokens,
    guards: { authenticate: auth.authenticate, rateLimit: limiter.check },
    validateResponses: config.validateResponses,
  };
  registerRoutes(app, [meRoute, ...domains.flatMap((d) => d.routes)], routeDeps);
  await registerOpenApi(app, endpoints);
  app.fieldwork.routeDeps = routeDeps;
  // The built console at / (after the API routes, whose paths win).
  await registerConsole(app, config.consoleDir);

  app.addHook('onClose', async () => {
    await limiter.close();
    await dbh.close();
  });
  return app;
}
