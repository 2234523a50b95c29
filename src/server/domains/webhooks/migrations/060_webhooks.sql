-- Webhooks (issue 13): subscriptions, the transactional outbox of callbacks and their attempts.
--
-- A subscription belongs to an OAuth application or to a console user (exactly one), and
-- goes with it when it is deleted. The outbox is `webhook_deliveries`: one row per
-- (event, matching subscription), inserted by recordEvent in the transaction of the change
-- that caused the event; its id is the callback `id`, the same on every retry.
CREATE TABLE webhook_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigserial NOT NULL,
  application_id bigint REFERENCES applications(id) ON DELETE CASCADE,
  user_id bigint REFERENCES users(id) ON DELETE CASCADE,
  event_types text[] NOT NULL,
  callback_url text NOT NULL,
  -- Kept as given: it is sent back in x-service-secret and signs the callbacks.
  secret text,
  headers jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((application_id IS NULL) <> (user_id IS NULL))
);
CREATE INDEX webhook_subscriptions_application ON webhook_subscriptions (application_id);
CREATE INDEX webhook_subscriptions_user ON webhook_subscriptions (user_id);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Order of the delivery log (keyset).
  seq bigserial NOT NULL,
  subscription_id uuid NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
  event_type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- Start of the hour of retries (the creation, or the last replay).
  window_start timestamptz NOT NULL DEFAULT clock_timestamp(),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  -- Attempts since window_start: the back-off starts again after a replay.
  window_attempts integer NOT NULL DEFAULT 0,
  -- When a worker may take it; a claim moves it past the attempt's lease, so that the row
  -- is taken again only if the worker that claimed it died.
  next_attempt_at timestamptz DEFAULT clock_timestamp(),
  claim uuid,
  last_attempt_at timestamptz,
  last_status_code integer,
  last_duration_ms integer,
  last_error text,
  finished_at timestamptz
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (subscription_id, seq);
CREATE INDEX webhook_deliveries_log_status ON webhook_deliveries (subscription_id, status, seq);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE status <> 'pending';

CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  error text,
  succeeded boolean NOT NULL,
  -- host:pid:random of the process that made it.
  worker text NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);
