import type { Route } from '../../platform/routes.ts';

export const staffRoutes: Route[] = [];
