-- Issue 30. The recipient's phone is stored encrypted (decision 0017), so SQL cannot read it to
-- normalise it: rows created before this migration keep their number as typed, with
-- recipient_phone_mobile NULL, and the parcels service normalises them in code at start-up
-- (services/parcels/recipient/phone-normalisation.ts, decision 0036). A number that cannot be
-- normalised is kept as it is, marked false, and listed for operators; no row is dropped.
ALTER TABLE parcels.parcels ADD COLUMN recipient_phone_mobile boolean;
-- The language of the recipient's SMS and of the tracking page's first view; the recipient
-- changes it by switching the page's language.
ALTER TABLE parcels.parcels ADD COLUMN recipient_language text NOT NULL DEFAULT 'fr' CHECK (recipient_language IN ('fr', 'ar', 'en'));
-- Set when parcel.recipient_unreachable was written: once per parcel.
ALTER TABLE parcels.parcels ADD COLUMN recipient_unreachable_at timestamptz;

CREATE INDEX parcels_phone_unchecked ON parcels.parcels (id) WHERE recipient_phone_mobile IS NULL;
CREATE INDEX parcels_phone_not_mobile ON parcels.parcels (created_at DESC) WHERE recipient_phone_mobile = false;

-- parcel.recipient_unreachable changes no status: a line here keeps the parcel's event sequence
-- one counter, as for reminders. It may come before the parcel has a deadline.
ALTER TABLE parcels.pickup_history ALTER COLUMN pickup_deadline DROP NOT NULL;
ALTER TABLE parcels.pickup_history DROP CONSTRAINT pickup_history_kind_check;
ALTER TABLE parcels.pickup_history
  ADD CONSTRAINT pickup_history_kind_check CHECK (kind IN ('reminder', 'extension', 'closure', 'recipient_unreachable'));
