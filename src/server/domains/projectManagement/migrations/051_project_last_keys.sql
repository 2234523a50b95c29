-- Project link, a work order moved last (issue 14): one statement without a transaction, and
-- such calls on one project no longer wait for each other's COMMIT.
--
-- A job placed after every other job of its project takes a key drawn from this sequence:
-- 2^40 + value * 4,096 (order.ts, `lastKeySql`). Renumbered and imported keys stay below
-- 2^40 (at most 10,000,000 entries 65,536 apart), a key between two others or before the
-- first is below the highest, and each key drawn is above every key drawn before: so a new
-- last key is above every key of the project without reading them (a statement's snapshot
-- may predate the commit of a concurrent move) and without a write lock on the project.
CREATE SEQUENCE project_job_last_keys;

-- Keys written before at or above 2^40 (a long run of placements last): renumbered below it.
UPDATE project_jobs j SET rank = n.rank
FROM (
  SELECT id, row_number() OVER (PARTITION BY project_id ORDER BY rank) * 65536 AS rank
  FROM project_jobs
  WHERE project_id IN (SELECT project_id FROM project_jobs WHERE rank >= 1099511627776)
) n
WHERE j.id = n.id;
