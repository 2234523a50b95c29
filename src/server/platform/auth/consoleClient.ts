import type { AdapterPayload } from 'oidc-provider';
import { ALL_SCOPES } from '../../../contract/domains.ts';

/** The console: a first-party public client (authorization code + PKCE, no secret). */
export const CONSOLE_CLIENT_ID = 'fieldwork-console';
export const CONSOLE_SCOPES = [...ALL_SCOPES, 'offline_access'];
/** Lifetime of the console's access tokens: short, the console refreshes them silently. */
export const CONSOLE_ACCESS_TOKEN_TTL = 15 * 60;
/** How long a console sign-in lasts without activity (refresh token, provider session). */
export const CONSOLE_SESSION_TTL = 12 * 60 * 60;

/**
 * Origins of `npm run dev` (vite's dev server), allowed besides the instance's own URL only
 * when the service runs for development (FIELDWORK_DEV_CONSOLE=1, set by scripts/dev.mjs):
 * a production instance sends a sign-in back to its own public URL alone.
 */
export const DEV_ORIGINS = ['http://127.0.0.1:5173', 'http://localhost:5173'];

/** The client record, derived from the public URL so that any instance (and test) gets its own. */
export function consoleClient(publicUrl: string, devOrigins = false): AdapterPayload {
  const origins = [...new Set([publicUrl.replace(/\/$/, ''), ...(devOrigins ? DEV_ORIGINS : [])])];
  return {
    client_id: CONSOLE_CLIENT_ID,
    client_name: 'Fieldwork console',
    application_type: 'web',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: origins.map((o) => `${o}/auth/callback`),
    post_logout_redirect_uris: origins.map((o) => `${o}/auth/signed-out`),
    scope: CONSOLE_SCOPES.join(' '),
    id_token_signed_response_alg: 'ES256',
  };
}
