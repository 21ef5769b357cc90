-- Issue 45 (cost flat as history grows, issue 48): a till closing says when a courier's collection
-- of it was confirmed, so that "closed and not yet collected" (the run's relay stops, the courier's
-- and the counter's cash screens) is read from an index of the uncollected closings only
-- (migration 045), not from every closing a relay point ever made. A nullable column without a
-- default: no rewrite. The closings already collected are marked from their confirmed collections:
-- a relay point closes once a day, so this touches a few hundred thousand small rows at most.
ALTER TABLE parcels.relay_cash_closings ADD COLUMN collected_at timestamptz;
UPDATE parcels.relay_cash_closings k SET collected_at = c.confirmed_at
  FROM parcels.cash_collection_closings cc
  JOIN parcels.cash_collections c ON c.id = cc.collection_id
 WHERE cc.closing_id = k.id AND c.confirmed_at IS NOT NULL;
