-- Items used on a work order (spec endpoint 4; issue 10): a part or a labour item of the
-- catalog, or an item declared on the spot (onTheFly, a label without catalog code). Written
-- by the import (key usedItems) and by `fieldwork seed --size large`.
CREATE TABLE used_items (
  used_item_id text COLLATE "C" PRIMARY KEY CHECK (length(used_item_id) BETWEEN 1 AND 200),
  -- Deleting a work order deletes its used items.
  work_order_id bigint NOT NULL REFERENCES work_orders(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('part', 'labour', 'onTheFly')),
  item_code text COLLATE "C" REFERENCES items(code),
  label text,
  quantity numeric(14, 3) NOT NULL CHECK (quantity > 0),
  unit text,
  unit_price numeric(14, 2) CHECK (unit_price >= 0),
  invoice_mode text NOT NULL CHECK (invoice_mode IN ('external', 'internal')),
  serial_number text,
  technician_code text COLLATE "C" REFERENCES technicians(code),
  last_update timestamptz NOT NULL DEFAULT now(),
  -- A catalog code for a part or labour item, a label (and no code) for an onTheFly one.
  CHECK ((kind = 'onTheFly') = (item_code IS NULL)),
  CHECK (kind <> 'onTheFly' OR label IS NOT NULL)
);
-- The list's keyset order (lastUpdate descending, then usedItemId descending) within one
-- work order, and the index of the cascade and of the totals.
CREATE INDEX used_items_work_order_update
  ON used_items (work_order_id, last_update DESC, used_item_id DESC);

-- The console's work order list filtered by technician, in code order.
CREATE INDEX work_orders_technician_code ON work_orders (technician_code, code, id)
  WHERE technician_code IS NOT NULL;
