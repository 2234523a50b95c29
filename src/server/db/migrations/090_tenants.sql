-- Tenants, wholly apart (issue 24, 4). A tenant is a root office and every office below it.
-- Every record of the service now belongs to one tenant (`tenant_id`, the id of that root
-- office): codes are unique per tenant, references (foreign keys included) resolve inside
-- the tenant, and PostgreSQL's row-level security keeps every statement of a request inside
-- the caller's tenant, whatever its WHERE clause says (db/tenant.ts: the guard).
--
-- Platform tables stay instance-wide: offices (the tenants' own tree, read by path), the
-- authorization server's storage, secrets and the caller-change bookkeeping. Logins and
-- client ids stay unique in the instance (they are sign-in identities: docs/security.md)
-- but users and applications belong to their office's tenant like any record.
--
-- Upgrade of an existing database: a record with an office goes to its office's tenant, a
-- record hanging from another (used items, activities, notes, jobs, deliveries...) to its
-- parent's. The instance-wide catalog (items, skills, characteristics, work order types,
-- activity types, flags, areas, custom field definitions, geocoding entries) is COPIED to
-- every tenant: each tenant's work orders, technicians and used items keep naming the
-- entries they named, and a tenant's later change no longer reaches the others. A crew
-- goes to its main resource's tenant. Without any office, catalog rows are dropped (no
-- caller could read them: every application and user has an office).

-- The tenant of the current request: `fieldwork.tenant`, set per connection (or per
-- transaction) by the service for the role `fieldwork_tenant`. Unset, any statement that
-- reaches a tenant-owned table fails with SQLSTATE FW001 instead of reading nothing, or
-- everything.
CREATE FUNCTION fieldwork_tenant() RETURNS bigint LANGUAGE plpgsql STABLE AS $$
DECLARE
  v text := current_setting('fieldwork.tenant', true);
BEGIN
  IF v IS NULL OR v = '' THEN
    RAISE EXCEPTION 'tenant guard: no tenant for this statement' USING ERRCODE = 'FW001';
  END IF;
  RETURN v::bigint;
END $$;

-- The role the service takes for the requests of a tenant: no superuser, no BYPASSRLS, not
-- the tables' owner, so the policies below apply to it (PGlite runs as a superuser too:
-- SET ROLE works there as well). Roles are instance-wide: created once.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fieldwork_tenant') THEN
    CREATE ROLE fieldwork_tenant NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
  END IF;
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
     AND NOT pg_has_role(current_user, 'fieldwork_tenant', 'MEMBER') THEN
    EXECUTE format('GRANT fieldwork_tenant TO %I', current_user);
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  -- another database of the server created it at the same moment
  NULL;
END $$;

-- Tenant of a row from its office (the trigger of migration 070, for every office-owned table).
CREATE FUNCTION office_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT split_part(o.path, '/', 2)::bigint INTO NEW.tenant_id FROM offices o WHERE o.id = NEW.office_id;
  RETURN NEW;
END $$;

-- Tenant of a row from its parent row (read under the caller's policies: a parent of
-- another tenant is not found, and the NOT NULL refuses the row).
CREATE FUNCTION work_order_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT w.tenant_id INTO NEW.tenant_id FROM work_orders w WHERE w.id = NEW.work_order_id;
  RETURN NEW;
END $$;
CREATE FUNCTION project_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT p.tenant_id INTO NEW.tenant_id FROM projects p WHERE p.id = NEW.project_id;
  RETURN NEW;
END $$;
CREATE FUNCTION service_order_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT s.tenant_id INTO NEW.tenant_id FROM service_orders s WHERE s.id = NEW.service_order_id;
  RETURN NEW;
END $$;
CREATE FUNCTION subscription_owner_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT coalesce(
    (SELECT a.tenant_id FROM applications a WHERE a.id = NEW.application_id),
    (SELECT u.tenant_id FROM users u WHERE u.id = NEW.user_id)) INTO NEW.tenant_id;
  RETURN NEW;
END $$;
CREATE FUNCTION subscription_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT s.tenant_id INTO NEW.tenant_id FROM webhook_subscriptions s WHERE s.id = NEW.subscription_id;
  RETURN NEW;
END $$;
CREATE FUNCTION delivery_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT d.tenant_id INTO NEW.tenant_id FROM webhook_deliveries d WHERE d.id = NEW.delivery_id;
  RETURN NEW;
END $$;

