-- What every change's entry costs the commit that writes it (issue 29, 1: a PUT may lose at
-- most 15 % of its throughput). pgbench, 10 clients updating customers as the tenants' role:
-- 6,200 tps without the log, 3,400 with migration 103's, 3,900 with this one.
--
-- 1. change_value and change_row in PL/pgSQL. As SQL functions called from PL/pgSQL they
--    were not inlined, and the body of a SQL function is parsed and planned again in each
--    transaction that calls it (about 50 us per function): a PL/pgSQL body keeps its plans
--    for the session. Same results.
-- 2. No index on `at`. Each entry widened the BRIN summary of the table's last block range,
--    one index page that every commit locked and logged (7 % of a PUT). Pruning now takes
--    each tenant's oldest entries by id through the primary key (queries.ts pruneBatch).

CREATE OR REPLACE FUNCTION change_value(v jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF v IS NULL OR v = 'null'::jsonb THEN
    RETURN 'null'::jsonb;
  ELSIF jsonb_typeof(v) = 'string' AND length(v #>> '{}') > 1000 THEN
    RETURN to_jsonb(left(v #>> '{}', 1000) || '…[truncated]');
  ELSIF jsonb_typeof(v) IN ('object', 'array') AND length(v::text) > 4000 THEN
    RETURN to_jsonb(left(v::text, 1000) || '…[truncated]');
  END IF;
  RETURN v;
END $$;

CREATE OR REPLACE FUNCTION change_row(r jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN r - ARRAY['tenant_id', 'id', 'seq', 'last_update', 'search', 'office_id', 'custom_fields',
                   'secret', 'work_order_id', 'project_id', 'service_order_id', 'application_id',
                   'user_id', 'rank'];
END $$;

DROP INDEX changes_at;
