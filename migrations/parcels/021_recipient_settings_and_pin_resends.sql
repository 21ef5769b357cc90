-- Issue 30. An organisation's settings for its recipients, per mode like the return settings:
-- refuse (400 RECIPIENT_PHONE_INVALID) a number that cannot take an SMS instead of accepting it
-- with a warning, and the language of the SMS when a parcel names none.
CREATE TABLE parcels.recipient_settings (
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  reject_non_mobile_phones boolean NOT NULL DEFAULT false,
  default_language text NOT NULL DEFAULT 'fr' CHECK (default_language IN ('fr', 'ar', 'en')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, mode)
);

-- "Send me the code again": one line per request granted, counted per parcel and per client
-- address over a day. The address is kept as a keyed hash, not in clear.
CREATE TABLE parcels.pin_resends (
  id bigserial PRIMARY KEY,
  parcel_id uuid REFERENCES parcels.parcels (id) ON DELETE CASCADE,
  tracking_number text NOT NULL,
  client_hash text,
  requested_by text NOT NULL CHECK (requested_by IN ('recipient', 'agent')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pin_resends_by_tracking ON parcels.pin_resends (tracking_number, created_at);
CREATE INDEX pin_resends_by_client ON parcels.pin_resends (client_hash, created_at) WHERE client_hash IS NOT NULL;