-- Foreign keys on codes move to (tenant_id, code): dropped first, added back at the end.
ALTER TABLE activities DROP CONSTRAINT activities_agent_code_fkey;
ALTER TABLE activities DROP CONSTRAINT activities_type_code_fkey;
ALTER TABLE crew_members DROP CONSTRAINT crew_members_crew_code_fkey;
ALTER TABLE crew_members DROP CONSTRAINT crew_members_technician_code_fkey;
ALTER TABLE technician_positions DROP CONSTRAINT technician_positions_technician_code_fkey;
ALTER TABLE used_items DROP CONSTRAINT used_items_item_code_fkey;
ALTER TABLE used_items DROP CONSTRAINT used_items_technician_code_fkey;
ALTER TABLE work_order_flags DROP CONSTRAINT work_order_flags_flag_id_fkey;
ALTER TABLE work_orders DROP CONSTRAINT work_orders_crew_code_fkey;
ALTER TABLE work_orders DROP CONSTRAINT work_orders_technician_code_fkey;
ALTER TABLE work_orders DROP CONSTRAINT work_orders_type_code_fkey;

-- Office-owned tables: the tenant of the office, kept by the trigger.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['technicians', 'customer_portal_users', 'work_orders', 'projects',
                           'service_orders', 'users', 'applications'] LOOP
    EXECUTE format('ALTER TABLE %I ADD COLUMN tenant_id bigint', t);
    EXECUTE format('UPDATE %I x SET tenant_id = split_part(o.path, ''/'', 2)::bigint FROM offices o WHERE o.id = x.office_id', t);
    EXECUTE format('ALTER TABLE %I ALTER COLUMN tenant_id SET NOT NULL', t);
    EXECUTE format('CREATE TRIGGER %I BEFORE INSERT OR UPDATE OF office_id ON %I FOR EACH ROW EXECUTE FUNCTION office_tenant()', t || '_tenant', t);
  END LOOP;
END $$;

-- The slot search's calendar stamps (migration 038) are per technician of a tenant: the
-- key of a stamp, and of a notification, is '<tenant>/<code>'.
ALTER TABLE slot_calendars ADD COLUMN tenant_id bigint;
UPDATE slot_calendars s SET tenant_id = t.tenant_id FROM technicians t WHERE t.code = s.technician_code;
DELETE FROM slot_calendars WHERE tenant_id IS NULL;
ALTER TABLE slot_calendars ALTER COLUMN tenant_id SET NOT NULL, ALTER COLUMN tenant_id SET DEFAULT fieldwork_tenant();
ALTER TABLE slot_calendars DROP CONSTRAINT slot_calendars_pkey;
ALTER TABLE slot_calendars ADD PRIMARY KEY (tenant_id, technician_code);

CREATE OR REPLACE FUNCTION slot_calendars_touch(schema_name text, codes text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  listed text;
BEGIN
  -- codes: '<tenant>/<code>' keys
  SELECT array_agg(c ORDER BY c) INTO codes FROM (SELECT DISTINCT c FROM unnest(codes) c WHERE c IS NOT NULL) x;
  IF codes IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO slot_calendars AS s (tenant_id, technician_code, stamp)
    SELECT split_part(c, '/', 1)::bigint, substr(c, strpos(c, '/') + 1), nextval('slot_calendar_stamps')
    FROM unnest(codes) c
    ON CONFLICT (tenant_id, technician_code) DO UPDATE SET stamp = excluded.stamp;
  listed := array_to_string(codes, ',');
  PERFORM pg_notify('fieldwork_calendars', schema_name || ' ' || CASE WHEN length(listed) > 7000 THEN '*' ELSE listed END);
END
$$;
CREATE OR REPLACE FUNCTION slot_calendars_work_orders_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(SELECT tenant_id || '/' || technician_code FROM new_rows));
  RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION slot_calendars_work_orders_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(SELECT tenant_id || '/' || technician_code FROM old_rows));
  RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION slot_calendars_work_orders_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(
    SELECT n.tenant_id || '/' || unnest(ARRAY[o.technician_code, n.technician_code])
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.technician_code, o.scheduled_start, o.status, o.type_code, o.code, o.uuid,
           o.latitude, o.longitude, o.zip_code)
      IS DISTINCT FROM (n.technician_code, n.scheduled_start, n.status, n.type_code, n.code, n.uuid,
           n.latitude, n.longitude, n.zip_code)));
  RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION slot_calendars_technicians_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(SELECT tenant_id || '/' || code FROM new_rows));
  RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION slot_calendars_technicians_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(
    SELECT n.tenant_id || '/' || unnest(ARRAY[o.code, n.code])
    FROM old_rows o JOIN new_rows n ON n.code = o.code AND n.tenant_id = o.tenant_id
    WHERE o IS DISTINCT FROM n
    UNION ALL SELECT o.tenant_id || '/' || o.code FROM old_rows o
      WHERE NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.code = o.code AND n.tenant_id = o.tenant_id)
    UNION ALL SELECT n.tenant_id || '/' || n.code FROM new_rows n
      WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.code = n.code AND o.tenant_id = n.tenant_id)));
  RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION slot_calendars_technicians_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(SELECT tenant_id || '/' || code FROM old_rows));
  RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION slot_calendars_types_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(
    SELECT DISTINCT w.tenant_id || '/' || w.technician_code
    FROM old_rows o JOIN new_rows n ON n.code = o.code AND n.tenant_id = o.tenant_id
    JOIN work_orders w ON w.type_code = n.code AND w.tenant_id = n.tenant_id
    WHERE o.duration_minutes <> n.duration_minutes AND w.technician_code IS NOT NULL));
  RETURN NULL;
