-- The version of each technician's calendar, for the slot search's calendar index
-- (slots/calendarIndex.ts): each service process keeps technicians' days in memory and
-- reads them again only when this stamp moves.
--
-- Every statement that changes a technician, one of their work orders (its schedule,
-- status, place, code) or the duration of a type they have work of, gives the technicians
-- concerned a new stamp in the same transaction (statement triggers below), and notifies
-- the channel fieldwork_calendars ('<schema> <code>,<code>...' or '<schema> *') at commit.
-- A search reads the candidates' stamps in its own statement and compares: what another
-- process committed before the search began is seen, whether its notification has arrived
-- or not. The notifications only let a process drop what changed before a search asks.
CREATE SEQUENCE slot_calendar_stamps;
CREATE TABLE slot_calendars (
  technician_code text COLLATE "C" PRIMARY KEY,
  stamp bigint NOT NULL
);
INSERT INTO slot_calendars (technician_code, stamp)
  SELECT code, nextval('slot_calendar_stamps') FROM technicians;

-- New stamps for these technicians (in code order, so that two writers lock them in one order).
CREATE FUNCTION slot_calendars_touch(schema_name text, codes text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  listed text;
BEGIN
  SELECT array_agg(c ORDER BY c) INTO codes FROM (SELECT DISTINCT c FROM unnest(codes) c WHERE c IS NOT NULL) x;
  IF codes IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO slot_calendars AS s (technician_code, stamp)
    SELECT c, nextval('slot_calendar_stamps') FROM unnest(codes) c
    ON CONFLICT (technician_code) DO UPDATE SET stamp = excluded.stamp;
  listed := array_to_string(codes, ',');
  -- A notification holds 8000 bytes: a long list says "everyone" instead.
  PERFORM pg_notify('fieldwork_calendars', schema_name || ' ' || CASE WHEN length(listed) > 7000 THEN '*' ELSE listed END);
END
$$;

CREATE FUNCTION slot_calendars_touch_all(schema_name text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE slot_calendars SET stamp = nextval('slot_calendar_stamps');
  PERFORM pg_notify('fieldwork_calendars', schema_name || ' *');
END
$$;

-- Work orders: the technicians they were and are scheduled on.
CREATE FUNCTION slot_calendars_work_orders_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(SELECT technician_code FROM new_rows));
  RETURN NULL;
END
$$;
CREATE FUNCTION slot_calendars_work_orders_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(SELECT technician_code FROM old_rows));
  RETURN NULL;
END
$$;
-- Only a change of what a calendar holds counts (a description or a note does not).
CREATE FUNCTION slot_calendars_work_orders_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(
    SELECT unnest(ARRAY[o.technician_code, n.technician_code])
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.technician_code, o.scheduled_start, o.status, o.type_code, o.code, o.uuid,
           o.latitude, o.longitude, o.zip_code)
      IS DISTINCT FROM (n.technician_code, n.scheduled_start, n.status, n.type_code, n.code, n.uuid,
           n.latitude, n.longitude, n.zip_code)));
  RETURN NULL;
END
$$;
CREATE FUNCTION slot_calendars_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch_all(TG_TABLE_SCHEMA);
  RETURN NULL;
END
$$;
CREATE TRIGGER work_orders_slot_calendars_inserted AFTER INSERT ON work_orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION slot_calendars_work_orders_inserted();
CREATE TRIGGER work_orders_slot_calendars_updated AFTER UPDATE ON work_orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION slot_calendars_work_orders_updated();
CREATE TRIGGER work_orders_slot_calendars_deleted AFTER DELETE ON work_orders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION slot_calendars_work_orders_deleted();
CREATE TRIGGER work_orders_slot_calendars_truncated AFTER TRUNCATE ON work_orders
  FOR EACH STATEMENT EXECUTE FUNCTION slot_calendars_truncated();

-- Technicians: any change of the row (calendar, home, capacity...).
CREATE FUNCTION slot_calendars_technicians_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(SELECT code FROM new_rows));
  RETURN NULL;
END
$$;
CREATE FUNCTION slot_calendars_technicians_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(
    SELECT unnest(ARRAY[o.code, n.code])
    FROM old_rows o JOIN new_rows n ON n.code = o.code
    WHERE o IS DISTINCT FROM n
    UNION ALL SELECT o.code FROM old_rows o WHERE NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.code = o.code)
    UNION ALL SELECT n.code FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.code = n.code)));
  RETURN NULL;
END
$$;
CREATE FUNCTION slot_calendars_technicians_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(SELECT code FROM old_rows));
  RETURN NULL;
END
$$;
CREATE TRIGGER technicians_slot_calendars_inserted AFTER INSERT ON technicians
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION slot_calendars_technicians_inserted();
CREATE TRIGGER technicians_slot_calendars_updated AFTER UPDATE ON technicians
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION slot_calendars_technicians_updated();
CREATE TRIGGER technicians_slot_calendars_deleted AFTER DELETE ON technicians
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION slot_calendars_technicians_deleted();
CREATE TRIGGER technicians_slot_calendars_truncated AFTER TRUNCATE ON technicians
  FOR EACH STATEMENT EXECUTE FUNCTION slot_calendars_truncated();

-- Work order types: a new duration moves the end of every work order of the type.
CREATE FUNCTION slot_calendars_types_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM slot_calendars_touch(TG_TABLE_SCHEMA, ARRAY(
    SELECT DISTINCT w.technician_code
    FROM old_rows o JOIN new_rows n ON n.code = o.code JOIN work_orders w ON w.type_code = n.code
    WHERE o.duration_minutes <> n.duration_minutes AND w.technician_code IS NOT NULL));
  RETURN NULL;
END
$$;
CREATE TRIGGER work_order_types_slot_calendars_updated AFTER UPDATE ON work_order_types
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION slot_calendars_types_updated();
