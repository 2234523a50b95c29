/**
 * The Project management feature (spec: Project management, endpoints 19 to 21): the
 * projects, standard and route service orders (lists searched by code), the project linker
 * (jobs grouped under phases, drag to reorder, add by code, the dependency graph) and the
 * service order linker (work orders in order, with the maximum and status rules).
 */
import { IconCalendarStats, IconClipboardList, IconRoute } from '@tabler/icons-react';
import { defineFeature } from '../../app/feature.ts';
import { shell } from './i18n/shell.ts';
import { projectPaths as paths } from './paths.ts';
import { projectRoutes } from './routes.ts';

const BASE = '/eTech/rest/ws/projectManagement/v1';

export const projects = defineFeature({
  id: 'projects',
  i18n: {
    shell,
    load: { en: () => import('./i18n/en.ts'), fr: () => import('./i18n/fr.ts') },
  },
  nav: [
    {
      id: 'projectManagement',
      label: 'projects:nav.section',
      order: 80,
      items: [
        {
          label: 'projects:nav.projects',
          to: paths.project.list,
          icon: IconCalendarStats,
          resource: 'project',
        },
        {
          label: 'projects:nav.standard',
          to: paths.standard.list,
          icon: IconClipboardList,
          resource: 'standardServiceOrder',
        },
        { label: 'projects:nav.route', to: paths.route.list, icon: IconRoute, resource: 'routeServiceOrder' },
      ],
    },
  ],
  resources: [
    {
      key: 'project',
      label: { one: 'projects:entity.project', many: 'projects:nav.projects' },
      list: { path: `${BASE}/projects` },
      paths: paths.project,
      home: { description: 'projects:home.projects' },
    },
    {
      key: 'standardServiceOrder',
      label: { one: 'projects:entity.standard', many: 'projects:nav.standard' },
      list: { path: `${BASE}/standardServiceOrders` },
      paths: paths.standard,
      home: { description: 'projects:home.standard' },
    },
    {
      key: 'routeServiceOrder',
      label: { one: 'projects:entity.route', many: 'projects:nav.route' },
      list: { path: `${BASE}/routeServiceOrders` },
      paths: paths.route,
      home: { description: 'projects:home.route' },
    },
  ],
  routes: projectRoutes,
});
