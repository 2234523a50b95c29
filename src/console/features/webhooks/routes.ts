/**
 * The Webhooks routes from the paths module; pages load lazily (the subscriptions list and
 * a subscription's delivery log do not load the form code; the creation form does).
 */
import { createRoute } from '@tanstack/react-router';
import type { RouteContext } from '../../app/feature.ts';
import { lazyPage } from '../../app/lazyPage.tsx';
import type { RootRoute } from '../../routes/root.tsx';
import { webhooksPaths as paths } from './paths.ts';
import { validateSubscriptionSearch } from './search.ts';

const NS = ['webhooks'] as const;

export const webhooksRoutes = (root: RootRoute, { recordTabs }: RouteContext) =>
  [
    createRoute({
      getParentRoute: () => root,
      path: paths.subscription.list,
      component: lazyPage(NS, () => import('./pages/SubscriptionsPage.tsx'), 'SubscriptionsPage'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.subscription.new,
      component: lazyPage(NS, () => import('./pages/NewSubscriptionPage.tsx'), 'NewSubscriptionPage'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.subscription.detail,
      validateSearch: validateSubscriptionSearch,
      component: lazyPage(NS, () => import('./pages/SubscriptionPage.tsx'), 'SubscriptionPage', {
        tabs: recordTabs('subscription'),
      }),
    }),
  ] as const;
