import type { Command } from 'commander';
import type { Db } from '../db/index.ts';
import type { Importer } from './importer.ts';
import type { Route } from './routes.ts';

/** What the operator's command line lends a domain's commands (`cli/context.ts`). */
export interface CommandHost {
  /** Runs `fn` on the service's database, held for the command's duration. */
  withDb<T>(command: string, fn: (db: Db) => Promise<T>): Promise<T>;
  stdout(text: string): void;
  /** An error the command line reports as `fieldwork: <message>`, exit code 1. */
  failure(message: string): Error;
}

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
  /** Type only (never set): the Kysely types of the domain's tables, merged into `Database`. */
  readonly tables?: Tables;
}
