/**
 * The scopes each role grants (issue 24, 1): the one table the server enforces. A user's
 * rights are the union of its roles' scopes; a user without a role is a `viewer`.
 */
import { ALL_SCOPES, SCOPED_DOMAINS, type ScopedDomain } from './domains.ts';
import { effectiveRoles, type Role } from './roles.ts';

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

/** The union of the roles' scopes (a user without a role: the viewer's), sorted. */
export function scopesOfRoles(roles: readonly string[]): string[] {
  return [...new Set(effectiveRoles(roles).flatMap((r) => ROLE_SCOPES[r]))].sort();
}
