-- Technicians (field resources): who does the work. Written by the operator's import
-- (`technicians` key); read through the rostering, field tracking and scheduling endpoints.
-- Codes are uppercase, 1..200 characters, unique per instance: no endpoint of the API
-- creates a technician, so a code's existence is never revealed to another office.
CREATE TABLE technicians (
  code text COLLATE "C" PRIMARY KEY CHECK (length(code) BETWEEN 1 AND 200),
  name text NOT NULL,
  office_id bigint NOT NULL REFERENCES offices(id),
  -- Skill codes (staff.skills); checked by the importer.
  skills text[] NOT NULL DEFAULT '{}',
  active boolean NOT NULL DEFAULT true,
  -- Both or none: where the technician's day starts and ends.
  home_latitude double precision,
  home_longitude double precision,
  last_update timestamptz NOT NULL DEFAULT now(),
  CHECK ((home_latitude IS NULL) = (home_longitude IS NULL))
);
CREATE INDEX technicians_office ON technicians (office_id, code);
