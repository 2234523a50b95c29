-- An activity or a used item added or removed is one field of its work order's entry whose
-- value is the whole line: its keys are now the API's camelCase names (`typeCode`,
-- `startTime`), as the fields of a line changed in place always were (change_fields);
-- migration 103 gave the line's columns as they are (`type_code`). Entries already written
-- keep their keys (they age out with the retention).

-- A row as an object of API field names, without the columns the log leaves out (change_row).
CREATE FUNCTION change_object(r jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  k text;
  v jsonb;
  out jsonb := '{}';
BEGIN
  FOR k, v IN SELECT * FROM jsonb_each(change_row(r)) LOOP
    out := out || jsonb_build_object(change_field_name(k), v);
  END LOOP;
  RETURN out;
END $$;

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
          'before', CASE WHEN o IS NULL THEN 'null'::jsonb ELSE change_value(change_object(o)) END,
          'after', CASE WHEN n IS NULL THEN 'null'::jsonb ELSE change_value(change_object(n)) END));
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

