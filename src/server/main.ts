/**
 * Process entry of the service: `node dist/server/main.js` (npm start builds it first), or
 * `node --import tsx src/server/main.ts` in development. Reads the configuration from the
 * environment (docs/operations.md, Deployment), listens, and on SIGINT/SIGTERM stops accepting
 * requests, finishes the ones in flight and the webhook deliveries in flight, and closes
 * the database before exiting 0 (or 1 after FIELDWORK_SHUTDOWN_TIMEOUT seconds).
 *
 * FIELDWORK_WORKERS=N (PostgreSQL and Redis): this process becomes the primary of a
 * node:cluster that starts N service processes sharing the port (the primary accepts the
 * connections and hands them round to the workers), starts again one that dies, and stops
 * them all on SIGINT/SIGTERM.
 */
import cluster, { type Worker } from 'node:cluster';
import { buildApp } from './app.ts';
import { DataDirHeldError, holdDataDir } from './cli/serviceLock.ts';
import { type AppConfig, configFromEnv } from './config.ts';
import { serveClusterMetrics } from './platform/clusterMetrics.ts';

/** Set in a worker's environment by the primary. */
const WORKER_ENV = 'FIELDWORK_CLUSTER_WORKER';

async function main() {
  const config = configFromEnv();
  const workers = config.workers ?? 1;
  if (workers > 1 && cluster.isPrimary) return primary(config, workers);
  return serve(config, Boolean(process.env[WORKER_ENV]));
}

function storageOf(config: AppConfig) {
  return config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
}

function readyLine(config: AppConfig, port: number | undefined, extra = '') {
  process.stderr.write(
    `Fieldwork is running (http://${config.host}:${port ?? config.port}, ${storageOf(config)}${extra}): console ${config.publicUrl}/  API docs ${config.publicUrl}/docs\n`,
  );
}

/** The primary of FIELDWORK_WORKERS processes: forks, restarts, stops them. */
function primary(config: AppConfig, count: number) {
  const say = (line: string) => process.stderr.write(`fieldwork: ${line}\n`);
  let stopping = false;
  let announced = false;
  const listening = new Set<number>();
  const restarts: number[] = [];
  const fork = () => cluster.fork({ [WORKER_ENV]: '1' });
  // A scrape of /metrics reaches one worker, which gathers every worker's figures here.
  serveClusterMetrics();
  const stopWithin = (config.shutdownTimeout ?? 10) + 5;

  cluster.on('listening', (worker: Worker, address) => {
    listening.add(worker.id);
    if (!announced && listening.size >= count) {
      announced = true;
      readyLine(config, address.port, `, ${count} processes`);
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    listening.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    // A worker that dies is replaced; one that keeps dying at once stops the service.
    const now = Date.now();
    restarts.push(now);
    while (restarts.length && restarts[0] < now - 60_000) restarts.shift();
    if (restarts.length > 5 * count) {
      say(`worker ${worker.process.pid} exited (${signal ?? code}); too many restarts in a minute, stopping`);
      process.exit(1);
    }
    say(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(fork, 500);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
    if (alive.length === 0) process.exit(0);
    for (const w of alive) w.process.kill(signal);
    setTimeout(() => {
      say(`workers took longer than ${stopWithin} s to stop; exiting`);
      process.exit(1);
    }, stopWithin * 1000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  for (let i = 0; i < count; i++) fork();
}

async function serve(config: AppConfig, worker: boolean) {
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
    // From now on /readyz answers 503 and new requests are refused; the server stops
    // accepting connections, the requests in flight finish, then the webhook deliveries in
    // flight finish and are recorded, then the database closes (app.ts onClose).
    app.fieldwork.operations?.beginShutdown();
    const timeout = config.shutdownTimeout ?? 10;
    app.log.info({ signal, timeoutSeconds: timeout }, 'shutting down');
    // A close that hangs ends the process anyway.
    const force = setTimeout(() => {
      app.log.error(`shutdown took longer than ${timeout} s; exiting`);
      release();
      process.exit(1);
    }, timeout * 1000);
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
  app.log.info({ publicUrl: config.publicUrl, storage: storageOf(config) }, 'listening');
  // One plain line for the operator (the log lines above are JSON); the primary says it
  // for its workers.
  if (!worker) {
    const address = app.server.address();
    readyLine(config, typeof address === 'object' && address ? address.port : undefined);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
