import type { DomainModule } from '../../platform/domain.ts';
import { schedulingRoutes } from './routes.ts';

/**
 * Scheduling: schedule a work order on a technician or a crew, and read its scheduling data.
 * It owns no table: the schedule is the work order's (field service's writeSchedule).
 */
export const scheduling: DomainModule = {
  name: 'scheduling',
  routes: schedulingRoutes,
};
