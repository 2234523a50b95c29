/**
 * The Work orders feature (spec: Field tracking and Field service, endpoints 1 to 4 and the
 * console's extensions; issue 10): the work orders of the caller's tree, a work order's page
 * (header, validate, delete, its activities and used items in virtualized grids with totals
 * and CSV export), the technicians and a technician's day (trace and positions).
 */
import { IconClipboardList, IconRoute } from '@tabler/icons-react';
import { defineFeature } from '../../app/feature.ts';
import { shell } from './i18n/shell.ts';
import { workordersPaths as paths } from './paths.ts';
import { workordersRoutes } from './routes.ts';
import { UUID_PATTERN } from './search.ts';

export const workorders = defineFeature({
  id: 'workorders',
  i18n: {
    shell,
    load: { en: () => import('./i18n/en.ts'), fr: () => import('./i18n/fr.ts') },
  },
  nav: [
    {
      id: 'fieldService',
      label: 'workorders:nav.section',
      order: 25,
      items: [
        {
          label: 'workorders:nav.workOrders',
          to: paths.workOrder.list,
          icon: IconClipboardList,
          resource: 'workOrder',
        },
        {
          label: 'workorders:nav.technicians',
          to: paths.technician.list,
          icon: IconRoute,
          resource: 'technician',
        },
      ],
    },
  ],
  resources: [
    {
      key: 'workOrder',
      label: { one: 'workorders:entity.workOrder', many: 'workorders:nav.workOrders' },
      list: { path: '/eTech/rest/ws/fieldService/v1/workOrders' },
      paths: { list: paths.workOrder.list, detail: paths.workOrder.detail },
      direct: { pattern: UUID_PATTERN, path: paths.workOrder.uuid, label: 'workorders:palette.byUuid' },
      home: { description: 'workorders:home.workOrders' },
    },
    {
      key: 'technician',
      label: { one: 'workorders:entity.technician', many: 'workorders:nav.technicians' },
      list: { path: '/eTech/rest/ws/rostering/v1/technicians' },
      paths: paths.technician,
      home: { description: 'workorders:home.technicians' },
    },
  ],
  routes: workordersRoutes,
});
