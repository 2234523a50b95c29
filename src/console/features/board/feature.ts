/**
 * The dispatch board (issue 28, 3): every technician of the caller's tree over a day or a
 * week, their scheduled work orders as bars, and the queue of work orders to schedule,
 * dragged onto a technician and a time. In the planning section of the navigation (the
 * group is shared by id); for planners and admins: whoever holds scheduling:write (app/permissions.ts).
 */
import { IconLayoutBoardSplit } from '@tabler/icons-react';
import { defineFeature } from '../../app/feature.ts';
import { shell } from './i18n/shell.ts';
import { boardPaths as paths } from './paths.ts';
import { boardRoutes } from './routes.ts';

export const board = defineFeature({
  id: 'board',
  i18n: {
    shell,
    load: { en: () => import('./i18n/en.ts'), fr: () => import('./i18n/fr.ts') },
  },
  nav: [
    {
      id: 'rostering',
      // The same group as the planner's (merged by id; its label is planning's, this one says the same).
      label: 'board:nav.section',
      order: 30,
      items: [
        {
          label: 'board:nav.board',
          to: paths.board,
          icon: IconLayoutBoardSplit,
          description: 'board:home.board',
          // Dispatching is scheduling (planners and admins): a role without it has nothing to do there.
          requires: 'scheduling:write',
        },
      ],
    },
  ],
  resources: [],
  routes: boardRoutes,
});
