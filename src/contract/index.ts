/** The API as data: every endpoint of the service, the schemas and the error codes. */

import { businessOrganizationEndpoints } from './businessOrganization.ts';
import { consoleEndpoints } from './console.ts';
import { diagnosticEndpoints } from './diagnostic.ts';
import type { Endpoint } from './endpoint.ts';
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
export * from './common.ts';
export * from './console.ts';
export * from './diagnostic.ts';
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

/** Every row of the table, in the order of the OpenAPI document. */
export const endpoints: readonly Endpoint[] = [
  ...referentialsEndpoints,
  ...businessOrganizationEndpoints,
  ...staffEndpoints,
  ...rosteringEndpoints,
  ...fieldTrackingEndpoints,
  ...fieldServiceEndpoints,
  ...slotsEndpoints,
  ...schedulingEndpoints,
  ...diagnosticEndpoints,
  ...projectManagementEndpoints,
  ...webhooksEndpoints,
  ...consoleEndpoints,
];
