/**
 * Process entry of the service: `node --import tsx src/server/main.ts` (npm start runs it).
 * Reads the configuration from the environment (README: Configuration), listens, and on
 * SIGINT/SIGTERM stops accepting requests, finishes the ones in flight and closes the
 * database before exiting.
 */
import { buildApp } from './app.ts';
import { DataDirHeldError, holdDataDir } from './cli/serviceLock.ts';
import { configFromEnv } from './config.ts';

async function main() {
  const config = configFromEnv();
  let release: () => void;
  try {
    release = holdDataDir(config);
  } catch (e) {
    if (e instanceof DataDirHeldError) {
      console.error(`fieldwork: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
  process.on('exit', () => release());

  const app = await buildApp(config);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A second signal, or a close that hangs, ends the process anyway.
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      release();
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
      release();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error while shutting down');
      release();
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    app.log.error({ err }, 'cannot listen');
    await app.close().catch(() => {});
    release();
    process.exit(1);
  }
  const storage = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
  app.log.info({ publicUrl: config.publicUrl, storage }, 'listening');
  // One plain line for the operator (the log lines above are JSON).
  const address = app.server.address();
  const listening = typeof address === 'object' && address ? `http://${config.host}:${address.port}` : '';
  process.stderr.write(
    `Fieldwork is running (${listening}, ${storage}): console ${config.publicUrl}/  API docs ${config.publicUrl}/docs\n`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
