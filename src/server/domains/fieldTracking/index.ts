import type { DomainModule } from '../../platform/domain.ts';
import { fieldTrackingImporters } from './importers.ts';
import { fieldTrackingRoutes } from './routes.ts';
import type { FieldTrackingTables } from './tables.ts';

/** Field tracking: technician positions (spec endpoint 1) and work order activities (endpoints 2-3). */
export const fieldTracking: DomainModule<FieldTrackingTables> = {
  name: 'fieldTracking',
  routes: fieldTrackingRoutes,
  importers: fieldTrackingImporters,
  migrations: new URL('./migrations/', import.meta.url),
};
