/**
 * The console's own extensions: not in the spec, open to any valid token (no scope).
 */
import { z } from 'zod';
import { endpoint } from './endpoint.ts';

export const Me = z
  .object({
    login: z.string().meta({ description: "The user's login, or the application's name" }),
    kind: z.enum(['user', 'application']),
    officeCode: z.string(),
    officeName: z.string(),
    roles: z.array(z.string()).meta({
      description:
        "A user's roles in force (contract/roles.ts; none given: viewer); empty for an application",
    }),
    scopes: z.array(z.string()).meta({
      description:
        'The scopes this token may use: those it was granted that its user or application holds now',
    }),
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof Me>;

/**
 * Who the bearer token speaks for, so the console can show the signed-in user and office.
 * Chosen over OIDC userinfo because it answers in the API's own style (error body, office
 * codes) and needs no `openid` scope.
 */
export const getMe = endpoint({
  id: 'console.me.get',
  method: 'GET',
  path: '/eTech/rest/ws/console/v1/me',
  domain: 'console',
  range: 'high',
  summary: 'The user or application behind the bearer token, its office, roles and scopes. Any valid token.',
  errorPrefix: 'console',
  responses: { 200: Me },
  extension: true,
});

/** The console endpoints by name, in the order of the OpenAPI document (contract/domains.ts). */
export const consoleEndpoints = {
  getMe,
};
