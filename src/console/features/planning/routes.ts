/**
 * The planning routes from the paths module, each with its search validation; each page is
 * its own lazily loaded chunk (the crews timeline does not load the planner's form code).
 */
import { createRoute } from '@tanstack/react-router';
import { lazyPage } from '../../app/lazyPage.tsx';
import type { RootRoute } from '../../routes/root.tsx';
import { planningPaths as paths } from './paths.ts';
import { validateCrewsSearch, validatePlannerSearch } from './search.ts';

const NS = ['planning'] as const;

export const planningRoutes = (root: RootRoute) =>
  [
    createRoute({
      getParentRoute: () => root,
      path: paths.planner,
      validateSearch: validatePlannerSearch,
      component: lazyPage(NS, () => import('./pages/PlannerPage.tsx'), 'PlannerPage'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.crews,
      validateSearch: validateCrewsSearch,
      component: lazyPage(NS, () => import('./pages/CrewsPage.tsx'), 'CrewsPage'),
    }),
  ] as const;
