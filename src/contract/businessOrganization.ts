import type { Endpoint } from './endpoint.ts';

export const businessOrganizationEndpoints: Endpoint[] = [];
