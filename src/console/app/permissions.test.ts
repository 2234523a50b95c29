/**
 * The console's permission rule (permissions.ts): each role offered exactly the calls the
 * service accepts from it (the same `requiredScope` over the whole endpoint table), a reason
 * in both languages for every refusal, and the navigation each role sees.
 */
import { describe, expect, it } from 'vitest';
import {
  createSubscription,
  endpoints,
  getCustomer,
  getMe,
  putCustomer,
  ROLE_NAMES,
  requiredScope,
  scopesOfRoles,
} from '../../contract/index.ts';
import en from '../i18n/en.ts';
import fr from '../i18n/fr.ts';
import { navFor } from '../shell/nav.ts';
import { allows, knownRoles, permitted, reasonKey, scopeOf } from './permissions.ts';

const scheduleRow = endpoints.find((e) => e.domain === 'scheduling' && e.method === 'PUT');
const linkRow = endpoints.find((e) => e.domain === 'projectManagement' && e.method === 'POST');

const lookup = (bundle: unknown, key: string): unknown =>
  key.split('.').reduce<unknown>((b, k) => (b as Record<string, unknown> | undefined)?.[k], bundle);

describe('allows', () => {
  it('gives each role the calls of the issue: a viewer reads, back office edits referentials, a planner schedules', () => {
    const viewer = scopesOfRoles(['viewer']);
    const backOffice = scopesOfRoles(['backOffice']);
    const planner = scopesOfRoles(['planner']);
    const admin = scopesOfRoles(['admin']);
    expect(allows(viewer, getCustomer)).toBe(true);
    expect(allows(viewer, putCustomer)).toBe(false);
    expect(allows(backOffice, putCustomer)).toBe(true);
    expect(allows(planner, putCustomer)).toBe(false);
    expect(scheduleRow && linkRow).toBeTruthy();
    if (!scheduleRow || !linkRow) return;
    expect(allows(backOffice, scheduleRow)).toBe(false);
    expect(allows(planner, scheduleRow)).toBe(true);
    expect(allows(planner, linkRow)).toBe(true);
    expect(allows(backOffice, linkRow)).toBe(false);
    for (const role of ['viewer', 'backOffice', 'planner'])
      expect(allows(scopesOfRoles([role]), createSubscription), role).toBe(false);
    expect(allows(admin, createSubscription)).toBe(true);
  });

  it("agrees with the service's rule on every row of the endpoint table, for every role", () => {
    for (const role of ROLE_NAMES) {
      const scopes = scopesOfRoles([role]);
      for (const e of endpoints) {
        const needed = requiredScope(e);
        expect(allows(scopes, e), `${role} ${e.id}`).toBe(needed === undefined || scopes.includes(needed));
      }
    }
  });

  it('a row or its scope ask the same', () => {
    expect(scopeOf(putCustomer)).toBe('referentials:write');
    expect(scopeOf('webhooks:write')).toBe('webhooks:write');
    expect(allows(scopesOfRoles(['backOffice']), 'referentials:write')).toBe(true);
    expect(allows(scopesOfRoles(['viewer']), 'referentials:write')).toBe(false);
  });

  it("offers the console's own extensions to everyone, and everything when the instance does not say the rights", () => {
    expect(allows([], getMe)).toBe(true);
    expect(allows(null, putCustomer)).toBe(true);
    expect(allows(null, createSubscription)).toBe(true);
  });
});

describe('reasonKey', () => {
  it('names every refusal in both languages, by the domain of the row', () => {
    for (const e of endpoints) {
      if (!requiredScope(e)) continue;
      const key = reasonKey(e);
      expect(typeof lookup(en, key), `en ${e.id} ${key}`).toBe('string');
      expect(typeof lookup(fr, key), `fr ${e.id} ${key}`).toBe('string');
    }
    expect(lookup(en, reasonKey(putCustomer))).toBe('Your role cannot edit customers, sites or assets');
    expect(reasonKey(createSubscription)).toBe('permissions.cannot.webhooks');
  });
});

describe('the roles shown and the navigation offered', () => {
  it('shows the known roles in the order of the table, each translated', () => {
    expect(knownRoles(['admin', 'viewer', 'nobody'])).toEqual(['viewer', 'admin']);
    expect(knownRoles(undefined)).toEqual([]);
    for (const r of ROLE_NAMES) {
      expect(typeof lookup(en, `permissions.role.${r}`)).toBe('string');
      expect(typeof lookup(fr, `permissions.role.${r}`)).toBe('string');
    }
  });

  it('hides the webhooks from every role but admin, and entries that need a right while the rights load', () => {
    const entries = (scopes: readonly string[] | null | undefined) =>
      navFor(scopes).flatMap((g) => g.items.map((i) => i.to));
    for (const role of ['viewer', 'backOffice', 'planner'])
      expect(entries(scopesOfRoles([role])), role).not.toContain('/webhooks');
    expect(entries(scopesOfRoles(['admin']))).toContain('/webhooks');
    expect(entries(scopesOfRoles(['planner', 'admin']))).toContain('/webhooks');
    expect(entries(undefined)).not.toContain('/webhooks');
    expect(entries(null)).toContain('/webhooks');
    // The dispatch board: planners and admins (issue 28, 3).
    for (const role of ['viewer', 'backOffice'])
      expect(entries(scopesOfRoles([role])), role).not.toContain('/rostering/board');
    for (const role of ['planner', 'admin'])
      expect(entries(scopesOfRoles([role])), role).toContain('/rostering/board');
    // What needs no right is always offered.
    expect(entries(scopesOfRoles(['viewer']))).toContain('/referentials/customers');
    expect(permitted([{ requires: undefined }], undefined)).toHaveLength(1);
  });
});
