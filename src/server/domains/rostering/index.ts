import type { DomainModule } from '../../platform/domain.ts';
import { rosteringImporters } from './importers.ts';
import { rosteringRoutes } from './routes.ts';
import type { RosteringTables } from './tables.ts';

/** Rostering: technicians (field resources) and their calendars, areas and crews (spec endpoint 6). */
export const rostering: DomainModule<RosteringTables> = {
  name: 'rostering',
  routes: rosteringRoutes,
  importers: rosteringImporters,
  migrations: new URL('./migrations/', import.meta.url),
};
