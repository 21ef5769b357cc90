-- migrate: no-transaction
-- The deposits a hub has to count and confirm (GET /api/hub/v1/cash-deposits, issue 45): only the
-- ones not yet confirmed, a few per hub at any time among every deposit it ever took, so the list
-- and its count never walk the hub's history. Built CONCURRENTLY: deposits are written all day.
CREATE INDEX CONCURRENTLY IF NOT EXISTS cash_deposits_hub_pending ON parcels.cash_deposits (hub_id, occurred_at DESC, id DESC)
  WHERE confirmed_at IS NULL;
