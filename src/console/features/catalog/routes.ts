/**
 * The Catalog routes from the paths module, each with its search validation; pages load
 * lazily (the items list, the item page and the item form are separate chunks).
 */
import { createRoute } from '@tanstack/react-router';
import type { RouteContext } from '../../app/feature.ts';
import { lazyPage } from '../../app/lazyPage.tsx';
import type { RootRoute } from '../../routes/root.tsx';
import { catalogPaths as paths } from './paths.ts';
import { validateItemNewSearch, validateItemsSearch, validateTextSearch } from './search.ts';

const NS = ['catalog', 'customFields'] as const;

export const catalogRoutes = (root: RootRoute, { recordTabs }: RouteContext) =>
  [
    createRoute({
      getParentRoute: () => root,
      path: paths.item.list,
      validateSearch: validateItemsSearch,
      component: lazyPage(NS, () => import('./pages/ItemsPage.tsx'), 'ItemsPage'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.item.new,
      validateSearch: validateItemNewSearch,
      component: lazyPage(NS, () => import('./pages/ItemFormPage.tsx'), 'ItemCreatePage'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.item.detail,
      component: lazyPage(NS, () => import('./pages/ItemDetailPage.tsx'), 'ItemDetailPage', {
        tabs: recordTabs('item'),
      }),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.item.edit,
      component: lazyPage(NS, () => import('./pages/ItemFormPage.tsx'), 'ItemEditPage'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.skill.list,
      validateSearch: validateTextSearch,
      component: lazyPage(NS, () => import('./pages/SkillsPage.tsx'), 'SkillsPage', {
        tabs: recordTabs('skill'),
      }),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.characteristic.list,
      validateSearch: validateTextSearch,
      component: lazyPage(NS, () => import('./pages/CharacteristicsPage.tsx'), 'CharacteristicsPage'),
    }),
  ] as const;
