import type { Route } from '../platform/routes.ts';
import { businessOrganizationRoutes } from './businessOrganization/routes.ts';
import { referentialsRoutes } from './referentials/routes.ts';
import { staffRoutes } from './staff/routes.ts';

/** Every implemented endpoint of the contract, by domain. */
export const routes: Route[] = [...referentialsRoutes, ...businessOrganizationRoutes, ...staffRoutes];
