/**
 * The route tree: Home, then every feature's routes (features/index.ts), under the shell's
 * root route. Pages load lazily per route, so the sign-in and the shell load alone.
 */
import { createRoute, createRouter } from '@tanstack/react-router';
import type { RecordTab, RouteContext } from '../app/feature.ts';
import { lazyPage } from '../app/lazyPage.tsx';
import { ErrorState } from '../components/layout/ErrorState.tsx';
import { LoadingState } from '../components/layout/LoadingState.tsx';
import { FEATURES } from '../features/index.ts';
import { HOME_PATH } from './paths.ts';
import { rootRoute } from './root.tsx';

const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: HOME_PATH,
  component: lazyPage([], () => import('./pages/HomePage.tsx'), 'HomePage'),
});

/** The tabs each feature adds to record pages, by resource, with the strings their panels need. */
const recordTabs: RecordTab[] = FEATURES.flatMap((f) =>
  (f.tabs ?? []).map((tab) => ({ ...tab, namespaces: [f.id, ...(f.uses ?? [])] })),
);
const context: RouteContext = {
  recordTabs: (resource) => recordTabs.filter((tab) => tab.resource === resource),
};

/** Any route a feature declares. */
type FeatureRoute = ReturnType<(typeof FEATURES)[number]['routes']>[number];
const featureRoutes = FEATURES.flatMap<FeatureRoute>((f) => f.routes(rootRoute, context));

const routeTree = rootRoute.addChildren([homeRoute, ...featureRoutes]);

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
