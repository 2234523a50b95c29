/**
 * The registry of domain modules: the one list the service's routes, the import command's
 * keys, the commands, the migrations and the database types come from. Adding a domain:
 * its contract (src/contract/domains.ts), then `domains/<name>/` with an `index.ts`
 * exporting its DomainModule (platform/domain.ts), then its line here; tsc refuses a domain
 * of the contract without one (docs/architecture.md, "Adding a domain").
 */
import type { ScopedDomain } from '../../contract/domains.ts';
import type { DomainModule } from '../platform/domain.ts';
import { businessOrganization } from './businessOrganization/index.ts';
import { changes } from './changes/index.ts';
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

const registry = {
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
  changes,
} satisfies { readonly [D in ScopedDomain]: DomainModule };

/** The modules, in the order their routes, keys and commands are registered. */
export const domains = Object.values(registry);
