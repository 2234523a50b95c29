-- Sessions that end (issue 24, 3) and revocation of access tokens (RFC 7009, issue 25, 3).
--
-- A console user's access token carries users.session_version when it is issued; a
-- password change, a disable or a delete moves it on (or removes the row), so the API
-- refuses every token issued before, from the next request on, in every process (the
-- users trigger of migration 020 drops the cached callers). A disabled user cannot sign in.
ALTER TABLE users ADD COLUMN disabled_at timestamptz;
ALTER TABLE users ADD COLUMN session_version integer NOT NULL DEFAULT 1;

-- Revoked access tokens (JWTs, not stored by the authorization server), by jti, kept until
-- the token would have expired anyway. A revocation notifies the same channel as a change
-- of applications or users, so every process drops its cached callers and reads this.
CREATE TABLE revoked_tokens (
  jti text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX revoked_tokens_expires ON revoked_tokens (expires_at);
CREATE TRIGGER revoked_tokens_callers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON revoked_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION fieldwork_callers_changed();
