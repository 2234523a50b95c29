import type { DomainModule } from '../../platform/domain.ts';
import { rosteringImporters } from './importers.ts';
import type { RosteringTables } from './tables.ts';

/** Rostering: field resources (technicians), and later slots, areas and crews (spec endpoints 5-6). */
export const rostering: DomainModule<RosteringTables> = {
  name: 'rostering',
  routes: [],
  importers: rosteringImporters,
  migrations: new URL('./migrations/', import.meta.url),
};
