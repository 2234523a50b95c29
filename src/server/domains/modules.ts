/**
 * The server's list of domain modules, one line each, exported under the domain's name
 * (`domains/<name>/index.ts` exports its DomainModule): `index.ts` takes them in the order
 * of the contract's `DOMAINS`, and tsc refuses a domain of the contract without its line here.
 */
export { businessOrganization } from './businessOrganization/index.ts';
export { changes } from './changes/index.ts';
export { diagnostic } from './diagnostic/index.ts';
export { fieldService } from './fieldService/index.ts';
export { fieldTracking } from './fieldTracking/index.ts';
export { projectManagement } from './projectManagement/index.ts';
export { referentials } from './referentials/index.ts';
export { rostering } from './rostering/index.ts';
export { scheduling } from './scheduling/index.ts';
export { slots } from './slots/index.ts';
export { staff } from './staff/index.ts';
export { webhooks } from './webhooks/index.ts';
