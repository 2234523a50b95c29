-- A work order scheduled on a crew (scheduling PUT with crewCode): technician_code holds the
-- crew's main resource, crew_code the crew. Written by scheduling through writeSchedule.
ALTER TABLE work_orders ADD COLUMN crew_code text COLLATE "C" REFERENCES crews(code);
