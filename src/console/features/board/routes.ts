/** The board's route: its search validation and its lazily loaded page. */
import { createRoute } from '@tanstack/react-router';
import { lazyPage } from '../../app/lazyPage.tsx';
import type { RootRoute } from '../../routes/root.tsx';
import { boardPaths as paths } from './paths.ts';
import { validateBoardSearch } from './search.ts';

const NS = ['board'] as const;

export const boardRoutes = (root: RootRoute) =>
  [
    createRoute({
      getParentRoute: () => root,
      path: paths.board,
      validateSearch: validateBoardSearch,
      component: lazyPage(NS, () => import('./pages/BoardPage.tsx'), 'BoardPage'),
    }),
  ] as const;
