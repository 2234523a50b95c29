/**
 * The sign-in step of the authorization code flow: oidc-provider sends the browser to
 * `/oauth/interaction/<uid>`; we show the form, check the password and finish the
 * interaction. The console is first-party, so consent is granted here, without a page.
 *
 * CSRF: the form posts to its own interaction uid, and oidc-provider only accepts it with
 * the interaction cookie (SameSite=Lax) bound to that uid, so another site cannot post
 * a sign-in into the victim's pending interaction.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type Provider from 'oidc-provider';
import { scopesOfRoles } from '../../../contract/roleScopes.ts';
import type { Db } from '../../db/index.ts';
import { CONSOLE_CLIENT_ID } from './consoleClient.ts';
import {
  badCredentialsJson,
  expiredPage,
  FORM_SCRIPT_CSP,
  loginPage,
  pageLanguage,
  pageSecurityHeaders,
  tooManyJson,
} from './loginPage.ts';
import { verifySecretOrDummy } from './passwords.ts';
import { API_RESOURCE } from './provider.ts';
import type { LoginGuard } from './tokenLimits.ts';

export const INTERACTION_PATH = '/oauth/interaction';

/**
 * The account of a console user: `sub` is users.id, which the API maps to the user's office.
 * A disabled or deleted user has none: its refresh tokens answer `invalid_grant`.
 */
export async function findAccount(db: Db, id: string) {
  if (!/^\d+$/.test(id)) return undefined;
  const user = await db
    .selectFrom('users')
    .select(['id', 'login'])
    .where('id', '=', id)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  if (!user) return undefined;
  const accountId = String(user.id);
  return { accountId, claims: () => ({ sub: accountId, preferred_username: user.login }) };
}

/** What a user's access token carries: the session version it is issued in (users.ts). */
export async function sessionClaims(db: Db, accountId: string) {
  if (!/^\d+$/.test(accountId)) return undefined;
  const user = await db
    .selectFrom('users')
    .select('session_version')
    .where('id', '=', accountId)
    .executeTakeFirst();
  return user ? { fw_uv: user.session_version } : undefined;
}

/**
 * Checks a login and password; the same work and answer whether or not the login exists
 * (a disabled user's sign-in is refused as a wrong password).
 */
export async function checkPassword(db: Db, login: string, password: string): Promise<string | null> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'password_hash', 'disabled_at'])
    .where('login', '=', login.trim())
    .executeTakeFirst();
  const ok = await verifySecretOrDummy(password, user?.password_hash);
  return ok && user && user.disabled_at === null ? String(user.id) : null;
}

export function registerLoginRoutes(
  app: FastifyInstance,
  provider: Provider,
  db: Db,
  publicUrl: string,
  guard: LoginGuard,
) {
  const pageHeaders = (reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .headers(pageSecurityHeaders(FORM_SCRIPT_CSP));

  app.register(async (scope) => {
    // The form posts urlencoded; the rest of the service only takes JSON.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body.toString()))),
    );

    scope.get<{ Params: { uid: string } }>(`${INTERACTION_PATH}/:uid`, async (request, reply) => {
      const it = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
      // The console asks for its language (ui_locales); else the browser's.
      const lang = pageLanguage(it?.params.ui_locales, request.headers['accept-language']);
      if (!it || it.uid !== request.params.uid)
        return pageHeaders(reply).code(400).send(expiredPage(publicUrl, lang));
      // Signed in already, only the grant is missing (e.g. after a sign-out revoked it).
      if (it.prompt.name === 'consent' && it.session?.accountId) {
        const grantId = await grantFor(provider, db, it.session.accountId, it.params);
        const to = await provider.interactionResult(request.raw, reply.raw, { consent: { grantId } });
        return reply.redirect(to, 303);
      }
      return pageHeaders(reply).send(loginPage({ action: `${INTERACTION_PATH}/${it.uid}`, lang }));
    });

    scope.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(
      `${INTERACTION_PATH}/:uid`,
      async (request, reply) => {
        const it = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
        const lang = pageLanguage(it?.params.ui_locales, request.headers['accept-language']);
        if (!it || it.uid !== request.params.uid)
          return pageHeaders(reply).code(400).send(expiredPage(publicUrl, lang));
        // The form's script posts with fetch and asks for JSON (the page stays, then leaves
        // the history with location.replace); without it, the browser posts the form.
        const json = /\bapplication\/json\b/.test(String(request.headers.accept ?? ''));
        const login = String(request.body?.login ?? '');
        const password = String(request.body?.password ?? '');
        // Failed sign-ins are limited per login and per address (tokenLimits.ts); while
        // limited, the password is not checked (a flood costs no scrypt).
        const attempt = await guard.attempt({ perLogin: login.trim(), perAddress: request.ip });
        if ('wait' in attempt) {
          reply.code(429).header('retry-after', String(attempt.wait));
          if (json) return reply.header('cache-control', 'no-store').send(tooManyJson(attempt.wait, lang));
          return pageHeaders(reply).send(
            loginPage({ action: `${INTERACTION_PATH}/${it.uid}`, login, retryAfter: attempt.wait, lang }),
          );
        }
        const accountId = login && password ? await checkPassword(db, login, password) : null;
        if (!accountId) {
          if (json) return reply.code(401).header('cache-control', 'no-store').send(badCredentialsJson(lang));
          return pageHeaders(reply)
            .code(401)
            .send(loginPage({ action: `${INTERACTION_PATH}/${it.uid}`, login, failed: true, lang }));
        }
        await attempt.succeeded();
        const grantId = await grantFor(provider, db, accountId, it.params);
        const to = await provider.interactionResult(
          request.raw,
          reply.raw,
          { login: { accountId }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
        if (json) return reply.code(200).header('cache-control', 'no-store').send({ location: to });
        return reply.redirect(to, 303);
      },
    );
  });
}

/**
 * The first-party grant: the scopes the console asked for that the user's roles grant
 * (asking for more is not an error: the token answer's `scope` says what was granted).
 */
async function grantFor(provider: Provider, db: Db, accountId: string, params: Record<string, unknown>) {
  const clientId = String(params.client_id);
  if (clientId !== CONSOLE_CLIENT_ID) throw new Error(`no consent page for third-party client ${clientId}`);
  const user = await db.selectFrom('users').select('roles').where('id', '=', accountId).executeTakeFirst();
  const held = new Set(scopesOfRoles(user?.roles ?? []));
  const grant = new provider.Grant({ accountId, clientId });
  const asked = String(params.scope ?? '')
    .split(' ')
    .filter(Boolean);
  const requested = asked.filter((s) => !s.includes(':') || held.has(s));
  // oidc-provider checks the scopes it knows (ours are in its `scopes` list) on the grant
  // itself, and the API scopes again on the resource the access token is for.
  if (requested.length) grant.addOIDCScope(requested.join(' '));
  const api = requested.filter((s) => s.includes(':'));
  if (api.length) grant.addResourceScope(API_RESOURCE, api.join(' '));
  // The rest is refused, not left pending (which would ask for consent again).
  const refused = asked.filter((s) => !requested.includes(s));
  if (refused.length) {
    grant.rejectOIDCScope(refused.join(' '));
    grant.rejectResourceScope(API_RESOURCE, refused.join(' '));
  }
  return grant.save();
}
