-- Work orders and their types: the model the field tracking, field service, project
-- management, scheduling, diagnostic and webhooks domains build on.
--
-- A work order has a unique `uuid` and a business `code` that is NOT unique: a validated and
-- a live (non-validated) work order may share it, and several live ones may too (the project
-- link then refuses the code as ambiguous). Statuses in order (gaps.md): NEW, QUALIFIED,
-- PRE_SCHEDULED, SCHEDULED, IN_PROGRESS, COMPLETED, VALIDATED, CANCELLED.

CREATE TABLE work_order_types (
  code text COLLATE "C" PRIMARY KEY CHECK (length(code) BETWEEN 1 AND 200),
  name text NOT NULL,
  duration_minutes integer NOT NULL CHECK (duration_minutes > 0),
  -- Skill codes a technician needs for this type of work.
  skills text[] NOT NULL DEFAULT '{}',
  last_update timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE work_orders (
  id bigserial PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE,
  code text COLLATE "C" NOT NULL CHECK (length(code) BETWEEN 1 AND 200),
  type_code text COLLATE "C" NOT NULL REFERENCES work_order_types(code),
  status text NOT NULL CHECK (status IN ('NEW', 'QUALIFIED', 'PRE_SCHEDULED', 'SCHEDULED',
    'IN_PROGRESS', 'COMPLETED', 'VALIDATED', 'CANCELLED')),
  office_id bigint NOT NULL REFERENCES offices(id),
  -- Codes of the referentials records as the back office gave them (labels, not keys: a
  -- referentials code names one record per office).
  customer_code text,
  site_code text,
  asset_code text,
  address text,
  zip_code text,
  city text,
  country text,
  latitude double precision,
  longitude double precision,
  description text,
  -- Schedule: the end is scheduled_start plus the type's duration.
  technician_code text COLLATE "C" REFERENCES technicians(code),
  scheduled_start timestamptz,
  last_update timestamptz NOT NULL DEFAULT now(),
  CHECK ((latitude IS NULL) = (longitude IS NULL))
);
-- Lookup by code (live first) and the console's keyset list by code.
CREATE INDEX work_orders_code ON work_orders (code, id);
CREATE INDEX work_orders_office ON work_orders (office_id, code, id);
-- A technician's day (slot search, scheduling).
CREATE INDEX work_orders_technician_start ON work_orders (technician_code, scheduled_start)
  WHERE technician_code IS NOT NULL;
