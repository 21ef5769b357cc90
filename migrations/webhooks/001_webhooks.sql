-- One endpoint per organisation (live and sandbox events go to the same URL; the payload says
-- which with "sandbox"). The secret is sealed with AES-256-GCM (lib/crypto), never stored in clear.
-- A 410 Gone answer disables the endpoint; setting it again re-enables it.
CREATE TABLE webhooks.endpoints (
  organization_id uuid PRIMARY KEY,
  url text NOT NULL CHECK (length(url) <= 2000),
  secret_enc text NOT NULL,
  disabled_at timestamptz,
  disabled_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One delivery per event (event_id UNIQUE makes webhooks.enqueue idempotent). Its id is the
-- X-Relay-Delivery-Id, the same on every attempt and on a manual redelivery.
--   pending   : waiting for its next attempt at next_attempt_at (also while a worker holds it:
--               the claim pushes next_attempt_at forward by a lease and sets lease_token)
--   delivered : a 2xx answer came back
--   failed    : all attempts of the round spent, or 410 Gone
--   skipped   : never sent, because the organisation had no active endpoint (none configured, or
--               disabled after a 410) when the event arrived or when its attempt came due;
--               a back-office redelivery sends it once an endpoint is set
CREATE TABLE webhooks.deliveries (
  id uuid PRIMARY KEY,
  -- Enqueue order; per-parcel ordering of sends follows it (the outbox relays in order).
  seq bigserial NOT NULL UNIQUE,
  event_id uuid NOT NULL UNIQUE,
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  -- payload->data->parcel->>id, kept in a column for the per-parcel ordering check.
  parcel_id uuid NOT NULL,
  event_type text NOT NULL,
  -- json, not jsonb: keeps the event's text and key order, so the body reads like the API's parcel view.
  payload json NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'skipped')),
  -- Attempts ever made (the attempt log numbers them 1..attempts).
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- Attempts made before the current round: a redelivery starts a new round with the full
  -- retry schedule, without renumbering the log.
  round_start integer NOT NULL DEFAULT 0 CHECK (round_start >= 0 AND round_start <= attempts),
  next_attempt_at timestamptz,
  -- Set by the worker that claimed the delivery; its result is recorded only if it still holds it.
  lease_token uuid,
  last_status_code integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
);

CREATE INDEX deliveries_due ON webhooks.deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_parcel_pending ON webhooks.deliveries (parcel_id, seq) WHERE status = 'pending';
CREATE INDEX deliveries_org_recent ON webhooks.deliveries (organization_id, created_at DESC, seq DESC);
CREATE INDEX deliveries_org_status_recent ON webhooks.deliveries (organization_id, status, created_at DESC, seq DESC);

-- The delivery log: one row per HTTP attempt. Never the URL, the secret or the response body.
CREATE TABLE webhooks.attempts (
  delivery_id uuid NOT NULL REFERENCES webhooks.deliveries (id) ON DELETE CASCADE,
  attempt_no integer NOT NULL CHECK (attempt_no >= 1),
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL CHECK (duration_ms >= 0),
  -- null when no HTTP answer came back (time-out, refused connection, SSRF guard)
  status_code integer,
  error text,
  -- node id of the worker that made the attempt (operations: which process sent it)
  worker text,
  PRIMARY KEY (delivery_id, attempt_no)
);