END
$$;

-- The catalog: each row given to the first root office, then copied to every other root.
CREATE FUNCTION pg_temp.copy_catalog(t text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  cols text;
  source text;
BEGIN
  SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position),
         string_agg('x.' || quote_ident(column_name), ', ' ORDER BY ordinal_position) INTO cols, source
  FROM information_schema.columns
  WHERE table_schema = current_schema() AND table_name = t AND column_name <> 'tenant_id'
    AND is_generated = 'NEVER';
  EXECUTE format('ALTER TABLE %I ADD COLUMN tenant_id bigint', t);
  EXECUTE format('UPDATE %I SET tenant_id = (SELECT min(id) FROM offices WHERE parent_id IS NULL)', t);
  EXECUTE format('INSERT INTO %1$I (tenant_id, %2$s) SELECT r.id, %3$s FROM %1$I x JOIN offices r
    ON r.parent_id IS NULL AND r.id <> x.tenant_id', t, cols, source);
  EXECUTE format('DELETE FROM %I WHERE tenant_id IS NULL', t);
  EXECUTE format('ALTER TABLE %I ALTER COLUMN tenant_id SET NOT NULL, ALTER COLUMN tenant_id SET DEFAULT fieldwork_tenant()', t);
END $$;

ALTER TABLE items DROP CONSTRAINT items_pkey;
ALTER TABLE skills DROP CONSTRAINT skills_pkey;
ALTER TABLE characteristics DROP CONSTRAINT characteristics_pkey;
ALTER TABLE work_order_types DROP CONSTRAINT work_order_types_pkey;
ALTER TABLE activity_types DROP CONSTRAINT activity_types_pkey;
ALTER TABLE flags DROP CONSTRAINT flags_pkey;
ALTER TABLE areas DROP CONSTRAINT areas_pkey;
ALTER TABLE custom_field_definitions DROP CONSTRAINT custom_field_definitions_pkey;
ALTER TABLE geocoding_entries DROP CONSTRAINT geocoding_entries_pkey;
SELECT pg_temp.copy_catalog(t) FROM unnest(ARRAY['items', 'skills', 'characteristics',
  'work_order_types', 'activity_types', 'flags', 'areas', 'custom_field_definitions',
  'geocoding_entries']) AS t;
ALTER TABLE items ADD PRIMARY KEY (tenant_id, code);
ALTER TABLE skills ADD PRIMARY KEY (tenant_id, code);
ALTER TABLE characteristics ADD PRIMARY KEY (tenant_id, code);
ALTER TABLE work_order_types ADD PRIMARY KEY (tenant_id, code);
ALTER TABLE activity_types ADD PRIMARY KEY (tenant_id, code);
ALTER TABLE flags ADD PRIMARY KEY (tenant_id, flag_id);
ALTER TABLE areas ADD PRIMARY KEY (tenant_id, code);
ALTER TABLE custom_field_definitions ADD PRIMARY KEY (tenant_id, entity, code);
ALTER TABLE geocoding_entries ADD PRIMARY KEY (tenant_id, zip_code, city, country);
DROP INDEX items_category_code;
CREATE INDEX items_category_code ON items (tenant_id, category, code);

-- Crews: the tenant of the main resource (the first root when none is known).
ALTER TABLE crews ADD COLUMN tenant_id bigint;
UPDATE crews c SET tenant_id = coalesce(
  (SELECT t.tenant_id FROM crew_members m JOIN technicians t ON t.code = m.technician_code
   WHERE m.crew_code = c.code ORDER BY m.is_main DESC LIMIT 1),
  (SELECT min(id) FROM offices WHERE parent_id IS NULL));
DELETE FROM crews WHERE tenant_id IS NULL;
ALTER TABLE crews ALTER COLUMN tenant_id SET NOT NULL, ALTER COLUMN tenant_id SET DEFAULT fieldwork_tenant();
ALTER TABLE crews DROP CONSTRAINT crews_pkey;
ALTER TABLE crews ADD PRIMARY KEY (tenant_id, code);

-- Rows named by a code of their tenant: the tenant of the request that writes them.
ALTER TABLE crew_members ADD COLUMN tenant_id bigint;
UPDATE crew_members m SET tenant_id = c.tenant_id FROM crews c WHERE c.code = m.crew_code;
ALTER TABLE crew_members ALTER COLUMN tenant_id SET NOT NULL, ALTER COLUMN tenant_id SET DEFAULT fieldwork_tenant();
DROP INDEX crew_members_crew;
DROP INDEX crew_members_technician;
CREATE INDEX crew_members_crew ON crew_members (tenant_id, crew_code);
CREATE INDEX crew_members_technician ON crew_members (tenant_id, technician_code);

ALTER TABLE technician_positions ADD COLUMN tenant_id bigint;
UPDATE technician_positions p SET tenant_id = t.tenant_id FROM technicians t WHERE t.code = p.technician_code;
ALTER TABLE technician_positions ALTER COLUMN tenant_id SET NOT NULL, ALTER COLUMN tenant_id SET DEFAULT fieldwork_tenant();
ALTER TABLE technician_positions DROP CONSTRAINT technician_positions_pkey;
ALTER TABLE technician_positions ADD PRIMARY KEY (tenant_id, technician_code, recorded_at);

-- Codes unique per tenant.
ALTER TABLE technicians DROP CONSTRAINT technicians_pkey;
ALTER TABLE technicians ADD PRIMARY KEY (tenant_id, code);
ALTER TABLE customer_portal_users DROP CONSTRAINT customer_portal_users_pkey;
ALTER TABLE customer_portal_users ADD PRIMARY KEY (tenant_id, login);
ALTER TABLE projects DROP CONSTRAINT projects_code_key;
ALTER TABLE projects ADD CONSTRAINT projects_code_key UNIQUE (tenant_id, code);
ALTER TABLE service_orders DROP CONSTRAINT service_orders_code_key;
ALTER TABLE service_orders ADD CONSTRAINT service_orders_code_key UNIQUE (tenant_id, code);
-- A work order's uuid stays unique in the instance (no endpoint creates one; an import that
-- reuses another tenant's uuid is refused). Its code is looked up within the tenant.
DROP INDEX work_orders_code;
CREATE INDEX work_orders_code ON work_orders (tenant_id, code, id);
DROP INDEX work_orders_technician_start;
CREATE INDEX work_orders_technician_start ON work_orders (tenant_id, technician_code, scheduled_start)
  WHERE technician_code IS NOT NULL;
DROP INDEX work_orders_technician_code;
CREATE INDEX work_orders_technician_code ON work_orders (tenant_id, technician_code, code, id)
  WHERE technician_code IS NOT NULL;

-- Rows hanging from a work order, a project, a service order, a subscription.
DO $$
DECLARE
  spec text[];
BEGIN
  FOREACH spec SLICE 1 IN ARRAY ARRAY[
    ['used_items', 'work_orders', 'work_order_id', 'work_order_tenant'],
    ['activities', 'work_orders', 'work_order_id', 'work_order_tenant'],
    ['work_order_flags', 'work_orders', 'work_order_id', 'work_order_tenant'],
    ['work_order_notes', 'work_orders', 'work_order_id', 'work_order_tenant'],
    ['project_jobs', 'projects', 'project_id', 'project_tenant'],
    ['project_dependencies', 'projects', 'project_id', 'project_tenant'],
    ['service_order_work_orders', 'service_orders', 'service_order_id', 'service_order_tenant'],
    ['webhook_deliveries', 'webhook_subscriptions', 'subscription_id', 'subscription_tenant'],
    ['webhook_attempts', 'webhook_deliveries', 'delivery_id', 'delivery_tenant']] LOOP
    IF spec[1] = 'webhook_deliveries' THEN
      -- the parent first
      ALTER TABLE webhook_subscriptions ADD COLUMN tenant_id bigint;
      UPDATE webhook_subscriptions s SET tenant_id = coalesce(
        (SELECT a.tenant_id FROM applications a WHERE a.id = s.application_id),
        (SELECT u.tenant_id FROM users u WHERE u.id = s.user_id));
      ALTER TABLE webhook_subscriptions ALTER COLUMN tenant_id SET NOT NULL;
      CREATE TRIGGER webhook_subscriptions_tenant BEFORE INSERT OR UPDATE OF application_id, user_id
        ON webhook_subscriptions FOR EACH ROW EXECUTE FUNCTION subscription_owner_tenant();
    END IF;
    EXECUTE format('ALTER TABLE %I ADD COLUMN tenant_id bigint', spec[1]);
    EXECUTE format('UPDATE %I x SET tenant_id = p.tenant_id FROM %I p WHERE p.id = x.%I', spec[1], spec[2], spec[3]);
    EXECUTE format('ALTER TABLE %I ALTER COLUMN tenant_id SET NOT NULL', spec[1]);
    EXECUTE format('CREATE TRIGGER %I BEFORE INSERT OR UPDATE OF %I ON %I FOR EACH ROW EXECUTE FUNCTION %I()',
      spec[1] || '_tenant', spec[3], spec[1], spec[4]);
  END LOOP;
END $$;
ALTER TABLE used_items DROP CONSTRAINT used_items_pkey;
ALTER TABLE used_items ADD PRIMARY KEY (tenant_id, used_item_id);
ALTER TABLE activities DROP CONSTRAINT activities_pkey;
ALTER TABLE activities ADD PRIMARY KEY (tenant_id, activity_id);

-- References resolve inside the tenant.
ALTER TABLE activities ADD CONSTRAINT activities_agent_code_fkey
  FOREIGN KEY (tenant_id, agent_code) REFERENCES technicians (tenant_id, code);
ALTER TABLE activities ADD CONSTRAINT activities_type_code_fkey
  FOREIGN KEY (tenant_id, type_code) REFERENCES activity_types (tenant_id, code);
ALTER TABLE crew_members ADD CONSTRAINT crew_members_crew_code_fkey
  FOREIGN KEY (tenant_id, crew_code) REFERENCES crews (tenant_id, code) ON DELETE CASCADE;
ALTER TABLE crew_members ADD CONSTRAINT crew_members_technician_code_fkey
  FOREIGN KEY (tenant_id, technician_code) REFERENCES technicians (tenant_id, code);
ALTER TABLE technician_positions ADD CONSTRAINT technician_positions_technician_code_fkey
  FOREIGN KEY (tenant_id, technician_code) REFERENCES technicians (tenant_id, code);
ALTER TABLE used_items ADD CONSTRAINT used_items_item_code_fkey
  FOREIGN KEY (tenant_id, item_code) REFERENCES items (tenant_id, code);
ALTER TABLE used_items ADD CONSTRAINT used_items_technician_code_fkey
  FOREIGN KEY (tenant_id, technician_code) REFERENCES technicians (tenant_id, code);
ALTER TABLE work_order_flags ADD CONSTRAINT work_order_flags_flag_id_fkey
  FOREIGN KEY (tenant_id, flag_id) REFERENCES flags (tenant_id, flag_id);
ALTER TABLE work_orders ADD CONSTRAINT work_orders_crew_code_fkey
  FOREIGN KEY (tenant_id, crew_code) REFERENCES crews (tenant_id, code);
ALTER TABLE work_orders ADD CONSTRAINT work_orders_technician_code_fkey
  FOREIGN KEY (tenant_id, technician_code) REFERENCES technicians (tenant_id, code);
ALTER TABLE work_orders ADD CONSTRAINT work_orders_type_code_fkey
  FOREIGN KEY (tenant_id, type_code) REFERENCES work_order_types (tenant_id, code);

-- Keyset order of the referentials' lists inside a tenant (page N costs what page 1 does).
DROP INDEX customers_code_order;
DROP INDEX sites_code_order;
DROP INDEX assets_code_order;
CREATE INDEX customers_code_order ON customers (tenant_id, left(code, 512));
CREATE INDEX sites_code_order ON sites (tenant_id, left(code, 512));
CREATE INDEX assets_code_order ON assets (tenant_id, left(code, 512));

-- The guard: on every table that holds tenant_id, a row is seen, written and locked only
-- by a statement of its tenant. The tables' owner (the service's own login: migrations,
-- the command line, authentication, the webhooks worker) is not subject to the policies;
-- requests run as fieldwork_tenant, which is.
DO $$
DECLARE
  t text;
BEGIN
  FOR t IN SELECT c.table_name FROM information_schema.columns c
           JOIN information_schema.tables x USING (table_schema, table_name)
           WHERE c.table_schema = current_schema() AND c.column_name = 'tenant_id'
             AND x.table_type = 'BASE TABLE' LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (tenant_id = (SELECT fieldwork_tenant()))
      WITH CHECK (tenant_id = (SELECT fieldwork_tenant()))', t);
  END LOOP;
END $$;
