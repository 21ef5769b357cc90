-- migrate: no-transaction
-- The closings not yet collected, per relay point, oldest first (migration 044): a few per relay
-- point at any time, whatever its history. Built CONCURRENTLY: the counters close their tills all day.
CREATE INDEX CONCURRENTLY IF NOT EXISTS relay_cash_closings_uncollected ON parcels.relay_cash_closings (relay_code, closed_at, id)
  WHERE collected_at IS NULL;
