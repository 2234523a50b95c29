import {
  ProjectManagementCodes as PC,
  projectManagementEndpoints,
  SERVICE_ORDER_MAX_DEFAULT,
} from '../../../contract/projectManagement.ts';
import { implementDomain, type RequestContext } from '../../platform/routes.ts';
import { historyAnswer } from '../changes/index.ts';
import { linkProject } from './projectLink.ts';
import * as service from './service.ts';
import { linkServiceOrder } from './serviceOrderLink.ts';

/** FIELDWORK_SERVICE_ORDER_MAX of the running service. */
const instanceMax = (ctx: RequestContext) =>
  ctx.request.server.fieldwork.config.serviceOrderMax ?? SERVICE_ORDER_MAX_DEFAULT;

/** HTTP only: the rules live in service.ts. */
export const projectManagementRoutes = implementDomain(projectManagementEndpoints, {
  linkProject: async ({ params, body }, { db, caller }) => {
    await linkProject(db, caller, params.projectCode, body);
    return { status: 204 };
  },
  linkStandardServiceOrder: async ({ params, body }, ctx) => {
    await linkServiceOrder(
      ctx.db,
      ctx.caller,
      'standard',
      params.standardServiceOrderCode,
      body,
      instanceMax(ctx),
    );
    return { status: 204 };
  },
  linkRouteServiceOrder: async ({ params, body }, ctx) => {
    await linkServiceOrder(ctx.db, ctx.caller, 'route', params.routeServiceOrderCode, body, instanceMax(ctx));
    return { status: 204 };
  },
  deleteProjectDependency: async ({ params, body }, { db, caller }) => {
    await service.removeDependency(db, caller, params.projectCode, body);
    return { status: 204 };
  },
  getProject: async ({ params }, { db, caller }) => ({
    status: 200,
    body: await service.getProject(db, caller.scope, params.projectCode),
  }),
  getStandardServiceOrder: async ({ params }, ctx) => ({
    status: 200,
    body: await service.getServiceOrder(
      ctx.db,
      ctx.caller.scope,
      'standard',
      params.standardServiceOrderCode,
      instanceMax(ctx),
    ),
  }),
  getRouteServiceOrder: async ({ params }, ctx) => ({
    status: 200,
    body: await service.getServiceOrder(
      ctx.db,
      ctx.caller.scope,
      'route',
      params.routeServiceOrderCode,
      instanceMax(ctx),
    ),
  }),
  getProjectHistory: async ({ params, query }, ctx) => {
    await service.getProject(ctx.db, ctx.caller.scope, params.projectCode);
    return historyAnswer(
      ctx,
      { kind: 'project', code: params.projectCode },
      query,
      PC.continuationTokenInvalid,
    );
  },
  getStandardServiceOrderHistory: async ({ params, query }, ctx) => {
    const code = params.standardServiceOrderCode;
    await service.getServiceOrder(ctx.db, ctx.caller.scope, 'standard', code, instanceMax(ctx));
    return historyAnswer(ctx, { kind: 'serviceOrder', code }, query, PC.continuationTokenInvalid);
  },
  getRouteServiceOrderHistory: async ({ params, query }, ctx) => {
    const code = params.routeServiceOrderCode;
    await service.getServiceOrder(ctx.db, ctx.caller.scope, 'route', code, instanceMax(ctx));
    return historyAnswer(ctx, { kind: 'serviceOrder', code }, query, PC.continuationTokenInvalid);
  },
  listProjects: async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listProjectsPage(db, caller.scope, tokens, query),
  }),
  listStandardServiceOrders: async ({ query }, ctx) => ({
    status: 200,
    body: await service.listServiceOrdersPage(
      ctx.db,
      ctx.caller.scope,
      ctx.tokens,
      'standard',
      query,
      instanceMax(ctx),
    ),
  }),
  listRouteServiceOrders: async ({ query }, ctx) => ({
    status: 200,
    body: await service.listServiceOrdersPage(
      ctx.db,
      ctx.caller.scope,
      ctx.tokens,
      'route',
      query,
      instanceMax(ctx),
    ),
  }),
  listLinkableWorkOrders: async ({ query }, { db, caller, tokens }) => ({
    status: 200,
    body: await service.listWorkOrdersPage(db, caller.scope, tokens, query),
  }),
});
