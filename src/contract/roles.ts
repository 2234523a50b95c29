/**
 * Console users' roles and the scopes each grants (issue 24, 1): the one table the server
 * enforces and the console reads to offer only what the signed-in user may do. A user's
 * rights are the union of its roles' scopes; a user without a role is a `viewer`.
 */
import { ALL_SCOPES, SCOPED_DOMAINS } from './domains.ts';

export const ROLE_NAMES = ['viewer', 'backOffice', 'planner', 'admin'] as const;
export type Role = (typeof ROLE_NAMES)[number];

type ScopedDomain = (typeof SCOPED_DOMAINS)[number];
const read = SCOPED_DOMAINS.map((d) => `${d}:read`);
const write = (...domains: ScopedDomain[]) => domains.map((d) => `${d}:write`);

/** The scopes each role grants. */
export const ROLE_SCOPES: { readonly [R in Role]: readonly string[] } = {
  viewer: read,
  backOffice: [...read, ...write('referentials', 'businessOrganization', 'staff')],
  planner: [
    ...read,
    ...write(
      'projectManagement',
      'scheduling',
      'diagnostic',
      'fieldService',
      'rostering',
      'slots',
      'fieldTracking',
    ),
  ],
  admin: ALL_SCOPES,
};

/** The role a user holds when it holds none. */
export const DEFAULT_ROLE: Role = 'viewer';

export const isRole = (name: string): name is Role => (ROLE_NAMES as readonly string[]).includes(name);

/** The roles in force: the known ones given, or the default role when none is given. */
export function effectiveRoles(roles: readonly string[]): Role[] {
  const known = ROLE_NAMES.filter((r) => roles.includes(r));
  return known.length > 0 ? known : [DEFAULT_ROLE];
}

/** The union of the roles' scopes (a user without a role: the viewer's), sorted. */
export function scopesOfRoles(roles: readonly string[]): string[] {
  return [...new Set(effectiveRoles(roles).flatMap((r) => ROLE_SCOPES[r]))].sort();
}

/** The message refusing unknown role names: names them and the known ones. */
export function unknownRolesMessage(unknown: readonly string[]): string {
  return `unknown role ${unknown.join(', ')} (known: ${ROLE_NAMES.join(', ')})`;
}
