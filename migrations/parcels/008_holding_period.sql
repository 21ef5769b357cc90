-- The holding period (issue 18): a parcel waits at its relay point until pickup_deadline, then
-- goes back (RETURN_PENDING, reason PICKUP_EXPIRED), and a return costs the merchant a fee.
--   pickup_deadline       set when the parcel reaches AT_RELAY (arrival + holding days); null before
--   pickup_reminded_for   the deadline whose reminder (SMS + parcel.pickup_reminder) was sent: a
--                         reminder is claimed by setting it, in the transaction of its outbox row,
--                         so it goes once per deadline whoever runs the pass
--   pickup_extended_days  the merchant's one extension (1 to 7 days); null while unused
--   return_fee_centimes   the fee of the parcel's return, fixed when it enters RETURN_PENDING
--   return_fee_pending    the wallet has not acknowledged the fee yet (the holding pass repeats
--                         it; the wallet's charge is idempotent per parcel)
ALTER TABLE parcels.parcels
  ADD COLUMN pickup_deadline timestamptz,
  ADD COLUMN pickup_reminded_for timestamptz,
  ADD COLUMN pickup_extended_days integer CHECK (pickup_extended_days BETWEEN 1 AND 7),
  ADD COLUMN return_fee_centimes bigint CHECK (return_fee_centimes >= 0),
  ADD COLUMN return_fee_pending boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT parcels_return_fee_pending_has_amount CHECK (NOT return_fee_pending OR return_fee_centimes IS NOT NULL);

-- The holding pass reads the parcels on a shelf by deadline, and the fees still owed.
CREATE INDEX parcels_on_shelf_by_deadline ON parcels.parcels (pickup_deadline)
  WHERE status IN ('AT_RELAY', 'RELAY_NOTIFIED') AND pickup_deadline IS NOT NULL;
CREATE INDEX parcels_return_fee_pending ON parcels.parcels (updated_at) WHERE return_fee_pending;

-- Deadline events that change no status (parcel.pickup_reminder, parcel.pickup_extended): a line
-- each, so that the parcel's event sequence (status + COD + these) stays one counter.
CREATE TABLE parcels.pickup_history (
  id bigserial PRIMARY KEY,
  parcel_id uuid NOT NULL REFERENCES parcels.parcels (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('reminder', 'extension')),
  pickup_deadline timestamptz NOT NULL,
  actor text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pickup_history_parcel ON parcels.pickup_history (parcel_id, id);
