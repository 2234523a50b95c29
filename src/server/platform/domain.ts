import type { Importer } from './importer.ts';
import type { Route } from './routes.ts';

/**
 * A business domain of the spec, as one folder `src/server/domains/<name>/` whose
 * `index.ts` exports this module. The registry (`domains/index.ts`) lists the modules; the
 * service registers their routes, the import command their keys, the migrator their SQL
 * files, and `db/schema.ts` their table types, from that one list. Inside the folder,
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
  /** Type only (never set): the Kysely types of the domain's tables, merged into `Database`. */
  readonly tables?: Tables;
}
