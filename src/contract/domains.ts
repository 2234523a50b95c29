/**
 * The domains of the API, derived from the one list of them: `domainContracts.ts`, a line
 * per domain's contract file, each exporting `<domain>Endpoints` (its endpoints keyed by
 * name). The `Domain` type, the scopes, the endpoint table and the server's order of its
 * modules all come from those names (docs/architecture.md, "Adding a domain"), in the
 * alphabetical order of a module's exports.
 *
 * The console imports only the types of this file: its boot entry asks the server's OAuth
 * metadata for the scopes (`scopes_supported`) instead of loading every contract file.
 */
import * as contracts from './domainContracts.ts';

type Contracts = typeof contracts;
const SUFFIX = 'Endpoints';

/** A domain: the `<domain>` of a `<domain>Endpoints` export of the list. */
export type Domain = {
  [K in keyof Contracts]: K extends `${infer D}${typeof SUFFIX}` ? D : never;
}[keyof Contracts];

/** Every domain, by its `<domain>Endpoints` export (a namespace's keys come sorted). */
export const DOMAINS: readonly Domain[] = Object.keys(contracts).flatMap((name) =>
  name.endsWith(SUFFIX) ? [name.slice(0, -SUFFIX.length) as Domain] : [],
);

/** Domains whose endpoints need a `<domain>:read` or `<domain>:write` scope (gaps.md, Rights). */
export type ScopedDomain = Exclude<Domain, 'console'>;

export const SCOPED_DOMAINS: readonly ScopedDomain[] = DOMAINS.filter(
  (d): d is ScopedDomain => d !== 'console',
);

export const ALL_SCOPES: readonly string[] = SCOPED_DOMAINS.flatMap((d) => [`${d}:read`, `${d}:write`]);
