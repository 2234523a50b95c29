/**
 * The root route: the shell (header, navigation, palette) around every page, and the
 * not-found page. Features hang their routes under it (their `routes(root)`).
 */
import { createRootRoute, Outlet } from '@tanstack/react-router';
import { AppLayout } from '../shell/AppLayout.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';

export const rootRoute = createRootRoute({
  component: () => (
    <AppLayout>
      <Outlet />
    </AppLayout>
  ),
  notFoundComponent: NotFoundPage,
});

export type RootRoute = typeof rootRoute;
