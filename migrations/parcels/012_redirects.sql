-- Redirects before arrival (issue 21). Each change of a parcel's destination relay point, by its
-- merchant or by its recipient: at most two per parcel, the recipient's at most one, counted
-- under the parcel's row lock. A line here is one event of the parcel (parcel.redirected), in the
-- same sequence as its status, COD and deadline events; `status` is the parcel's, unchanged.
CREATE TABLE parcels.redirects (
  id bigserial PRIMARY KEY,
  parcel_id uuid NOT NULL REFERENCES parcels.parcels (id) ON DELETE CASCADE,
  from_relay_code text NOT NULL,
  to_relay_code text NOT NULL,
  status text NOT NULL,
  by text NOT NULL CHECK (by IN ('merchant', 'recipient')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX redirects_parcel ON parcels.redirects (parcel_id, id);

-- The recipient's verification codes (6 digits by SMS). Only an HMAC of the code is kept (keyed
-- by the service's ENCRYPTION_KEY, so a copy of the table cannot be brute-forced offline). A code
-- is valid 10 minutes and 5 wrong tries; a new code ends the previous one; 3 codes an hour.
CREATE TABLE parcels.redirect_codes (
  id uuid PRIMARY KEY,
  parcel_id uuid NOT NULL REFERENCES parcels.parcels (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX redirect_codes_parcel ON parcels.redirect_codes (parcel_id, created_at);
