import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, requiredScope } from '../../../contract/index.ts';
import { createTestApp, type TestApp } from '../../testing/harness.ts';

/** RFC 6750 3: the WWW-Authenticate header of every 401 (and of a 403 for a scope) of the API. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every row of the table, with its path parameters filled. */
const rows = endpoints.map((e) => ({
  name: `${e.method} ${e.path}`,
  endpoint: e,
  url: e.path.replace(/\{\w+\}/g, 'X'),
}));

describe('WWW-Authenticate on every 401 of the API', () => {
  it.each(rows)('$name', async ({ endpoint, url }) => {
    const method = endpoint.method as 'GET';
    const none = await t.app.inject({ method, url });
    expect(none.statusCode).toBe(401);
    expect(none.json().errors[0].code).toBe('unauthorized.nocredentials');
    // No credentials: the scheme, no error code (RFC 6750 3.1).
    expect(none.headers['www-authenticate']).toBe('Bearer realm="fieldwork"');

    const bad = await t.app.inject({ method, url, headers: { authorization: 'Bearer not.a.token' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().errors[0].code).toBe('unauthorized.badcredentials');
    expect(bad.headers['www-authenticate']).toMatch(
      /^Bearer realm="fieldwork", error="invalid_token", error_description="[^"]+"$/,
    );
  });

  it('a 403 for a missing scope says insufficient_scope and the scope needed', async () => {
    const write = rows.find((r) => r.endpoint.method === 'PUT' && requiredScope(r.endpoint));
    if (!write) throw new Error('no PUT row in the table');
    const res = await t.call('PUT', write.url, { as: 'readonly', body: {} });
    expect(res.statusCode).toBe(403);
    expect(res.json().errors[0].code).toBe('access.forbiden');
    expect(res.headers['www-authenticate']).toBe(
      `Bearer realm="fieldwork", error="insufficient_scope", scope="${requiredScope(write.endpoint)}"`,
    );
  });
});
