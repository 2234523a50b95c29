/**
 * The contract file of each domain of `DOMAINS` (domains.ts), one line each: every name they
 * export is the contract's (`index.ts`), and `index.ts` finds each domain's
 * `<domain>Endpoints` here by its name, so a domain of `DOMAINS` without its line fails tsc.
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
