-- migrate: no-transaction
-- The loss pass's read (services/parcels/custody/loss-pass.ts): parcels in the network's custody,
-- longest silent first. Only PICKED_UP and IN_TRANSIT parcels are in it, a sliver of ten million
-- rows. Built CONCURRENTLY: parcels is the biggest table (decision 0059).
CREATE INDEX CONCURRENTLY IF NOT EXISTS parcels_custody_silence ON parcels.parcels (custody_since)
  WHERE status IN ('PICKED_UP', 'IN_TRANSIT') AND custody_holder IN ('courier', 'hub');
