-- Slot search data (issue 12): the operator's gazetteer rows and the customer portal users.

-- Extra gazetteer rows (import key `geocoding`), looked up before the packaged gazetteer.
-- Keys are normalised by the importer (zip code trimmed and uppercased; city lowercased
-- without accents; country uppercased); '' stands for "not given" so the key is unique.
CREATE TABLE geocoding_entries (
  zip_code text NOT NULL,
  city text NOT NULL,
  country text NOT NULL,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  last_update timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (zip_code, city, country),
  CHECK (zip_code <> '' OR city <> '')
);

-- Customer portal users (import key `customerPortalUsers`): a search made for one is
-- limited to the technicians of the user's office tree.
CREATE TABLE customer_portal_users (
  login text PRIMARY KEY CHECK (length(login) BETWEEN 1 AND 256),
  office_id bigint NOT NULL REFERENCES offices(id),
  last_update timestamptz NOT NULL DEFAULT now()
);
