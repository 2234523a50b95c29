/**
 * Console users' roles (issue 24, 1): their names and which apply. What each grants is
 * `roleScopes.ts`, the one table the server enforces; the console reads a user's scopes
 * from `console/v1/me` and imports only this light file (no domain list, no schema).
 */
import { isOneOf } from './guards.ts';

export const ROLE_NAMES = ['viewer', 'backOffice', 'planner', 'admin'] as const;
export type Role = (typeof ROLE_NAMES)[number];

/** The role a user holds when it holds none. */
export const DEFAULT_ROLE: Role = 'viewer';

export const isRole = (name: string): name is Role => isOneOf(ROLE_NAMES, name);

/** The roles in force: the known ones given, or the default role when none is given. */
export function effectiveRoles(roles: readonly string[]): Role[] {
  const known = ROLE_NAMES.filter((r) => roles.includes(r));
  return known.length > 0 ? known : [DEFAULT_ROLE];
}

/** The message refusing unknown role names: names them and the known ones. */
export function unknownRolesMessage(unknown: readonly string[]): string {
  return `unknown role ${unknown.join(', ')} (known: ${ROLE_NAMES.join(', ')})`;
}
