/**
 * The registry of domain modules: the one list the service's routes, the import command's
 * keys, the migrations and the database types come from. Adding a domain: create
 * `domains/<name>/` with an `index.ts` exporting its DomainModule (platform/domain.ts),
 * then add it here.
 */
import { businessOrganization } from './businessOrganization/index.ts';
import { fieldService } from './fieldService/index.ts';
import { referentials } from './referentials/index.ts';
import { rostering } from './rostering/index.ts';
import { staff } from './staff/index.ts';

export const domains = [referentials, businessOrganization, staff, rostering, fieldService] as const;
