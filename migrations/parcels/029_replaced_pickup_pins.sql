-- Issue 43. A pick-up PIN replaced by a new one (the recipient's "send me the code again", the
-- counter's, an operator's reset) is kept, sealed like the current one, so that a hand-over given
-- the old code is told it was replaced rather than counted as a wrong try.
CREATE TABLE parcels.replaced_pickup_pins (
  id bigserial PRIMARY KEY,
  parcel_id uuid NOT NULL REFERENCES parcels.parcels (id) ON DELETE CASCADE,
  pin_enc text NOT NULL,
  replaced_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX replaced_pickup_pins_by_parcel ON parcels.replaced_pickup_pins (parcel_id);
