-- Idempotency-Key (issue 29, 5; platform/idempotency.ts): the first answer to a POST sent
-- with a key, kept 24 hours per caller so that the same request sent again is answered
-- with it instead of being done twice. A tenant's rows like any other (migration 090): the
-- request's tenant by default, row-level security over every statement of a request.
CREATE TABLE idempotency_keys (
  tenant_id bigint NOT NULL DEFAULT fieldwork_tenant(),
  -- 'application:<applications.id>' or 'user:<users.id>': two callers never share a key
  caller text NOT NULL,
  key text NOT NULL,
  -- SHA-256 of the method, the path (with its query) and the body of the first request
  fingerprint text NOT NULL,
  -- the attempt holding the key: only it may record the answer or give the key back
  owner uuid NOT NULL,
  -- the first answer; NULL while the first request runs
  status smallint,
  headers jsonb,
  body text,
  -- while status is NULL: past it, the attempt is taken for lost (its process died)
  locked_until timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, caller, key)
);
-- The pruning of expired keys, in batches (platform/idempotency.ts).
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
ALTER TABLE idempotency_keys ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant ON idempotency_keys USING (tenant_id = (SELECT fieldwork_tenant()))
  WITH CHECK (tenant_id = (SELECT fieldwork_tenant()));
