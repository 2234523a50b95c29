-- Migration 102's trigger gives callbacks their change id only in a transaction that queued
-- some; the test was inside the function, called for every entry. As the trigger's WHEN,
-- it costs an entry of a transaction without callbacks no function call at all.
DROP TRIGGER changes_to_callbacks ON changes;
CREATE TRIGGER changes_to_callbacks AFTER INSERT ON changes FOR EACH ROW
  WHEN (current_setting('fieldwork.callbacks_queued', true) = '1')
  EXECUTE FUNCTION change_to_callbacks();
