-- Project management (issue 11): projects with their ordered jobs (phases, tasks, work
-- orders) and dependencies, and service orders (standard, route, multi-equipment) with their
-- ordered work orders.
--
-- Order: each container keeps an order key (`rank`) per entry, spaced 65,536 apart when
-- renumbered; an insertion takes the middle of its neighbours' keys (the container is
-- renumbered when they touch). Positions are counted in rank order, so a removal (a work
-- order deleted: ON DELETE CASCADE) leaves no gap. The rank is unique per container; the
-- constraint is checked at the end of each statement (DEFERRABLE) so one UPDATE can renumber.
-- Writers lock the container row (SELECT ... FOR NO KEY UPDATE) for the whole transaction.

CREATE TABLE projects (
  id bigserial PRIMARY KEY,
  code text COLLATE "C" NOT NULL UNIQUE CHECK (length(code) BETWEEN 1 AND 50),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 10000),
  office_id bigint NOT NULL REFERENCES offices(id),
  -- completed is terminal.
  status text NOT NULL DEFAULT 'inProgress' CHECK (status IN ('inProgress', 'completed')),
  last_update timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX projects_office ON projects (office_id, code);

CREATE TABLE project_jobs (
  id bigserial PRIMARY KEY,
  project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  rank bigint NOT NULL,
  job_type text NOT NULL CHECK (job_type IN ('phase', 'task', 'workOrder')),
  -- Phase code, or task number (digits without leading zeros); null for a work order.
  code text COLLATE "C",
  -- A work order is in one project at most.
  work_order_id bigint UNIQUE REFERENCES work_orders(id) ON DELETE CASCADE,
  name text,
  -- Phases and tasks; a work order's planned dates are its schedule.
  planned_start timestamptz,
  planned_end timestamptz,
  CHECK ((job_type = 'workOrder') = (work_order_id IS NOT NULL)),
  CHECK ((job_type = 'workOrder') = (code IS NULL)),
  CHECK (planned_start IS NULL OR planned_end IS NULL OR planned_end >= planned_start),
  CONSTRAINT project_jobs_rank UNIQUE (project_id, rank) DEFERRABLE INITIALLY IMMEDIATE,
  CONSTRAINT project_jobs_code UNIQUE (project_id, job_type, code)
);

-- blocking must end before blocked starts. Tasks and work orders only (checked by the service).
CREATE TABLE project_dependencies (
  project_id bigint NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  blocking_job_id bigint NOT NULL REFERENCES project_jobs(id) ON DELETE CASCADE,
  blocked_job_id bigint NOT NULL REFERENCES project_jobs(id) ON DELETE CASCADE,
  PRIMARY KEY (project_id, blocking_job_id, blocked_job_id),
  CHECK (blocking_job_id <> blocked_job_id)
);
CREATE INDEX project_dependencies_blocking ON project_dependencies (blocking_job_id);
CREATE INDEX project_dependencies_blocked ON project_dependencies (blocked_job_id);

-- One namespace of codes for the three kinds: a route or multi-equipment code is unknown to
-- the standard link, and the other way round.
CREATE TABLE service_orders (
  id bigserial PRIMARY KEY,
  code text COLLATE "C" NOT NULL UNIQUE CHECK (length(code) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('standard', 'route', 'multiEquipment')),
  office_id bigint NOT NULL REFERENCES offices(id),
  status text CHECK (status IN ('open', 'inProgress', 'completed', 'validated')),
  -- null: the instance's maximum (FIELDWORK_SERVICE_ORDER_MAX).
  max_work_orders integer CHECK (max_work_orders >= 0),
  last_update timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'multiEquipment') = (status IS NULL))
);
CREATE INDEX service_orders_kind_office ON service_orders (kind, office_id, code);

-- A work order is in one service order at most (standard or route).
CREATE TABLE service_order_work_orders (
  service_order_id bigint NOT NULL REFERENCES service_orders(id) ON DELETE CASCADE,
  work_order_id bigint NOT NULL UNIQUE REFERENCES work_orders(id) ON DELETE CASCADE,
  rank bigint NOT NULL,
  PRIMARY KEY (service_order_id, work_order_id),
  CONSTRAINT service_order_work_orders_rank UNIQUE (service_order_id, rank) DEFERRABLE INITIALLY IMMEDIATE
);
