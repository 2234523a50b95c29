/**
 * What the signed-in user may do (issue 24, 1), in one place: a control asks for the
 * endpoint it calls (its contract row, or the scope of that row where a light manifest
 * cannot import the contract) and gets whether it is allowed and, if not, the reason to
 * show. The rights are the token's scopes as `console/v1/me` says them (the scopes of the
 * user's roles, contract/roleScopes.ts); the rule for a row is the service's own
 * (`requiredScope`), so the console never offers a call that ends in a 403.
 *
 *   const can = useCan(putCustomer);        // { allowed, reason }      (Can.tsx)
 *   <Can call={putCustomer}><Button>Edit</Button></Can>   // disabled with the reason
 *   <Can call="webhooks:write" hide>...</Can>              // not shown at all
 *
 * This file is the rule alone (no React): the shell's navigation and the tests use it.
 */
import type { Domain, ScopedDomain } from '../../contract/domains.ts';
import { requiredScope } from '../../contract/endpoint.ts';
import { ROLE_NAMES, type Role } from '../../contract/roles.ts';

/** A scope of the service (`referentials:write`). */
export type Scope = `${ScopedDomain}:${'read' | 'write'}`;
/** What a control calls: a contract row (its method and domain), or that row's scope. */
export type Guarded = { method: string; domain: Domain } | Scope;

/** The scope a call needs (undefined: any valid token, e.g. the console's extensions). */
export function scopeOf(g: Guarded): string | undefined {
  return typeof g === 'string' ? g : requiredScope(g);
}

/**
 * Whether these rights allow the call. `null` rights: unknown (an instance without the
 * console's `me` extension), so the console offers everything and the service decides.
 */
export function allows(scopes: readonly string[] | null, g: Guarded): boolean {
  const scope = scopeOf(g);
  return scope === undefined || scopes === null || scopes.includes(scope);
}

/** The i18n key (namespace `common`) of the reason a call is refused: by the scope's domain. */
export function reasonKey(g: Guarded): string {
  const scope = scopeOf(g) ?? '';
  const [domain, access] = scope.split(':');
  return access === 'read' ? 'permissions.cannotRead' : `permissions.cannot.${domain}`;
}

/** The known roles of `me`, in the table's order (an unknown name is not shown). */
export function knownRoles(roles: readonly string[] | undefined): Role[] {
  return ROLE_NAMES.filter((r) => roles?.includes(r));
}

/** What asks for a right in a declaration (a navigation entry), or nothing. */
export interface Requires {
  requires?: Scope;
}

/** The entries these rights may use (while the rights load, none that needs one). */
export function permitted<T extends Requires>(
  items: readonly T[],
  scopes: readonly string[] | null | undefined,
) {
  return items.filter((i) => !i.requires || (scopes !== undefined && allows(scopes, i.requires)));
}
