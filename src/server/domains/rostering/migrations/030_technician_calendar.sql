-- A technician's calendar, read by the slot search and the scheduling checks (issue 12).
-- working_hours: [{weekday 1..7 (Monday = 1), start "HH:MM", end "HH:MM"}] in time_zone;
-- absences: [{start, end}] instants (ISO 8601, UTC); both replaced whole by the import.
-- Capacity (null: no limit) applies per local day unless a search ignores it.
ALTER TABLE technicians
  ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC',
  ADD COLUMN working_hours jsonb,
  ADD COLUMN absences jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN max_work_orders_per_day integer CHECK (max_work_orders_per_day >= 0),
  ADD COLUMN max_minutes_per_day integer CHECK (max_minutes_per_day >= 0),
  -- Area codes (areas.code) the technician covers.
  ADD COLUMN areas text[] NOT NULL DEFAULT '{}';

-- Areas: named sets of zip codes (slot search: areas, zone filter, area scope).
CREATE TABLE areas (
  code text COLLATE "C" PRIMARY KEY CHECK (length(code) BETWEEN 1 AND 200),
  name text NOT NULL,
  zip_codes text[] NOT NULL DEFAULT '{}',
  last_update timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX technicians_areas ON technicians USING gin (areas);
