/**
 * The Project management routes from the paths module, each with its search validation;
 * pages load lazily (the lists, the project linker and the service order linker are separate
 * chunks; the graph loads with the first graph shown, elkjs with its first layout).
 */
import { createRoute } from '@tanstack/react-router';
import type { RouteContext } from '../../app/feature.ts';
import { lazyPage } from '../../app/lazyPage.tsx';
import type { RootRoute } from '../../routes/root.tsx';
import { projectPaths as paths } from './paths.ts';
import { validateLinkerSearch, validateListSearch } from './search.ts';

const NS = ['projects'] as const;
const serviceOrdersPage = () => import('./pages/ServiceOrdersPage.tsx');
const serviceOrderLinkerPage = () => import('./pages/ServiceOrderLinkerPage.tsx');

export const projectRoutes = (root: RootRoute, { recordTabs }: RouteContext) =>
  [
    createRoute({
      getParentRoute: () => root,
      path: paths.project.list,
      validateSearch: validateListSearch,
      component: lazyPage(NS, () => import('./pages/ProjectsPage.tsx'), 'ProjectsPage'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.project.detail,
      validateSearch: validateLinkerSearch,
      component: lazyPage(NS, () => import('./pages/ProjectLinkerPage.tsx'), 'ProjectLinkerPage', {
        tabs: recordTabs('project'),
      }),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.standard.list,
      validateSearch: validateListSearch,
      component: lazyPage(NS, serviceOrdersPage, 'ServiceOrdersPage', { kind: 'standard' }),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.standard.detail,
      component: lazyPage(NS, serviceOrderLinkerPage, 'ServiceOrderLinkerPage', {
        kind: 'standard',
        tabs: recordTabs('standardServiceOrder'),
      }),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.route.list,
      validateSearch: validateListSearch,
      component: lazyPage(NS, serviceOrdersPage, 'ServiceOrdersPage', { kind: 'route' }),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.route.detail,
      component: lazyPage(NS, serviceOrderLinkerPage, 'ServiceOrderLinkerPage', {
        kind: 'route',
        tabs: recordTabs('routeServiceOrder'),
      }),
    }),
  ] as const;
