-- Diagnostic (issue 12): flags (import key `flags`), the flags set on a work order (flags PUT
-- replaces the set) and a work order's notes (notes PUT, one row per note code).
CREATE TABLE flags (
  flag_id integer PRIMARY KEY CHECK (flag_id >= 0),
  label text NOT NULL,
  last_update timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE work_order_flags (
  work_order_id bigint NOT NULL REFERENCES work_orders(id) ON DELETE CASCADE,
  flag_id integer NOT NULL REFERENCES flags(flag_id),
  PRIMARY KEY (work_order_id, flag_id)
);

-- A note holds either a text (`content`) or report fields (`report_fields`), never both.
CREATE TABLE work_order_notes (
  work_order_id bigint NOT NULL REFERENCES work_orders(id) ON DELETE CASCADE,
  note_code text COLLATE "C" NOT NULL CHECK (length(note_code) BETWEEN 1 AND 200),
  content text,
  report_fields jsonb,
  last_update timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (work_order_id, note_code),
  CHECK ((content IS NULL) <> (report_fields IS NULL))
);
