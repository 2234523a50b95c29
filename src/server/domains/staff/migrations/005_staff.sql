-- Skills and characteristics: catalog of the whole instance, not office-scoped. Codes
-- are uppercase, 1..200 characters, with the "C" collation so that the primary key serves
-- ORDER BY code and the keyset `code > $last` in byte order (page N costs what page 1 does).
-- IF NOT EXISTS: databases migrated before 005 got these tables from 004_catalog.sql.

CREATE TABLE IF NOT EXISTS skills (
  code text COLLATE "C" PRIMARY KEY CHECK (length(code) BETWEEN 1 AND 200),
  name text NOT NULL,
  description text,
  last_update timestamptz NOT NULL DEFAULT now()
);

-- Read-only through the API; loaded by the import file.
CREATE TABLE IF NOT EXISTS characteristics (
  code text COLLATE "C" PRIMARY KEY CHECK (length(code) BETWEEN 1 AND 200),
  name text NOT NULL,
  description text,
  last_update timestamptz NOT NULL DEFAULT now()
);

