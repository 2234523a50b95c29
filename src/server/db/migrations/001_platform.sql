-- Office tree, OAuth applications, console users, custom-field definitions.
-- `path` is the materialised path of office ids ('/1/4/9/'): a caller's scope is every
-- office whose path starts with the caller's, which an index answers directly.
CREATE TABLE offices (
  id bigserial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  parent_id bigint REFERENCES offices(id),
  path text NOT NULL UNIQUE
);
CREATE INDEX offices_path_prefix ON offices (path text_pattern_ops);

CREATE TABLE applications (
  id bigserial PRIMARY KEY,
  client_id text NOT NULL UNIQUE,
  secret_hash text NOT NULL,
  name text NOT NULL,
  office_id bigint NOT NULL REFERENCES offices(id),
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id bigserial PRIMARY KEY,
  login text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  office_id bigint NOT NULL REFERENCES offices(id),
  roles text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE custom_field_definitions (
  entity text NOT NULL,
  code text NOT NULL,
  label text,
  type text NOT NULL,
  mandatory boolean NOT NULL DEFAULT false,
  "values" jsonb,
  PRIMARY KEY (entity, code)
);

-- Instance-wide secrets generated on first start (pagination token key, signing keys).
CREATE TABLE instance_secrets (
  name text PRIMARY KEY,
  value text NOT NULL
);
