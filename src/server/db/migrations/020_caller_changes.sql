-- Invalidation of the callers cached by every service process (platform/auth/callerCache.ts).
-- A process resolves a token's application (or user), its rights and its office path once
-- and keeps them until one of these tables changes.
--
-- Each statement that writes applications, users or offices moves caller_changes.version
-- on and notifies the channel fieldwork_callers ('<schema> <version>'), delivered at
-- commit to every process listening on the database, which drops its cached callers and
-- records the version it has seen in caller_listeners. A writer that must not return
-- before every process has dropped them (the fieldwork command: apps disable, delete,
-- rotate-secret, import...) waits until every live listener has seen its version, so a
-- revocation takes effect on the very next request, in every process.
CREATE TABLE caller_changes (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL
);
INSERT INTO caller_changes (id, version) VALUES (true, 0);

-- One row per listening service process (PostgreSQL); beat_at moves every 5 s (a killed
-- process's row stops counting after 15 s).
CREATE TABLE caller_listeners (
  id text PRIMARY KEY,
  seen bigint NOT NULL,
  beat_at timestamptz NOT NULL DEFAULT now()
);

CREATE OR REPLACE FUNCTION fieldwork_callers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  UPDATE caller_changes SET version = version + 1 RETURNING version INTO v;
  PERFORM pg_notify('fieldwork_callers', TG_TABLE_SCHEMA || ' ' || v);
  RETURN NULL;
END
$$;

CREATE TRIGGER applications_callers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON applications
  FOR EACH STATEMENT EXECUTE FUNCTION fieldwork_callers_changed();
CREATE TRIGGER users_callers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION fieldwork_callers_changed();
CREATE TRIGGER offices_callers_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON offices
  FOR EACH STATEMENT EXECUTE FUNCTION fieldwork_callers_changed();
