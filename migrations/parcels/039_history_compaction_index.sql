-- migrate: no-transaction
-- The parcels whose history is due for compaction (services/parcels/history-compaction.store.ts):
-- personal data erased, history not yet compacted, oldest final status first. Built CONCURRENTLY:
-- parcels is the biggest table.
CREATE INDEX CONCURRENTLY IF NOT EXISTS parcels_history_compact_due ON parcels.parcels (updated_at)
  WHERE pii_erased_at IS NOT NULL AND history_compact IS NULL;
