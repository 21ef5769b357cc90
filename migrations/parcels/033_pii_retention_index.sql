-- migrate: no-transaction
-- The parcels whose personal data is due for erasure, oldest final status first (services/parcels/
-- retention.ts): final and not yet erased. Built CONCURRENTLY: parcels is the biggest table.
CREATE INDEX CONCURRENTLY IF NOT EXISTS parcels_pii_due ON parcels.parcels (updated_at)
  WHERE pii_erased_at IS NULL AND status IN ('DELIVERED', 'RETURNED', 'LOST', 'DAMAGED', 'CANCELLED');
