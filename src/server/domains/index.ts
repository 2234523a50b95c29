/**
 * The registry of domain modules: the one list the service's routes, the import command's
 * keys, the migrations and the database types come from. Adding a domain: create
 * `domains/<name>/` with an `index.ts` exporting its DomainModule (platform/domain.ts),
 * then add it here.
 */
import { businessOrganization } from './businessOrganization/index.ts';
import { diagnostic } from './diagnostic/index.ts';
import { fieldService } from './fieldService/index.ts';
import { fieldTracking } from './fieldTracking/index.ts';
import { projectManagement } from './projectManagement/index.ts';
import { referentials } from './referentials/index.ts';
import { rostering } from './rostering/index.ts';
import { scheduling } from './scheduling/index.ts';
import { slots } from './slots/index.ts';
import { staff } from './staff/index.ts';
import { webhooks } from './webhooks/index.ts';

export const domains = [
  referentials,
  businessOrganization,
  staff,
  rostering,
  fieldService,
  fieldTracking,
  slots,
  scheduling,
  diagnostic,
  projectManagement,
  webhooks,
] as const;
