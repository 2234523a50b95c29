-- The change log's ids without a lock per tenant (issue 29, 1: a PUT may lose at most 15 %
-- of its throughput; migration 100's counter row lost half). The counter row was locked at
-- COMMIT and held through the commit's disk flush, so the commits of one tenant were flushed
-- one after the other, and the NOTIFY of each commit took PostgreSQL's global notify lock
-- the same way.
--
-- Now an entry takes its id from a sequence, still at COMMIT (the trigger is deferred), so
-- ids follow commit order for any one record. Two commits may become visible in the other
-- order than their ids, for an instant: a reader that saw id N must not later find N-1. So
-- a committing transaction holds a shared advisory lock from its first id until it is
-- visible, and a reader takes its upper bound from change_horizon(), which takes the lock
-- exclusively (waiting for the commits in flight, a disk flush at most) and reads the
-- sequence: every id up to the bound is then visible, or was rolled back. Writers share
-- the lock: they never wait for each other. The streams poll the log (domain stream.ts)
-- instead of being notified.

CREATE SEQUENCE change_ids;
SELECT setval('change_ids', coalesce((SELECT max(id) FROM changes), 0) + 1, false);

-- Every id up to the result is visible or will never be (a statement of its own, outside
-- any transaction: the lock is the statement's and goes with it).
CREATE FUNCTION change_horizon() RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(29, hashtext(current_schema()));
  RETURN (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM change_ids);
END $$;

-- The diff in PL/pgSQL, whose plans are kept for the session: migration 100's SQL functions
-- (an aggregate each, so not inlined) were planned again at every call, per changed field.
CREATE OR REPLACE FUNCTION change_field_name(col text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  parts text[];
  name text;
BEGIN
  IF strpos(col, '_') = 0 THEN RETURN col; END IF;
  parts := string_to_array(col, '_');
  name := parts[1];
  FOR i IN 2 .. array_length(parts, 1) LOOP
    name := name || initcap(parts[i]);
  END LOOP;
  RETURN name;
END $$;

CREATE OR REPLACE FUNCTION change_fields(o jsonb, n jsonb, prefix text, camel boolean, everything boolean DEFAULT false)
RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  k text;
  fields jsonb := '[]';
BEGIN
  o := coalesce(o, '{}');
  n := coalesce(n, '{}');
  FOR k IN SELECT jsonb_object_keys(o || n) ORDER BY 1 LOOP
    IF everything OR (o -> k) IS DISTINCT FROM (n -> k) THEN
      fields := fields || jsonb_build_object(
        'name', prefix || CASE WHEN camel THEN change_field_name(k) ELSE k END,
        'before', change_value(o -> k),
        'after', change_value(n -> k));
    END IF;
  END LOOP;
  RETURN fields;
END $$;

-- Lighter indexes for an entry written at every commit: a record's history keyed by an
-- 8-byte hash of its code instead of a 32-character md5, and pruning by time through a BRIN
-- index (entries are appended in time order) instead of a B-tree entry per row.
DROP INDEX changes_record;
CREATE INDEX changes_record ON changes (tenant_id, kind, hashtextextended(code, 0), id);
DROP INDEX changes_at;
CREATE INDEX changes_at ON changes USING brin (at);

-- Only what pruning moved remains of the counters.
ALTER TABLE change_counters DROP COLUMN last_id;

CREATE OR REPLACE FUNCTION record_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  o jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END;
  n jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END;
  r jsonb := coalesce(n, o);
  v_kind text := TG_ARGV[0];
  v_tenant bigint := (r ->> 'tenant_id')::bigint;
  v_code text;
  v_uuid uuid;
  v_office bigint;
  v_previous bigint;
  v_action text := CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'DELETE' THEN 'deleted' ELSE 'updated' END;
  v_fields jsonb := '[]';
  v_part text;
  v_actor jsonb;
BEGIN
  IF TG_TABLE_NAME IN ('activities', 'used_items', 'service_order_work_orders')
     OR (TG_TABLE_NAME = 'project_jobs' AND r ->> 'work_order_id' IS NOT NULL) THEN
    -- A part of a work order: a line of the work order's own history. Gone with its work
    -- order (a cascade), it adds nothing: the work order's deletion says it.
    SELECT w.code, w.uuid, w.office_id INTO v_code, v_uuid, v_office
      FROM work_orders w WHERE w.id = (r ->> 'work_order_id')::bigint;
    IF NOT FOUND THEN RETURN NULL; END IF;
    v_kind := 'workOrder';
    IF TG_TABLE_NAME = 'activities' OR TG_TABLE_NAME = 'used_items' THEN
      v_part := CASE TG_TABLE_NAME WHEN 'activities' THEN 'activities.' || (r ->> 'activity_id')
                                   ELSE 'usedItems.' || (r ->> 'used_item_id') END;
      v_action := 'updated';
      IF TG_OP = 'UPDATE' THEN
        v_fields := change_fields(change_row(o), change_row(n), v_part || '.', true);
      ELSE
        v_fields := jsonb_build_array(jsonb_build_object('name', v_part,
          'before', CASE WHEN o IS NULL THEN 'null'::jsonb ELSE change_value(change_row(o)) END,
          'after', CASE WHEN n IS NULL THEN 'null'::jsonb ELSE change_value(change_row(n)) END));
      END IF;
    ELSE
      -- A link into a project or a service order.
      IF TG_OP = 'UPDATE' THEN RETURN NULL; END IF; -- a new rank only
      v_action := CASE TG_OP WHEN 'INSERT' THEN 'linked' ELSE 'unlinked' END;
      IF TG_TABLE_NAME = 'project_jobs' THEN
        SELECT 'project', to_jsonb(p.code) INTO v_part, r FROM projects p WHERE p.id = (r ->> 'project_id')::bigint;
      ELSE
        SELECT 'serviceOrder', to_jsonb(s.code) INTO v_part, r FROM service_orders s
          WHERE s.id = (r ->> 'service_order_id')::bigint;
      END IF;
      IF v_part IS NULL THEN RETURN NULL; END IF; -- gone with its project or service order
      v_fields := jsonb_build_array(jsonb_build_object('name', v_part,
        'before', CASE WHEN TG_OP = 'DELETE' THEN r ELSE 'null'::jsonb END,
        'after', CASE WHEN TG_OP = 'INSERT' THEN r ELSE 'null'::jsonb END));
    END IF;
  ELSIF TG_TABLE_NAME = 'project_jobs' OR TG_TABLE_NAME = 'project_dependencies' THEN
    -- Phases, tasks and dependencies: lines of the project's history.
    SELECT p.code, p.office_id INTO v_code, v_office FROM projects p WHERE p.id = (r ->> 'project_id')::bigint;
    IF NOT FOUND THEN RETURN NULL; END IF;
    v_kind := 'project';
    IF TG_TABLE_NAME = 'project_jobs' THEN
      v_part := 'jobs.' || (r ->> 'job_type') || '.' || (r ->> 'code');
      v_fields := change_fields(change_row(o), change_row(n), v_part || '.', true);
    ELSE
      v_action := CASE TG_OP WHEN 'INSERT' THEN 'linked' WHEN 'DELETE' THEN 'unlinked' ELSE 'updated' END;
      v_fields := jsonb_build_array(jsonb_build_object('name', 'dependencies',
        'before', CASE WHEN TG_OP = 'DELETE' THEN jsonb_build_object('blocking', o -> 'blocking_job_id', 'blocked', o -> 'blocked_job_id') ELSE 'null'::jsonb END,
        'after', CASE WHEN TG_OP = 'INSERT' THEN jsonb_build_object('blocking', n -> 'blocking_job_id', 'blocked', n -> 'blocked_job_id') ELSE 'null'::jsonb END));
    END IF;
    IF TG_TABLE_NAME = 'project_jobs' THEN v_action := 'updated'; END IF;
  ELSE
    -- A record of its own.
    v_code := CASE TG_TABLE_NAME WHEN 'webhook_subscriptions' THEN r ->> 'id' ELSE r ->> 'code' END;
    v_uuid := CASE TG_TABLE_NAME WHEN 'work_orders' THEN (r ->> 'uuid')::uuid
                                 WHEN 'webhook_subscriptions' THEN (r ->> 'id')::uuid END;
    IF TG_TABLE_NAME = 'webhook_subscriptions' THEN
      SELECT coalesce((SELECT a.office_id FROM applications a WHERE a.id = (r ->> 'application_id')::bigint),
                      (SELECT u.office_id FROM users u WHERE u.id = (r ->> 'user_id')::bigint)) INTO v_office;
    ELSE
      v_office := (r ->> 'office_id')::bigint;
    END IF;
    IF TG_OP = 'UPDATE' THEN
      IF (o ->> 'office_id') IS DISTINCT FROM (n ->> 'office_id') THEN
        v_previous := (o ->> 'office_id')::bigint;
      END IF;
      -- A move names every field: the trees it enters learn the whole record from it.
      v_fields := change_fields(change_row(o), change_row(n), '', true, v_previous IS NOT NULL)
        || change_fields(o -> 'custom_fields', n -> 'custom_fields', 'customFields.', false, v_previous IS NOT NULL);
      IF v_previous IS NOT NULL THEN
        v_fields := v_fields || jsonb_build_array(jsonb_build_object('name', 'officeCode',
          'before', to_jsonb(office_code_of(v_previous)), 'after', to_jsonb(office_code_of(v_office))));
      END IF;
      IF TG_TABLE_NAME = 'work_orders' THEN
        IF n ->> 'status' = 'VALIDATED' AND o ->> 'status' <> 'VALIDATED' THEN
          v_action := 'validated';
        ELSIF (o -> 'technician_code', o -> 'crew_code', o -> 'scheduled_start')
              IS DISTINCT FROM (n -> 'technician_code', n -> 'crew_code', n -> 'scheduled_start') THEN
          v_action := CASE WHEN n ->> 'scheduled_start' IS NULL THEN 'unscheduled' ELSE 'scheduled' END;
        END IF;
      END IF;
    ELSIF TG_OP = 'INSERT' THEN
      v_fields := change_fields(NULL, change_row(n), '', true)
        || change_fields(NULL, n -> 'custom_fields', 'customFields.', false);
    END IF;
  END IF;
  IF TG_OP = 'UPDATE' AND jsonb_array_length(v_fields) = 0 AND v_previous IS NULL THEN
    RETURN NULL; -- written again unchanged
  END IF;

  v_actor := coalesce(nullif(current_setting('fieldwork.actor', true), '')::jsonb,
                      '{"type": "process", "identifier": "fieldwork"}'::jsonb);
  -- Held until this transaction is visible: change_horizon() waits for it (see above).
  PERFORM pg_advisory_xact_lock_shared(29, hashtext(current_schema()));
  INSERT INTO changes (tenant_id, id, kind, code, uuid, office_id, previous_office_id, action, actor, fields)
    VALUES (v_tenant, nextval('change_ids'), v_kind, v_code, v_uuid, v_office, v_previous, v_action, v_actor, v_fields);
  RETURN NULL;
END $$;

