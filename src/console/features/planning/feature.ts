/**
 * The Planning feature (spec: Rostering and Scheduling): the planner (slot search for a work
 * order, or a type and a place; slots on a timeline and as a list; scheduling one) and the
 * crews over a period. Neither page lists records of its own (no resource: the crews list
 * needs a period, which the palette cannot give).
 */
import { IconCalendarSearch, IconUsersGroup } from '@tabler/icons-react';
import { defineFeature } from '../../app/feature.ts';
import { shell } from './i18n/shell.ts';
import { planningPaths as paths } from './paths.ts';
import { planningRoutes } from './routes.ts';

export const planning = defineFeature({
  id: 'planning',
  i18n: {
    shell,
    load: { en: () => import('./i18n/en.ts'), fr: () => import('./i18n/fr.ts') },
  },
  nav: [
    {
      id: 'rostering',
      label: 'planning:nav.section',
      order: 30,
      items: [
        {
          label: 'planning:nav.planner',
          to: paths.planner,
          icon: IconCalendarSearch,
          description: 'planning:home.planner',
          // The slot search is a POST (slots:write): a role without it has nothing to do there.
          requires: 'slots:write',
        },
        {
          label: 'planning:nav.crews',
          to: paths.crews,
          icon: IconUsersGroup,
          description: 'planning:home.crews',
        },
      ],
    },
  ],
  resources: [],
  tabs: [
    {
      resource: 'workOrder',
      key: 'planning',
      label: 'planning:tab.workOrder',
      load: () => import('./components/WorkOrderPlanningPanel.tsx').then((m) => m.WorkOrderPlanningPanel),
    },
  ],
  routes: planningRoutes,
});
