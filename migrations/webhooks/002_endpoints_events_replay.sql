-- Several endpoints per organisation, each with its own secrets (rotation), mode and event filter;
-- every event kept 30 days for the events API and replays; one delivery per event and endpoint.

-- Every parcel event of every organisation, as parcels wrote it (json keeps the text as received).
-- seq is the feed's order: webhooks.enqueue inserts an organisation's events one transaction at a
-- time (an advisory lock per organisation), so among one organisation's events the order of seq
-- is the order of commits, and a reader paging by seq never skips one that commits later.
CREATE TABLE webhooks.events (
  id uuid PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  parcel_id uuid NOT NULL,
  type text NOT NULL,
  payload json NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_feed ON webhooks.events (organization_id, mode, seq);
CREATE INDEX events_parcel_feed ON webhooks.events (organization_id, mode, parcel_id, seq);
CREATE INDEX events_type_feed ON webhooks.events (organization_id, mode, type, seq);
CREATE INDEX events_age ON webhooks.events (created_at);

-- The events deliveries were made for so far (the only copy of their payloads).
INSERT INTO webhooks.events (id, organization_id, mode, parcel_id, type, payload, created_at)
SELECT event_id, organization_id, mode, parcel_id, event_type, payload, created_at FROM webhooks.deliveries ORDER BY seq;

-- Endpoints: an id of their own; the one the single-URL back-office call sets is the default.
--   mode         which events it receives: live, sandbox or both
--   event_types  the event types it receives; null: all, including types added later
--   disabled_at  null while enabled; set by hand, by a 410 answer, or after 5 days of failures
--   first_failure_at, last_success_at: the failing streak (lib/retry-schedule.ts)
ALTER TABLE webhooks.endpoints DROP CONSTRAINT endpoints_pkey;
ALTER TABLE webhooks.endpoints
  ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid(),
  ADD COLUMN is_default boolean NOT NULL DEFAULT false,
  ADD COLUMN mode text NOT NULL DEFAULT 'both' CHECK (mode IN ('live', 'sandbox', 'both')),
  ADD COLUMN event_types text[] CHECK (event_types IS NULL OR cardinality(event_types) > 0),
  ADD COLUMN description text CHECK (description IS NULL OR char_length(description) <= 500),
  ADD COLUMN first_failure_at timestamptz,
  ADD COLUMN last_success_at timestamptz;
ALTER TABLE webhooks.endpoints ADD PRIMARY KEY (id);
UPDATE webhooks.endpoints SET is_default = true;
CREATE UNIQUE INDEX endpoints_one_default ON webhooks.endpoints (organization_id) WHERE is_default;
CREATE INDEX endpoints_organization ON webhooks.endpoints (organization_id, created_at);

-- An endpoint's secrets, each sealed with AES-256-GCM (lib/crypto). The current one has no expiry;
-- after a rotation the previous ones expire at the end of the overlap, and sign every delivery
-- until then (lib/webhook-signing/rotation.ts).
CREATE TABLE webhooks.endpoint_secrets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  endpoint_id uuid NOT NULL REFERENCES webhooks.endpoints (id) ON DELETE CASCADE,
  secret_enc text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz
);
CREATE INDEX endpoint_secrets_endpoint ON webhooks.endpoint_secrets (endpoint_id);
INSERT INTO webhooks.endpoint_secrets (endpoint_id, secret_enc, created_at) SELECT id, secret_enc, updated_at FROM webhooks.endpoints;
ALTER TABLE webhooks.endpoints DROP COLUMN secret_enc;

-- Deliveries: one per event and endpoint; the payload is the event's.
ALTER TABLE webhooks.deliveries
  ADD COLUMN endpoint_id uuid REFERENCES webhooks.endpoints (id) ON DELETE CASCADE,
  ADD COLUMN event_seq bigint;
UPDATE webhooks.deliveries d SET endpoint_id = e.id FROM webhooks.endpoints e WHERE e.organization_id = d.organization_id;
UPDATE webhooks.deliveries d SET event_seq = ev.seq FROM webhooks.events ev WHERE ev.id = d.event_id;
-- Deliveries of organisations that had no endpoint were never sent (skipped): the events stay in
-- webhooks.events, from where a replay sends them to an endpoint.
DELETE FROM webhooks.deliveries WHERE endpoint_id IS NULL;
ALTER TABLE webhooks.deliveries
  ALTER COLUMN endpoint_id SET NOT NULL,
  ALTER COLUMN event_seq SET NOT NULL,
  DROP CONSTRAINT deliveries_event_id_key,
  ADD CONSTRAINT deliveries_event_endpoint UNIQUE (event_id, endpoint_id),
  ADD CONSTRAINT deliveries_event FOREIGN KEY (event_id) REFERENCES webhooks.events (id) ON DELETE CASCADE,
  DROP COLUMN payload;
-- Per endpoint and parcel, in the order of the events: a failing endpoint holds back only its own.
DROP INDEX webhooks.deliveries_parcel_pending;
CREATE INDEX deliveries_endpoint_parcel_pending ON webhooks.deliveries (endpoint_id, parcel_id, event_seq) WHERE status = 'pending';
CREATE INDEX deliveries_endpoint_recent ON webhooks.deliveries (endpoint_id, created_at DESC, seq DESC);
CREATE INDEX deliveries_endpoint_event ON webhooks.deliveries (endpoint_id, event_seq);

-- What the merchant must be told by e-mail (an endpoint disabled after 5 days of failures), ready
-- to send: subject and plain text, French then English (lib/webhook-signing/endpoint-disabled-notice.ts).
CREATE TABLE webhooks.notices (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  endpoint_id uuid REFERENCES webhooks.endpoints (id) ON DELETE SET NULL,
  kind text NOT NULL,
  language text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notices_organization ON webhooks.notices (organization_id, created_at DESC);
