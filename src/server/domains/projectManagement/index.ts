import type { DomainModule } from '../../platform/domain.ts';
import { projectManagementImporters } from './importers.ts';
import { projectManagementRoutes } from './routes.ts';
import { projectManagementConfig } from './settings.ts';
import type { ProjectManagementTables } from './tables.ts';

/**
 * Project management: projects (phases, tasks, work orders, dependencies) and service orders
 * (standard, route, multi-equipment), the three link operations (spec endpoints 19-21) and
 * the reads the console's linker needs.
 */
export const projectManagement: DomainModule<ProjectManagementTables> = {
  name: 'projectManagement',
  routes: projectManagementRoutes,
  importers: projectManagementImporters,
  migrations: new URL('./migrations/', import.meta.url),
  config: projectManagementConfig,
};
