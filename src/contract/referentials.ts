import type { Endpoint } from './endpoint.ts';

export const referentialsEndpoints: Endpoint[] = [];
