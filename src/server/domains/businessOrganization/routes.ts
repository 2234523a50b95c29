import type { Route } from '../../platform/routes.ts';

export const businessOrganizationRoutes: Route[] = [];
