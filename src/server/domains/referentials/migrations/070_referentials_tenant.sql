-- Codes are unique per tenant, not per instance (issue 8, OWASP API1). A tenant is a root
-- office and every office below it; a caller's tree always lies inside one tenant, so a
-- record of another tenant never blocks a code, never answers a PUT, never shows. Inside a
-- tenant the offices share their codes (one company's customers): a PUT on a code held by
-- an office of the tenant outside the caller's tree is still refused with office.unknown.
-- `tenant_id` is the id of the root of the record's office, kept by a trigger from
-- `office_id` (offices never move: platform/offices.ts), so no writer can get it wrong.
CREATE FUNCTION referentials_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT split_part(o.path, '/', 2)::bigint INTO NEW.tenant_id FROM offices o WHERE o.id = NEW.office_id;
  RETURN NEW;
END $$;

ALTER TABLE customers ADD COLUMN tenant_id bigint;
ALTER TABLE sites ADD COLUMN tenant_id bigint;
ALTER TABLE assets ADD COLUMN tenant_id bigint;
UPDATE customers t SET tenant_id = split_part(o.path, '/', 2)::bigint FROM offices o WHERE o.id = t.office_id;
UPDATE sites t SET tenant_id = split_part(o.path, '/', 2)::bigint FROM offices o WHERE o.id = t.office_id;
UPDATE assets t SET tenant_id = split_part(o.path, '/', 2)::bigint FROM offices o WHERE o.id = t.office_id;
ALTER TABLE customers ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE sites ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE assets ALTER COLUMN tenant_id SET NOT NULL;

CREATE TRIGGER customers_tenant BEFORE INSERT OR UPDATE OF office_id ON customers
  FOR EACH ROW EXECUTE FUNCTION referentials_tenant();
CREATE TRIGGER sites_tenant BEFORE INSERT OR UPDATE OF office_id ON sites
  FOR EACH ROW EXECUTE FUNCTION referentials_tenant();
CREATE TRIGGER assets_tenant BEFORE INSERT OR UPDATE OF office_id ON assets
  FOR EACH ROW EXECUTE FUNCTION referentials_tenant();

-- Uniqueness moves from the code to (tenant, code); the hash indexes on code (lookups) stay
-- as plain indexes: a code now names at most one record per tenant.
ALTER TABLE customers DROP CONSTRAINT customers_code_unique;
ALTER TABLE sites DROP CONSTRAINT sites_code_unique;
ALTER TABLE assets DROP CONSTRAINT assets_code_unique;
ALTER TABLE customers ADD CONSTRAINT customers_tenant_code_unique
  EXCLUDE USING hash ((tenant_id::text || '/' || code) WITH =);
ALTER TABLE sites ADD CONSTRAINT sites_tenant_code_unique
  EXCLUDE USING hash ((tenant_id::text || '/' || code) WITH =);
ALTER TABLE assets ADD CONSTRAINT assets_tenant_code_unique
  EXCLUDE USING hash ((tenant_id::text || '/' || code) WITH =);
CREATE INDEX customers_code ON customers USING hash (code);
CREATE INDEX sites_code ON sites USING hash (code);
CREATE INDEX assets_code ON assets USING hash (code);
