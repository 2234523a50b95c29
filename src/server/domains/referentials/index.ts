import type { DomainModule } from '../../platform/domain.ts';
import { referentialsImporters } from './importers.ts';
import { referentialsRoutes } from './routes.ts';
import type { ReferentialsTables } from './tables.ts';

/** Referentials: customers, sites, assets (spec endpoints 13-18) and the console's lists. */
export const referentials: DomainModule<ReferentialsTables> = {
  name: 'referentials',
  routes: referentialsRoutes,
  importers: referentialsImporters,
  migrations: new URL('./migrations/', import.meta.url),
};
