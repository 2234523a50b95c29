-- Referentials: customers, sites, assets (spec: endpoints 13-18, gaps.md for assets).
-- Codes are the keys: stored uppercase, unique per instance. A parent references a code
-- of the same table; a record belongs to one office (office scope filters on office_id).
-- Text columns keep '' and NULL apart (spec: General conventions 5).
CREATE TABLE customers (
  code text PRIMARY KEY,
  name text NOT NULL,
  parent_code text REFERENCES customers(code),
  office_id bigint NOT NULL REFERENCES offices(id),
  contact jsonb,
  address text,
  zip_code text,
  city text NOT NULL,
  country text,
  description text,
  custom_fields jsonb NOT NULL DEFAULT '{}',
  last_update timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX customers_parent ON customers (parent_code);
CREATE INDEX customers_office ON customers (office_id, code);

CREATE TABLE sites (
  code text PRIMARY KEY,
  name text NOT NULL,
  customer_code text NOT NULL REFERENCES customers(code),
  parent_code text REFERENCES sites(code),
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
  CHECK ((latitude IS NULL) = (longitude IS NULL))
);
CREATE INDEX sites_parent ON sites (parent_code);
CREATE INDEX sites_customer ON sites (customer_code);
CREATE INDEX sites_office ON sites (office_id, code);

CREATE TABLE assets (
  code text PRIMARY KEY,
  name text NOT NULL,
  site_code text REFERENCES sites(code),
  customer_code text REFERENCES customers(code),
  parent_code text REFERENCES assets(code),
  office_id bigint NOT NULL REFERENCES offices(id),
  serial_number text,
  description text,
  custom_fields jsonb NOT NULL DEFAULT '{}',
  last_update timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assets_parent ON assets (parent_code);
CREATE INDEX assets_site ON assets (site_code);
CREATE INDEX assets_customer ON assets (customer_code);
CREATE INDEX assets_office ON assets (office_id, code);
