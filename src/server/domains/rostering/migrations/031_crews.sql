-- Crews (spec endpoint 6): a main resource and secondary resources, each with participation
-- intervals of whole days (`to_date` null: open-ended). A crew has no office of its own: it
-- is visible to a caller when one of its members belongs to the caller's tree.
CREATE TABLE crews (
  code text COLLATE "C" PRIMARY KEY CHECK (length(code) BETWEEN 1 AND 200),
  -- Any disabling date hides the crew from the list (spec: "crews with a disabling date").
  disabled_at date,
  -- The members as imported, one jsonb value so that a replayed import changes nothing.
  members jsonb NOT NULL,
  last_update timestamptz NOT NULL DEFAULT now()
);

-- One row per participation interval, written with the crew (queries filter on it).
CREATE TABLE crew_members (
  crew_code text COLLATE "C" NOT NULL REFERENCES crews(code) ON DELETE CASCADE,
  technician_code text COLLATE "C" NOT NULL REFERENCES technicians(code),
  is_main boolean NOT NULL,
  from_date date NOT NULL,
  to_date date,
  CHECK (to_date IS NULL OR to_date >= from_date)
);
CREATE INDEX crew_members_crew ON crew_members (crew_code);
CREATE INDEX crew_members_technician ON crew_members (technician_code);
