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

/**
 * Field service's table read inside other domains' statements (one round trip): the order
 * and filter of work orders named by code, and its types; the schedule written by scheduling.
 */
export {
  clearSchedule,
  keyText,
  NAMED_ORDER,
  namedWorkOrdersSql,
  namedWorkOrderWhere,
  workOrderTypeByCode,
  writeSchedule,
} from './queries.ts';
/* The public face: what other domains may use of field service (biome.json forbids the rest). */
/** A work order as the paths of every domain name it (`code:` the live one, `uuid:` that one). */
export {
  findWorkOrder,
  refKey,
  refOf,
  resolveWorkOrders,
  scheduledEnd,
  type WorkOrderRef,
  type WorkOrderRow,
} from './service.ts';
