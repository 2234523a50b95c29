/** The API as data: every endpoint of the service, the schemas and the error codes. */

import { businessOrganizationEndpoints } from './businessOrganization.ts';
import { changesEndpoints } from './changes.ts';
import { consoleEndpoints } from './console.ts';
import { diagnosticEndpoints } from './diagnostic.ts';
import type { Domain } from './domains.ts';
import type { DomainEndpoints, Endpoint } from './endpoint.ts';
import { fieldServiceEndpoints } from './fieldService.ts';
import { fieldTrackingEndpoints } from './fieldTracking.ts';
import { projectManagementEndpoints } from './projectManagement.ts';
import { referentialsEndpoints } from './referentials.ts';
import { rosteringEndpoints } from './rostering.ts';
import { schedulingEndpoints } from './scheduling.ts';
import { slotsEndpoints } from './slots.ts';
import { staffEndpoints } from './staff.ts';
import { webhooksEndpoints } from './webhooks.ts';

export * from './businessOrganization.ts';
export * from './changes.ts';
export * from './common.ts';
export * from './console.ts';
export * from './diagnostic.ts';
export * from './domains.ts';
export * from './endpoint.ts';
export * from './errors.ts';
export * from './fieldService.ts';
export * from './fieldTracking.ts';
export * from './projectManagement.ts';
export * from './referentials.ts';
export * from './roles.ts';
export * from './rostering.ts';
export * from './scheduling.ts';
export * from './slots.ts';
export * from './staff.ts';
export * from './webhooks.ts';

/**
 * Each domain of `DOMAINS` with its endpoints, in the order of the OpenAPI document. tsc
 * refuses a domain of the list left out, one not in it, and an endpoint filed under
 * another domain than the one it declares.
 */
export const endpointsByDomain = {
  referentials: referentialsEndpoints,
  businessOrganization: businessOrganizationEndpoints,
  staff: staffEndpoints,
  rostering: rosteringEndpoints,
  fieldTracking: fieldTrackingEndpoints,
  fieldService: fieldServiceEndpoints,
  slots: slotsEndpoints,
  scheduling: schedulingEndpoints,
  diagnostic: diagnosticEndpoints,
  projectManagement: projectManagementEndpoints,
  webhooks: webhooksEndpoints,
  changes: changesEndpoints,
  console: consoleEndpoints,
} satisfies { readonly [D in Domain]: DomainEndpoints<D> };

/** Every row of the table, in the order of the OpenAPI document. */
export const endpoints: readonly Endpoint[] = Object.values(endpointsByDomain).flatMap((d) =>
  Object.values<Endpoint>(d),
);
