import type { Endpoint } from './endpoint.ts';

export const staffEndpoints: Endpoint[] = [];
