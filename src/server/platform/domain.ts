import type { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import type { BuildOptions } from '../app.ts';
import type { AppConfig } from '../config.ts';
import type { Db, DbHandle } from '../db/index.ts';
import type { Importer } from './importer.ts';
import type { Operations } from './operations.ts';
import type { Route } from './routes.ts';

/** What the operator's command line lends a domain's commands (`cli/context.ts`). */
export interface CommandHost {
  /** Runs `fn` on the service's database, held for the command's duration. */
  withDb<T>(command: string, fn: (db: Db) => Promise<T>): Promise<T>;
  stdout(text: string): void;
  /** An error the command line reports as `fieldwork: <message>`, exit code 1. */
  failure(message: string): Error;
}

/** What the service lends a domain's background work when it starts (`DomainModule.start`). */
export interface DomainContext {
  /** The service: its log, its decorations (a domain may decorate it for its routes). */
  app: FastifyInstance;
  dbh: DbHandle;
  config: AppConfig;
  /** The service's metrics (platform/operations.ts). */
  operations: Operations;
  /** What the caller of buildApp passed (tests: clocks, resolvers). */
  options: BuildOptions;
}

/** Undoes a domain's start: called once when the service closes, before the database does. */
export type StopDomain = () => Promise<void> | void;

/**
 * A business domain of the spec, as one folder `src/server/domains/<name>/` whose
 * `index.ts` exports this module. The registry (`domains/index.ts`) lists the modules; the
 * service registers their routes, the import command their keys, the migrator their SQL
 * files, the `fieldwork` command their commands, and `db/schema.ts` their table types,
 * from that one list. Inside the folder,
 * `routes.ts` speaks HTTP and calls `service.ts` (the rules), which calls `queries.ts` (SQL).
 */
export interface DomainModule<Tables = object> {
  name: string;
  /** The rows of the contract this domain implements, with their handlers. */
  routes: Route[];
  /** Keys of the import file this domain owns. */
  importers?: Importer[];
  /**
   * Folder of the domain's numbered `.sql` migrations (`NNN_name.sql`). Numbers are global:
   * every file of every domain is applied once, in number order.
   */
  migrations?: URL;
  /** The domain's commands of the operator's command line (`fieldwork <group> <verb>`). */
  commands?: (program: Command, cli: CommandHost) => void;
  /**
   * The domain's settings read from the environment, merged into the service's AppConfig by
   * `configFromEnv`. A domain declares its fields on AppConfig in its own folder
   * (`declare module '../../config.ts'`), so no shared file names them.
   */
  config?: (env: NodeJS.ProcessEnv) => Partial<AppConfig>;
  /**
   * The domain's background work (a worker, a hub, a pruner), started by buildApp once the
   * routes are registered, for every domain in the registry's order; the stop it returns
   * is called when the service closes, in the reverse order, before the database closes.
   */
  start?: (ctx: DomainContext) => Promise<StopDomain | undefined> | StopDomain | undefined;
  /**
   * What the domain does while a command of the command line holds the database (the change
   * log tells the service processes of the command's commits); the stop it returns is called
   * before the command closes the database. `warn` prints a warning of the command.
   */
  commandSession?: (dbh: DbHandle, warn: (message: string) => void) => StopDomain;
  /** Type only (never set): the Kysely types of the domain's tables, merged into `Database`. */
  readonly tables?: Tables;
}

/**
 * Runs each module's `start` in the given (the registry's) order; the function returned
 * stops them in the reverse order, once. A start that fails stops the ones already started,
 * then throws.
 */
export async function startDomains(
  modules: readonly Pick<DomainModule, 'start'>[],
  ctx: DomainContext,
): Promise<() => Promise<void>> {
  const stops: StopDomain[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    for (const module of modules) {
      const stop = await module.start?.(ctx);
      if (stop) stops.push(stop);
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  return stopAll;
}
