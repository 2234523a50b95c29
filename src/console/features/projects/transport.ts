/**
 * The one adapter between the Project management pages and HTTP: every call the pages make,
 * each one row of the contract's endpoint table through the typed client (`src/client`).
 */
import type { Client } from '../../../client/index.ts';
import {
  type DependencyBody,
  deleteProjectDependency,
  getProject,
  getRouteServiceOrder,
  getStandardServiceOrder,
  type LinkableWorkOrder,
  linkProject,
  linkRouteServiceOrder,
  linkStandardServiceOrder,
  listLinkableWorkOrders,
  listProjects,
  listRouteServiceOrders,
  listStandardServiceOrders,
  type Project,
  type ServiceOrder,
} from '../../../contract/projectManagement.ts';
import type { ProjectInsertion, ServiceOrderInsertion } from './model.ts';
import type { ServiceOrderKind } from './paths.ts';

/** The insertion of a project link call, with the dependencies it adds. */

/** The rows the linkers write with: what adding, moving and (un)declaring ask for (app/permissions.ts). */
export const writeRows = {
  project: linkProject,
  standard: linkStandardServiceOrder,
  route: linkRouteServiceOrder,
  removeDependency: deleteProjectDependency,
} as const;

export type ProjectLinkInsertion = ProjectInsertion & {
  block?: { jobType: 'task' | 'workOrder'; code: string }[];
  isBlockedBy?: { jobType: 'task' | 'workOrder'; code: string }[];
};

export function projectsApi(client: Client) {
  return {
    listProjects(q: string | undefined, continuationToken: string | undefined, signal?: AbortSignal) {
      return client.call(listProjects, { query: { q: q || undefined, continuationToken }, signal });
    },
    listServiceOrders(
      kind: ServiceOrderKind,
      q: string | undefined,
      continuationToken: string | undefined,
      signal?: AbortSignal,
    ) {
      const query = { q: q || undefined, continuationToken };
      return kind === 'standard'
        ? client.call(listStandardServiceOrders, { query, signal })
        : client.call(listRouteServiceOrders, { query, signal });
    },
    getProject(code: string, signal?: AbortSignal): Promise<Project> {
      return client.call(getProject, { params: { projectCode: code }, signal });
    },
    getServiceOrder(kind: ServiceOrderKind, code: string, signal?: AbortSignal): Promise<ServiceOrder> {
      return kind === 'standard'
        ? client.call(getStandardServiceOrder, { params: { standardServiceOrderCode: code }, signal })
        : client.call(getRouteServiceOrder, { params: { routeServiceOrderCode: code }, signal });
    },
    /** Spec endpoint 19: 204, or an ApiError listing every refusal. */
    async linkToProject(projectCode: string, workOrderCode: string, insertion: ProjectLinkInsertion) {
      await client.call(linkProject, {
        params: { projectCode },
        body: { type: 'workOrder', code: workOrderCode, insertion },
      });
    },
    /** Spec endpoints 20 and 21. */
    async linkToServiceOrder(
      kind: ServiceOrderKind,
      serviceOrderCode: string,
      workOrderCode: string,
      insertion: ServiceOrderInsertion,
    ) {
      const body = { code: workOrderCode, insertion };
      if (kind === 'standard')
        await client.call(linkStandardServiceOrder, {
          params: { standardServiceOrderCode: serviceOrderCode },
          body,
        });
      else
        await client.call(linkRouteServiceOrder, {
          params: { routeServiceOrderCode: serviceOrderCode },
          body,
        });
    },
    /** Extension: removes one dependency (the link call only adds them). */
    async removeDependency(projectCode: string, dependency: DependencyBody) {
      await client.call(deleteProjectDependency, { params: { projectCode }, body: dependency });
    },
    /** Work orders of the caller's tree whose code contains `q`, with where each sits. */
    async searchWorkOrders(q: string, signal?: AbortSignal): Promise<LinkableWorkOrder[]> {
      return (await client.call(listLinkableWorkOrders, { query: { q }, signal })).data;
    },
  };
}
export type ProjectsApi = ReturnType<typeof projectsApi>;
