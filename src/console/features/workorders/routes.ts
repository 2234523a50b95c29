/**
 * The Work orders routes from the paths module; pages load lazily with their strings. One
 * page shows a work order named by code or by uuid (`by`, a fixed prop).
 */
import { createRoute } from '@tanstack/react-router';
import type { RouteContext } from '../../app/feature.ts';
import { lazyPage } from '../../app/lazyPage.tsx';
import type { RootRoute } from '../../routes/root.tsx';
import { workordersPaths as paths } from './paths.ts';
import {
  validateTechnicianSearch,
  validateTechniciansSearch,
  validateWorkOrderSearch,
  validateWorkOrdersSearch,
} from './search.ts';

const NS = ['workorders'] as const;
const workOrderPage = () => import('./pages/WorkOrderPage.tsx');

export const workordersRoutes = (root: RootRoute, { recordTabs }: RouteContext) => {
  /** The tabs other features add to a work order's page (planning's schedule, flags and notes). */
  const tabs = recordTabs('workOrder');
  const validateWorkOrder = (raw: Record<string, unknown>) =>
    validateWorkOrderSearch(
      raw,
      tabs.map((tab) => tab.key),
    );
  return [
    createRoute({
      getParentRoute: () => root,
      path: paths.workOrder.list,
      validateSearch: validateWorkOrdersSearch,
      component: lazyPage(NS, () => import('./pages/WorkOrdersPage.tsx'), 'WorkOrdersPage'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.workOrder.detail,
      validateSearch: validateWorkOrder,
      component: lazyPage(NS, workOrderPage, 'WorkOrderPage', { by: 'code', tabs }),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.workOrder.uuid,
      validateSearch: validateWorkOrder,
      component: lazyPage(NS, workOrderPage, 'WorkOrderPage', { by: 'uuid', tabs }),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.technician.list,
      validateSearch: validateTechniciansSearch,
      component: lazyPage(NS, () => import('./pages/TechniciansPage.tsx'), 'TechniciansPage'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.technician.detail,
      validateSearch: validateTechnicianSearch,
      component: lazyPage(NS, () => import('./pages/TechnicianPage.tsx'), 'TechnicianPage'),
    }),
  ] as const;
};
