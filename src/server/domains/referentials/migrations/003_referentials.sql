-- Referentials: customers, sites, assets (spec: endpoints 13-18, gaps.md for assets).
-- Codes are the keys: stored uppercase, unique per instance, 1..10000 characters (spec:
-- siteCode length 1..10000). A btree entry holds about 2700 bytes, so a code cannot be
-- a btree key: uniqueness is an exclusion constraint over a hash index (which also serves
-- lookups by code), and the keyset order of the lists uses a btree on a 512-character
-- prefix, exact in byte order (COLLATE "C"): `ORDER BY left(code, 512), code`.
-- References (parent, customer, site) are codes checked by the service under a lock of
-- the entity type; records are never deleted nor renamed.
-- Text columns keep '' and NULL apart (spec: General conventions 5).
CREATE TABLE customers (
  code text COLLATE "C" NOT NULL CHECK (length(code) BETWEEN 1 AND 10000),
  name text NOT NULL,
  parent_code text COLLATE "C",
  office_id bigint NOT NULL REFERENCES offices(id),
  contact jsonb,
  address text,
  zip_code text,
  city text NOT NULL,
  country text,
  description text,
  custom_fields jsonb NOT NULL DEFAULT '{}',
  last_update timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT customers_code_unique EXCLUDE USING hash (code WITH =)
);
CREATE INDEX customers_code_order ON customers (left(code, 512));
CREATE INDEX customers_parent ON customers USING hash (parent_code);
CREATE INDEX customers_office ON customers (office_id);

CREATE TABLE sites (
  code text COLLATE "C" NOT NULL CHECK (length(code) BETWEEN 1 AND 10000),
  name text NOT NULL,
  customer_code text COLLATE "C" NOT NULL,
  parent_code text COLLATE "C",
  office_id bigint NOT NULL REFERENCES offices(id),
  contact jsonb,
  address text NOT NULL,
  zip_code text,
  city text NOT NULL,
  country text,
  -- Both or none (spec: location.geolocation).
  latitude double precision,
  longitude double precision,
  description text,
  custom_fields jsonb NOT NULL DEFAULT '{}',
  last_update timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT sites_code_unique EXCLUDE USING hash (code WITH =),
  CHECK ((latitude IS NULL) = (longitude IS NULL))
);
CREATE INDEX sites_code_order ON sites (left(code, 512));
CREATE INDEX sites_parent ON sites USING hash (parent_code);
CREATE INDEX sites_customer ON sites USING hash (customer_code);
CREATE INDEX sites_office ON sites (office_id);

CREATE TABLE assets (
  code text COLLATE "C" NOT NULL CHECK (length(code) BETWEEN 1 AND 10000),
  name text NOT NULL,
  site_code text COLLATE "C",
  customer_code text COLLATE "C",
  parent_code text COLLATE "C",
  office_id bigint NOT NULL REFERENCES offices(id),
  serial_number text,
  description text,
  custom_fields jsonb NOT NULL DEFAULT '{}',
  last_update timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT assets_code_unique EXCLUDE USING hash (code WITH =)
);
CREATE INDEX assets_code_order ON assets (left(code, 512));
CREATE INDEX assets_parent ON assets USING hash (parent_code);
CREATE INDEX assets_site ON assets USING hash (site_code);
CREATE INDEX assets_customer ON assets USING hash (customer_code);
CREATE INDEX assets_office ON assets (office_id);
