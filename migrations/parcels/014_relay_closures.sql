-- Relay closures (issue 22): a relay point closed for whole days, in Algiers time (holidays,
-- works). While a closure is current or within CLOSURE_NOTICE_DAYS, no new parcel may be sent to
-- the point (409 RELAY_CLOSED), and the partner search says so (closures, openNow, ?openOn=).
--   from_date, to_date  the first and the last day closed, both included (at most 60 days)
--   announced_by        'backoffice' (an operator) or 'agent' (the point's own counter app)
-- Deleting a closure deletes its row: deadlines it pushed stay pushed (the recipient was told).
CREATE TABLE parcels.relay_closures (
  id uuid PRIMARY KEY,
  relay_code text NOT NULL REFERENCES parcels.relay_points (code) ON DELETE CASCADE,
  from_date date NOT NULL,
  to_date date NOT NULL,
  reason text CHECK (reason IS NULL OR char_length(reason) <= 500),
  announced_by text NOT NULL CHECK (announced_by IN ('backoffice', 'agent')),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (to_date >= from_date AND to_date - from_date < 60)
);
-- The current and future closures of a point, and of every point (search, refusals).
CREATE INDEX relay_closures_by_relay ON parcels.relay_closures (relay_code, to_date);
CREATE INDEX relay_closures_by_end ON parcels.relay_closures (to_date);

-- A closure added while parcels wait on the shelf pushes their deadline: one more kind of line.
ALTER TABLE parcels.pickup_history DROP CONSTRAINT pickup_history_kind_check;
ALTER TABLE parcels.pickup_history ADD CONSTRAINT pickup_history_kind_check CHECK (kind IN ('reminder', 'extension', 'closure'));
