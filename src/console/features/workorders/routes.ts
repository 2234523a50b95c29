/**
 * The Work orders routes from the paths module; pages load lazily with their strings. One
 * page shows a work order named by code or by uuid (`by`, a fixed prop).
 */
import { createRoute } from '@tanstack/react-router';
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
/** A work order's page shows the planning feature's panel (schedule, flags, notes) too. */
const WORK_ORDER_NS = ['workorders', 'planning'] as const;

export const workordersRoutes = (root: RootRoute) =>
  [
    createRoute({
      getParentRoute: () => root,
      path: paths.workOrder.list,
      validateSearch: validateWorkOrdersSearch,
      component: lazyPage(NS, () => import('./pages/WorkOrdersPage.tsx'), 'WorkOrdersPage'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.workOrder.detail,
      validateSearch: validateWorkOrderSearch,
      component: lazyPage(WORK_ORDER_NS, workOrderPage, 'WorkOrderPage', { by: 'code' }),
    }),
    createRoute({
      getParentRoute: () => root,
      path: paths.workOrder.uuid,
      validateSearch: validateWorkOrderSearch,
      component: lazyPage(WORK_ORDER_NS, workOrderPage, 'WorkOrderPage', { by: 'uuid' }),
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
