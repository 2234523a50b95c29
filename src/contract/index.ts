/** The API as data: every endpoint of the service, the schemas and the error codes. */

import * as domainContracts from './domainContracts.ts';
import { DOMAINS, type Domain } from './domains.ts';
import type { DomainEndpoints, Endpoint } from './endpoint.ts';

export * from './common.ts';
export * from './domainContracts.ts';
export * from './domains.ts';
export * from './endpoint.ts';
export * from './errors.ts';
export * from './roleScopes.ts';
export * from './roles.ts';

type EndpointsByDomain = { readonly [D in Domain]: (typeof domainContracts)[`${D}Endpoints`] };

/**
 * Each domain with its endpoints (its contract file's `<domain>Endpoints`), in the order of
 * `DOMAINS`, the order of the OpenAPI document. tsc refuses an endpoint filed under another
 * domain than the one it declares.
 */
export const endpointsByDomain = Object.fromEntries(
  // biome-ignore lint/performance/noDynamicNamespaceImportAccess: every endpoint is in the table anyway; the console imports contract files, not this one
  DOMAINS.map((d) => [d, domainContracts[`${d}Endpoints`]]),
) as EndpointsByDomain satisfies { readonly [D in Domain]: DomainEndpoints<D> };

/** Every row of the table, in the order of the OpenAPI document. */
export const endpoints: readonly Endpoint[] = Object.values(endpointsByDomain).flatMap((d) =>
  Object.values<Endpoint>(d),
);
