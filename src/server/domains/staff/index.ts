import type { DomainModule } from '../../platform/domain.ts';
import { staffImporters } from './importers.ts';
import { staffRoutes } from './routes.ts';
import type { StaffTables } from './tables.ts';

/** Staff: skills and characteristics (spec endpoints 7-9). */
export const staff: DomainModule<StaffTables> = {
  name: 'staff',
  routes: staffRoutes,
  importers: staffImporters,
  migrations: new URL('./migrations/', import.meta.url),
};
