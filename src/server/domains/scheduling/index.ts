import type { DomainModule } from '../../platform/domain.ts';
import { schedulingRoutes } from './routes.ts';
import type { SchedulingTables } from './tables.ts';

/** Scheduling: schedule a work order on a technician or a crew, and read its scheduling data. */
export const scheduling: DomainModule<SchedulingTables> = {
  name: 'scheduling',
  routes: schedulingRoutes,
  migrations: new URL('./migrations/', import.meta.url),
};
