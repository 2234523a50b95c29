/**
 * The domains of the API, in the order of the spec's rights (gaps.md, Rights): the one list
 * the `Domain` type, the scopes and the order of the OpenAPI document derive from. Each name
 * is a contract file `<domain>.ts` exporting `<domain>Endpoints` (its endpoints keyed by
 * name), listed in `domainContracts.ts` (which tsc holds to this list), and a server folder
 * `src/server/domains/<domain>/` implementing them (docs/architecture.md, "Adding a domain").
 *
 * Names only, no schema: the console's boot entry reads the scopes from here before
 * anything else loads.
 */
export const DOMAINS = [
  'referentials',
  'businessOrganization',
  'staff',
  'rostering',
  'slots',
  'fieldTracking',
  'fieldService',
  'projectManagement',
  'scheduling',
  'diagnostic',
  'webhooks',
  /** The change log: feed and stream (issue 29); record histories belong to each record's domain. */
  'changes',
  /** The console's own extensions, open to any valid token (no scope). */
  'console',
] as const;

export type Domain = (typeof DOMAINS)[number];
/** Domains whose endpoints need a `<domain>:read` or `<domain>:write` scope (gaps.md, Rights). */
export type ScopedDomain = Exclude<Domain, 'console'>;

export const SCOPED_DOMAINS: readonly ScopedDomain[] = DOMAINS.filter(
  (d): d is ScopedDomain => d !== 'console',
);

export const ALL_SCOPES: readonly string[] = SCOPED_DOMAINS.flatMap((d) => [`${d}:read`, `${d}:write`]);

/** Scope needed to call an endpoint (gaps.md, Rights); undefined: any valid token. */
export function requiredScope(e: { method: string; domain: Domain }): string | undefined {
  if (e.domain === 'console') return undefined;
  return `${e.domain}:${e.method === 'GET' ? 'read' : 'write'}`;
}
