/**
 * Roles (issue 24, 1), table-driven over the endpoint table: every role signs in to the
 * console asking for every scope, then calls a read and a write of each domain. What its
 * roles do not grant answers 403 `access.forbiden` with `WWW-Authenticate: Bearer
 * error="insufficient_scope"`; what they grant goes through (whatever the answer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMe } from '../../../contract/console.ts';
import { SCOPED_DOMAINS } from '../../../contract/domains.ts';
import type { Endpoint } from '../../../contract/endpoint.ts';
import { requiredScope } from '../../../contract/endpoint.ts';
import { endpoints } from '../../../contract/index.ts';
import { putCustomer } from '../../../contract/referentials.ts';
import { ROLE_SCOPES, scopesOfRoles } from '../../../contract/roleScopes.ts';
import { ROLE_NAMES } from '../../../contract/roles.ts';
import { pathOf } from '../../testing/api.ts';
import { signIn } from '../../testing/consoleSignIn.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';
import { awaitCallerListeners } from './callerCache.ts';

let t: TestApp;
const tokens: Record<string, string> = {};
const USERS = [...ROLE_NAMES.map((r) => ({ login: `as.${r}`, roles: [r] })), { login: 'as.none', roles: [] }];

beforeAll(async () => {
  t = await createTestApp();
  for (const u of USERS) {
    // A root office: its rights, not its office, decide (the catalog is root-written).
    await t.createUser(u.login, 'pw-roles', 'ROOT', u.roles);
    tokens[u.login] = (await signIn(t.app, u.login, 'pw-roles')).access_token;
  }
});
afterAll(() => t.close());

/** The first read and the first write of each domain in the table. */
const cases = SCOPED_DOMAINS.flatMap((domain) => {
  const rows = endpoints.filter((e) => e.domain === domain);
  const read = rows.find((e) => e.method === 'GET');
  const write = rows.find((e) => e.method !== 'GET');
  return [read, write].filter((e): e is Endpoint => e !== undefined);
});

const CUSTOMER = { name: 'Role change', addressDetails: { city: 'Lyon' } };
const urlOf = (e: Endpoint) => e.path.replace(/\{[^}]+\}/g, 'ROLE-TEST');

describe('roles: what each grants, over the endpoint table', () => {
  it('covers a read of every domain and a write of each that has one', () => {
    for (const domain of SCOPED_DOMAINS) {
      expect(cases.some((e) => e.domain === domain && e.method === 'GET')).toBe(true);
      const writes = endpoints.some((e) => e.domain === domain && e.method !== 'GET');
      expect(cases.some((e) => e.domain === domain && e.method !== 'GET')).toBe(writes);
    }
  });

  for (const u of USERS) {
    const held = new Set(scopesOfRoles(u.roles));
    it(`${u.login}: allowed exactly what its roles grant`, async () => {
      for (const e of cases) {
        const res = await t.app.inject({
          method: e.method,
          url: urlOf(e),
          headers: {
            authorization: `Bearer ${tokens[u.login]}`,
            ...(e.method === 'GET' ? {} : { 'content-type': 'application/json' }),
          },
          ...(e.method === 'GET' ? {} : { payload: '{}' }),
        });
        const needed = requiredScope(e) as string;
        if (held.has(needed)) {
          expect(res.statusCode, `${e.id} ${res.body}`).not.toBe(403);
          expect(res.statusCode, e.id).toBeLessThan(500);
        } else {
          expect(res.statusCode, `${e.id} ${res.body}`).toBe(403);
          expect(res.json().errors[0].code).toBe('access.forbiden');
          expect(res.headers['www-authenticate']).toMatch(/^Bearer .*error="insufficient_scope"/);
          expect(res.headers['www-authenticate']).toContain(`scope="${needed}"`);
        }
      }
    });
  }

  it('/me gives the roles in force (none: viewer) and the scopes of the token', async () => {
    for (const u of USERS) {
      const me = await t.app.inject({
        method: 'GET',
        url: getMe.path,
        headers: { authorization: `Bearer ${tokens[u.login]}` },
      });
      expect(me.statusCode).toBe(200);
      expect(me.json().roles).toEqual(u.roles.length ? u.roles : ['viewer']);
      expect(me.json().scopes).toEqual([...scopesOfRoles(u.roles)].sort());
    }
  });

  it('the table: viewer reads all, backOffice and planner write their domains, admin all', () => {
    const writes = (r: keyof typeof ROLE_SCOPES) =>
      ROLE_SCOPES[r].filter((s) => s.endsWith(':write')).map((s) => s.split(':')[0]);
    expect(ROLE_SCOPES.viewer.every((s) => s.endsWith(':read'))).toBe(true);
    expect(ROLE_SCOPES.viewer).toHaveLength(SCOPED_DOMAINS.length);
    expect(writes('backOffice').sort()).toEqual(['businessOrganization', 'referentials', 'staff']);
    expect(writes('planner').sort()).toEqual(
      [
        'diagnostic',
        'fieldService',
        'fieldTracking',
        'projectManagement',
        'rostering',
        'scheduling',
        'slots',
      ].sort(),
    );
    expect(writes('admin')).toContain('webhooks');
    expect(scopesOfRoles(['backOffice', 'planner'])).not.toContain('webhooks:write');
  });

  it('a role change applies on the next request, without signing in again', async () => {
    await t.createUser('as.changing', 'pw-roles', 'ROOT', ['viewer']);
    const put = (token: string) =>
      t.app.inject({
        method: putCustomer.method,
        url: pathOf(putCustomer, { customerCode: 'ROLE-CHANGE' }),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(CUSTOMER),
      });
    // As the command line does: every process has dropped its cached callers.
    const setRoles = async (roles: string[]) => {
      await t.db.updateTable('users').set({ roles }).where('login', '=', 'as.changing').execute();
      await awaitCallerListeners(t.db);
    };
    const viewer = (await signIn(t.app, 'as.changing', 'pw-roles')).access_token;
    expect((await put(viewer)).statusCode).toBe(403);
    // The grant asked for every scope; the viewer got the reads only, and a token never
    // gains what it was not granted.
    await setRoles(['backOffice']);
    expect((await put(viewer)).statusCode).toBe(403);
    const backOffice = (await signIn(t.app, 'as.changing', 'pw-roles')).access_token;
    expect((await put(backOffice)).statusCode).toBe(201);
    // Narrowed back: the same token is refused on its next request.
    await setRoles(['viewer']);
    const refused = await put(backOffice);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].code).toBe('access.forbiden');
  });
});
