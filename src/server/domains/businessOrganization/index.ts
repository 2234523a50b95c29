import type { DomainModule } from '../../platform/domain.ts';
import { businessOrganizationImporters } from './importers.ts';
import { businessOrganizationRoutes } from './routes.ts';
import type { BusinessOrganizationTables } from './tables.ts';

/** Business organization: the item catalog (spec endpoints 10-12). */
export const businessOrganization: DomainModule<BusinessOrganizationTables> = {
  name: 'businessOrganization',
  routes: businessOrganizationRoutes,
  importers: businessOrganizationImporters,
  migrations: new URL('./migrations/', import.meta.url),
};
