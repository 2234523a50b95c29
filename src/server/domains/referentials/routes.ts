import type { Route } from '../../platform/routes.ts';

export const referentialsRoutes: Route[] = [];
