-- Dispatched events are kept a week (for investigation), then purged by the sweeper.
CREATE INDEX outbox_dispatched ON parcels.outbox (dispatched_at) WHERE dispatched_at IS NOT NULL;
