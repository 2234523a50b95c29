/**
 * The registry of domain modules: the one list the service's routes, the import command's
 * keys, the commands, the migrations, the settings, the background work and the database
 * types come from. Adding a domain: its contract file and its line in
 * src/contract/domainContracts.ts, then `domains/<name>/` with an `index.ts` exporting its
 * DomainModule (platform/domain.ts), then its line in `modules.ts`; tsc refuses a domain of
 * the contract without one (docs/architecture.md, "Adding a domain").
 */
import { SCOPED_DOMAINS, type ScopedDomain } from '../../contract/domains.ts';
import type { DomainModule } from '../platform/domain.ts';
import * as modules from './modules.ts';

const registry = modules satisfies { readonly [D in ScopedDomain]: DomainModule };

/** The modules, in the contract's order: the order their routes, keys, commands and work start. */
export const domains = SCOPED_DOMAINS.map((d) => registry[d]);
