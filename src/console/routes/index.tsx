/**
 * The console's routes (code-based). Every page is loaded lazily, one chunk per domain
 * (referentials.tsx, catalog.tsx, pages/HomePage.tsx), so the sign-in and the shell load
 * alone. Paths of the Referentials pages match features/referentials/paths.ts; those of
 * the Catalog match features/catalog/paths.ts.
 */
import {
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
} from '@tanstack/react-router';
import { AppLayout } from '../components/layout/AppLayout.tsx';
import { ErrorState } from '../components/layout/ErrorState.tsx';
import { LoadingState } from '../components/layout/LoadingState.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { itemFormSearch, itemsSearch, listSearch, newRecordSearch } from './search.ts';

const rootRoute = createRootRoute({
  component: () => (
    <AppLayout>
      <Outlet />
    </AppLayout>
  ),
  notFoundComponent: NotFoundPage,
});

const home = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  component: lazyRouteComponent(() => import('./pages/HomePage.tsx'), 'HomePage'),
});

/* Referentials: list, new, detail, edit for customers, sites and assets. */
const referentials = () => import('./referentials.tsx');
type RefExport = keyof Awaited<ReturnType<typeof referentials>>;
const ref = (name: RefExport) => lazyRouteComponent(referentials, name);

function referentialRoutes(
  segment: 'customers' | 'sites' | 'assets',
  names: [RefExport, RefExport, RefExport, RefExport],
) {
  const base = `/referentials/${segment}` as const;
  return [
    createRoute({
      getParentRoute: () => rootRoute,
      path: base,
      validateSearch: listSearch,
      component: ref(names[0]),
    }),
    createRoute({
      getParentRoute: () => rootRoute,
      path: `${base}/new`,
      validateSearch: newRecordSearch,
      component: ref(names[1]),
    }),
    createRoute({ getParentRoute: () => rootRoute, path: `${base}/$code`, component: ref(names[2]) }),
    createRoute({ getParentRoute: () => rootRoute, path: `${base}/$code/edit`, component: ref(names[3]) }),
  ] as const;
}

/* Business organization: the catalog (items) and the staff referential (skills, characteristics). */
const catalog = () => import('./catalog.tsx');
type CatalogExport = keyof Awaited<ReturnType<typeof catalog>>;
const cat = (name: CatalogExport) => lazyRouteComponent(catalog, name);
const catalogRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/catalog/items',
    validateSearch: itemsSearch,
    component: cat('Items'),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/catalog/items/new',
    validateSearch: itemFormSearch,
    component: cat('ItemNew'),
  }),
  createRoute({ getParentRoute: () => rootRoute, path: '/catalog/items/$code', component: cat('ItemEdit') }),
  createRoute({ getParentRoute: () => rootRoute, path: '/staff/skills', component: cat('Skills') }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/staff/characteristics',
    component: cat('Characteristics'),
  }),
] as const;

const routeTree = rootRoute.addChildren([
  home,
  ...referentialRoutes('customers', ['CustomersList', 'CustomerNew', 'CustomerDetail', 'CustomerEdit']),
  ...referentialRoutes('sites', ['SitesList', 'SiteNew', 'SiteDetail', 'SiteEdit']),
  ...referentialRoutes('assets', ['AssetsList', 'AssetNew', 'AssetDetail', 'AssetEdit']),
  ...catalogRoutes,
]);

export const router = createRouter({
  routeTree,
  defaultPreload: 'intent',
  defaultPendingComponent: () => <LoadingState />,
  // A page that throws (or whose chunk fails to load) keeps the shell around its error.
  defaultErrorComponent: ({ error, reset }) => <ErrorState error={error} onRetry={reset} />,
  defaultPendingMs: 150,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
