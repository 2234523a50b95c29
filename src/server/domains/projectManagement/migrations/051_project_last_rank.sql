-- Project link, a work order moved last (issue 14): one statement instead of a transaction of
-- five. A statement's snapshot is taken before it waits for the project's lock, so the
-- highest key of the jobs it reads may be stale; the project row, read under the lock, is
-- not. `last_rank` is at or above every job's key of the project: a job placed last takes
-- it plus one step, and every writer of keys raises it under the project's lock.
ALTER TABLE projects ADD COLUMN last_rank bigint NOT NULL DEFAULT 0;
UPDATE projects p SET last_rank = coalesce((SELECT max(j.rank) FROM project_jobs j WHERE j.project_id = p.id), 0);
