-- The change log (issue 29, 1): one entry per committed change of a record, in every
-- domain and from every path (API, console, import, command line), written by the
-- database itself so that no write can forget it.
--
-- Each record table has a DEFERRED constraint trigger: it fires at COMMIT with the row
-- as it was before and after the statement, compares them, and appends the entry. The
-- entry's id comes from the tenant's counter row, taken at that moment and held until
-- the commit ends: ids increase per tenant in commit order (a reader that saw id N has
-- seen every entry below N, the feed's and the stream's guarantee), while the lock is
-- held for the commit only, not for the whole transaction.
--
-- The actor is the transaction's `fieldwork.actor` (set by writeTransaction from the
-- request's caller, or by the command line); without one, the process `fieldwork`.

CREATE TABLE changes (
  tenant_id bigint NOT NULL DEFAULT fieldwork_tenant(),
  id bigint NOT NULL,
  kind text NOT NULL,
  code text COLLATE "C" NOT NULL,
  uuid uuid,
  -- null for the catalog (items, skills): the whole tenant reads it.
  office_id bigint,
  -- The office a record left (a move): the trees of that office get a tombstone.
  previous_office_id bigint,
  action text NOT NULL,
  actor jsonb NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  fields jsonb NOT NULL DEFAULT '[]',
  PRIMARY KEY (tenant_id, id)
);
-- A record's history, newest first (codes reach 10,000 characters: the hash keys the index).
CREATE INDEX changes_record ON changes (tenant_id, kind, md5(code), id);
-- Pruning past the retention.
CREATE INDEX changes_at ON changes (at);

-- The tenant's last entry id, and the last one pruned (a cursor below it has expired).
CREATE TABLE change_counters (
  tenant_id bigint PRIMARY KEY DEFAULT fieldwork_tenant(),
  last_id bigint NOT NULL,
  pruned_through bigint NOT NULL DEFAULT 0
);

ALTER TABLE changes ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant ON changes USING (tenant_id = (SELECT fieldwork_tenant()))
  WITH CHECK (tenant_id = (SELECT fieldwork_tenant()));
ALTER TABLE change_counters ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant ON change_counters USING (tenant_id = (SELECT fieldwork_tenant()))
  WITH CHECK (tenant_id = (SELECT fieldwork_tenant()));

-- snake_case column -> the API's camelCase field name.
CREATE FUNCTION change_field_name(col text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT string_agg(CASE WHEN i = 1 THEN p ELSE initcap(p) END, '' ORDER BY i)
  FROM unnest(string_to_array(col, '_')) WITH ORDINALITY AS t(p, i)
$$;

-- A value as the log keeps it: texts past 1,000 characters cut with a marker (structured
-- values past 4,000 characters of JSON become such a text).
CREATE FUNCTION change_value(v jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN v IS NULL OR v = 'null'::jsonb THEN 'null'::jsonb
    WHEN jsonb_typeof(v) = 'string' AND length(v #>> '{}') > 1000
      THEN to_jsonb(left(v #>> '{}', 1000) || '…[truncated]')
    WHEN jsonb_typeof(v) IN ('object', 'array') AND length(v::text) > 4000
      THEN to_jsonb(left(v::text, 1000) || '…[truncated]')
    ELSE v END
$$;

-- The fields that differ between two JSON objects (every field with `everything`), as
-- [{name, before, after}], by name.
CREATE FUNCTION change_fields(o jsonb, n jsonb, prefix text, camel boolean, everything boolean DEFAULT false)
RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_agg(jsonb_build_object(
           'name', prefix || CASE WHEN camel THEN change_field_name(k) ELSE k END,
           'before', change_value(coalesce(o, '{}') -> k),
           'after', change_value(coalesce(n, '{}') -> k)) ORDER BY k), '[]'::jsonb)
  FROM jsonb_object_keys(coalesce(o, '{}') || coalesce(n, '{}')) AS k
  WHERE everything OR (coalesce(o, '{}') -> k) IS DISTINCT FROM (coalesce(n, '{}') -> k)
$$;

-- Columns never in an entry: keys and bookkeeping, and secrets (a subscription's secret;
-- no record table holds a password hash, users are not logged).
CREATE FUNCTION change_row(r jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT r - ARRAY['tenant_id', 'id', 'seq', 'last_update', 'search', 'office_id', 'custom_fields',
                   'secret', 'work_order_id', 'project_id', 'service_order_id', 'application_id',
                   'user_id', 'rank']
$$;

CREATE FUNCTION office_code_of(office bigint) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT code FROM offices WHERE id = office
$$;

CREATE FUNCTION record_change() RETURNS trigger LANGUAGE plpgsql AS $$
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
  v_id bigint;
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
  INSERT INTO change_counters AS c (tenant_id, last_id) VALUES (v_tenant, 1)
    ON CONFLICT (tenant_id) DO UPDATE SET last_id = c.last_id + 1
    RETURNING last_id INTO v_id;
  INSERT INTO changes (tenant_id, id, kind, code, uuid, office_id, previous_office_id, action, actor, fields)
    VALUES (v_tenant, v_id, v_kind, v_code, v_uuid, v_office, v_previous, v_action, v_actor, v_fields);
  -- Wakes the streams of every process at commit (one notification per tenant and commit).
  PERFORM pg_notify('fieldwork_changes:' || current_schema(), v_tenant::text);
  RETURN NULL;
END $$;

DO $$
DECLARE
  t text[];
BEGIN
  FOREACH t SLICE 1 IN ARRAY ARRAY[
    ['customers', 'customer'], ['sites', 'site'], ['assets', 'asset'], ['items', 'item'],
    ['skills', 'skill'], ['work_orders', 'workOrder'], ['projects', 'project'],
    ['service_orders', 'serviceOrder'], ['webhook_subscriptions', 'subscription'],
    ['activities', 'workOrder'], ['used_items', 'workOrder'], ['project_jobs', 'project'],
    ['project_dependencies', 'project'], ['service_order_work_orders', 'workOrder']] LOOP
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION record_change(%L)',
      t[1] || '_change', t[1], t[2]);
  END LOOP;
END $$;
