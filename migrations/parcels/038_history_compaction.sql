-- Issue 48, bounded history (decision 0062): once a parcel's story has ended and its personal data
-- is erased, HISTORY_COMPACT_DAYS after its final status its status changes leave
-- parcels.status_history for this compact array on the parcel ([from, to, actor, at] each, oldest
-- first). Nullable without a default: adding it rewrites nothing.
ALTER TABLE parcels.parcels ADD COLUMN history_compact jsonb;
