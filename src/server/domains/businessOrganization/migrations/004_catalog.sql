-- The item catalog of the whole instance. Not office-scoped: every application reads the
-- same catalog. (Until 005, this file also created the staff tables: a database migrated
-- then has them already, and 005 finds them in place.)
--
-- Codes are stored uppercase with the "C" collation: the primary key's btree then serves
-- both `ORDER BY code` and the keyset condition `code > $last` in byte order, identical on
-- PGlite and on any PostgreSQL server whatever its locale, so page N costs what page 1 does.
-- Codes are limited to 200 characters (btree entries must stay small).

CREATE TABLE items (
  code text COLLATE "C" PRIMARY KEY CHECK (length(code) BETWEEN 1 AND 200),
  name text NOT NULL,
  category text,
  description text,
  unit text,
  -- at most 2 decimals, checked by the contract; numeric keeps cents exact
  unit_price numeric(14, 2) CHECK (unit_price >= 0),
  vat_rates jsonb,
  reference text,
  bar_code text,
  manufacturer text,
  fixed_price boolean NOT NULL DEFAULT false,
  serial_number_pattern text,
  active boolean NOT NULL DEFAULT true,
  custom_fields jsonb NOT NULL DEFAULT '{}',
  last_update timestamptz NOT NULL DEFAULT now(),
  -- The console's text search (q): one lowercased column scanned with LIKE costs a
  -- fraction of four ILIKEs. Newlines keep a match from spanning two fields.
  search text GENERATED ALWAYS AS (
    lower((code || E'\n' || name || E'\n' || coalesce(reference, '') || E'\n' || coalesce(bar_code, ''))
      COLLATE "default")
  ) STORED
);
-- The console's category filter (still in code order) and the distinct categories
-- (read by skipping through this index, not by scanning the table).
CREATE INDEX items_category_code ON items (category, code);
