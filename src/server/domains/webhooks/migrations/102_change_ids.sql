-- A callback names the change log entry of the change it reports (issue 29, 1): its
-- payload's `changeId` is that entry's id, so a callback, a history line and a feed entry of
-- one change carry the same id. The entry is written at COMMIT (migration 100), after the
-- callback was queued: the callback keeps the transaction and the record it reports
-- (recordEvent), and the entry, once written, gives its id to the callbacks of its
-- transaction and record.
ALTER TABLE webhook_deliveries
  ADD COLUMN change_tx xid8,
  ADD COLUMN change_record text,
  ADD COLUMN change_id bigint;
CREATE INDEX webhook_deliveries_change_tx ON webhook_deliveries (change_tx) WHERE change_id IS NULL;

CREATE FUNCTION change_to_callbacks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only in a transaction that queued callbacks (recordEvent says so): no cost elsewhere.
  IF current_setting('fieldwork.callbacks_queued', true) = '1' THEN
    UPDATE webhook_deliveries SET change_id = NEW.id
    WHERE change_tx = pg_current_xact_id() AND change_record = NEW.kind || ':' || NEW.code;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER changes_to_callbacks AFTER INSERT ON changes FOR EACH ROW EXECUTE FUNCTION change_to_callbacks();
