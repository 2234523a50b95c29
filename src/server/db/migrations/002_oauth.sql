-- Storage of the OAuth 2.0 authorization server (oidc-provider adapter): sessions,
-- interactions, grants, authorization codes, refresh tokens. One table, one row a model.
CREATE TABLE oauth_models (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX oauth_models_grant ON oauth_models (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_models_uid ON oauth_models (uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth_models_expires ON oauth_models (expires_at) WHERE expires_at IS NOT NULL;
