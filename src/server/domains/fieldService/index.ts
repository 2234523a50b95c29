import type { DomainModule } from '../../platform/domain.ts';
import { fieldServiceCommands } from './commands.ts';
import { fieldServiceImporters } from './importers.ts';
import { fieldServiceRoutes } from './routes.ts';
import type { FieldServiceTables } from './tables.ts';

/**
 * Field service: the work order model and its types, the used items of a work order (spec
 * endpoint 4), and the console's work order extensions (read, list, validate, delete).
 */
export const fieldService: DomainModule<FieldServiceTables> = {
  name: 'fieldService',
  routes: fieldServiceRoutes,
  importers: fieldServiceImporters,
  migrations: new URL('./migrations/', import.meta.url),
  commands: fieldServiceCommands,
};
