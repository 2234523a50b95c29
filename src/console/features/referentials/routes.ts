/**
 * The Referentials routes: list, new, detail and edit of each entity, from the paths
 * module, each with its search validation; pages load lazily (list, detail and form are
 * separate chunks, so a list does not load the form code).
 */
import { createRoute } from '@tanstack/react-router';
import type { RouteContext } from '../../app/feature.ts';
import { lazyPage } from '../../app/lazyPage.tsx';
import type { RootRoute } from '../../routes/root.tsx';
import { type ReferentialEntity, referentialPaths } from './paths.ts';
import { validateListSearch, validateNewRecordSearch } from './search.ts';

const NS = ['referentials', 'customFields'] as const;
const listPage = () => import('./pages/ListPage.tsx');
const detailPage = () => import('./pages/DetailPage.tsx');
const formPage = () => import('./pages/FormPage.tsx');

/** The four routes of an entity (paths passed as they are, so the routes keep their literal types). */
function entityRoutes<
  const L extends string,
  const N extends string,
  const D extends string,
  const Ed extends string,
>(
  root: RootRoute,
  { recordTabs }: RouteContext,
  entity: ReferentialEntity,
  p: { list: L; new: N; detail: D; edit: Ed },
) {
  return [
    createRoute({
      getParentRoute: () => root,
      path: p.list,
      validateSearch: validateListSearch,
      component: lazyPage(NS, listPage, 'ListPage', { entity }),
    }),
    createRoute({
      getParentRoute: () => root,
      path: p.new,
      validateSearch: validateNewRecordSearch,
      component: lazyPage(NS, formPage, 'CreatePage', { entity }),
    }),
    createRoute({
      getParentRoute: () => root,
      path: p.detail,
      component: lazyPage(NS, detailPage, 'DetailPage', { entity, tabs: recordTabs(entity) }),
    }),
    createRoute({
      getParentRoute: () => root,
      path: p.edit,
      component: lazyPage(NS, formPage, 'EditPage', { entity }),
    }),
  ] as const;
}

export const referentialRoutes = (root: RootRoute, context: RouteContext) =>
  [
    ...entityRoutes(root, context, 'customer', referentialPaths.customer),
    ...entityRoutes(root, context, 'site', referentialPaths.site),
    ...entityRoutes(root, context, 'asset', referentialPaths.asset),
  ] as const;
