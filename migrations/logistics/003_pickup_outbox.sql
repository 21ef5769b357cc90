-- Issue 44 B, decision 0054: the pickup's events (pickup.confirmed, pickup.completed,
-- pickup.cancelled) are written here in the transaction that changes the pickup, and handed to
-- webhooks.enqueueBatch by the logistics service's relay, which marks them dispatched only once
-- webhooks stored them: a restart between the commit and the hand-off delays an event, never
-- loses it. The body is composed at the hand-off from the pickup (its outcome is fixed once
-- closed) and the `status` here, so a retry hands over the same body with the same event id.
CREATE TABLE logistics.outbox (
  id bigserial PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  pickup_id uuid NOT NULL REFERENCES logistics.pickups (id),
  type text NOT NULL,
  status text NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz
);
CREATE INDEX outbox_undispatched ON logistics.outbox (id) WHERE dispatched_at IS NULL;
-- Dispatched rows are purged after a week (the logistics service's 30-s housekeeping pass).
CREATE INDEX outbox_dispatched ON logistics.outbox (dispatched_at) WHERE dispatched_at IS NOT NULL;
