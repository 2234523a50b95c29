-- Revocation of applications (fieldwork apps disable|enable|rotate-secret|delete).
-- A token carries the application's row id and token_version when it is issued; the API
-- loads the application on every request and refuses a token whose application is
-- disabled (disabled_at set), deleted (no row with that id) or has had its secret rotated
-- since (token_version moved on). changed_at moves with every such change, for a cache of
-- callers to tell a stale entry (invalidation across processes).
ALTER TABLE applications ADD COLUMN disabled_at timestamptz;
ALTER TABLE applications ADD COLUMN token_version integer NOT NULL DEFAULT 1;
ALTER TABLE applications ADD COLUMN secret_rotated_at timestamptz;
ALTER TABLE applications ADD COLUMN changed_at timestamptz NOT NULL DEFAULT now();
