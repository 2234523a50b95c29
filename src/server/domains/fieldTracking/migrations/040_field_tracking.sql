-- Field tracking (issue 10): activity types, the activities of a work order (spec endpoints 2
-- and 3) and the positions of a technician (spec endpoint 1). Written by the import (keys
-- activityTypes, activities, positions) and by `fieldwork seed --size large`.

CREATE TABLE activity_types (
  code text COLLATE "C" PRIMARY KEY CHECK (length(code) BETWEEN 1 AND 200),
  name text NOT NULL,
  last_update timestamptz NOT NULL DEFAULT now()
);

-- `activity_id` is the spec's activityId: the field system's identifier of the activity,
-- unique in the instance and kept as given (it is an identifier, not a code).
CREATE TABLE activities (
  activity_id text COLLATE "C" PRIMARY KEY CHECK (length(activity_id) BETWEEN 1 AND 200),
  -- Deleting a work order deletes its activities.
  work_order_id bigint NOT NULL REFERENCES work_orders(id) ON DELETE CASCADE,
  type_code text COLLATE "C" NOT NULL REFERENCES activity_types(code),
  -- agentCode: the technician who did it.
  agent_code text COLLATE "C" NOT NULL REFERENCES technicians(code),
  start_time timestamptz NOT NULL,
  end_time timestamptz NOT NULL,
  billable boolean NOT NULL,
  -- null: not validated.
  validated_at timestamptz,
  last_update timestamptz NOT NULL DEFAULT now(),
  CHECK (end_time >= start_time)
);
-- The list's keyset order (startTime, then activityId) within one work order: a page seeks to
-- its position and reads on, so page 1000 costs what page 1 costs. The filters (billable,
-- validated) are checked on the rows read: a page reads about pageSize / selectivity rows
-- whatever its depth. Also the index of the cascade from work_orders and of the totals.
CREATE INDEX activities_work_order_start ON activities (work_order_id, start_time, activity_id);

-- One position per technician and timestamp (the upsert key of the import); the primary key
-- is also the list's keyset order.
CREATE TABLE technician_positions (
  technician_code text COLLATE "C" NOT NULL REFERENCES technicians(code),
  recorded_at timestamptz NOT NULL,
  latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
  longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
  -- metres
  accuracy real CHECK (accuracy >= 0),
  -- metres per second
  speed real CHECK (speed >= 0),
  -- degrees clockwise from true north
  heading real CHECK (heading >= 0 AND heading < 360),
  PRIMARY KEY (technician_code, recorded_at)
);
