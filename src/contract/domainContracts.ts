/**
 * The domains of the API: one line per domain, its contract file, which exports
 * `<domain>Endpoints` (its endpoints keyed by name). This list is the only one the contract
 * keeps: the `Domain` type, the scopes and the endpoint table derive from its names
 * (domains.ts, index.ts), and every name the files export is the contract's.
 */
export * from './businessOrganization.ts';
export * from './changes.ts';
export * from './console.ts';
export * from './diagnostic.ts';
export * from './fieldService.ts';
export * from './fieldTracking.ts';
export * from './projectManagement.ts';
export * from './referentials.ts';
export * from './rostering.ts';
export * from './scheduling.ts';
export * from './slots.ts';
export * from './staff.ts';
export * from './webhooks.ts';
