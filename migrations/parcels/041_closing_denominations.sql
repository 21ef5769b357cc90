-- Issue 45 (decision 0063, addendum): a till's closing may carry the agent's count by denomination,
-- the same shape as the courier's and the hub's counts ({"2000": 3, "500": 1}); null when the agent
-- typed only a total. Nullable without a default: nothing rewritten (decision 0059).
ALTER TABLE parcels.relay_cash_closings ADD COLUMN denominations jsonb;

-- A closing counted by denomination that is not what the books expect is a cash difference like a
-- courier's or a hub's (stage CLOSING, the agent's count alone): no courier or hub then.
ALTER TABLE parcels.cash_differences ALTER COLUMN hub_id DROP NOT NULL;
ALTER TABLE parcels.cash_differences ALTER COLUMN courier_id DROP NOT NULL;
ALTER TABLE parcels.cash_differences DROP CONSTRAINT cash_differences_stage_check;
ALTER TABLE parcels.cash_differences
  ADD CONSTRAINT cash_differences_stage_check CHECK (stage IN ('CLOSING', 'COLLECTION', 'DEPOSIT')) NOT VALID;
ALTER TABLE parcels.cash_differences VALIDATE CONSTRAINT cash_differences_stage_check;
