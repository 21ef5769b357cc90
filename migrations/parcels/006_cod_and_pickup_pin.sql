-- Cash on delivery (lib/cod.ts): what became of the cash a COD parcel carries.
--   PENDING       to be collected at hand-over
--   COLLECTED     the parcel was DELIVERED: the relay point holds the cash
--   REMITTED      paid to the merchant in a remittance (cod_remittance_id)
--   NOT_COLLECTED the parcel never reached the recipient (returned, lost, damaged, cancelled)
-- null when the parcel carries no COD. Only moves forward.
ALTER TABLE parcels.parcels
  ADD COLUMN cod_status text CHECK (cod_status IN ('PENDING', 'COLLECTED', 'REMITTED', 'NOT_COLLECTED')),
  -- The pick-up PIN of a live parcel (lib/pickup-pin.ts), AES-256-GCM with ENCRYPTION_KEY: it must
  -- be read back for the pick-up SMS, and it is never answered by any API.
  ADD COLUMN pickup_pin_enc text,
  ADD COLUMN pickup_pin_failures integer NOT NULL DEFAULT 0 CHECK (pickup_pin_failures >= 0);

UPDATE parcels.parcels SET cod_status = CASE
    WHEN status = 'DELIVERED' THEN 'COLLECTED'
    WHEN status IN ('RETURNED', 'LOST', 'DAMAGED', 'CANCELLED') THEN 'NOT_COLLECTED'
    ELSE 'PENDING' END
  WHERE cod_amount_centimes > 0;
ALTER TABLE parcels.parcels ADD CONSTRAINT parcels_cod_status_iff_cod
  CHECK ((cod_status IS NULL) = (cod_amount_centimes IS NULL OR cod_amount_centimes = 0));

-- The remittance builder reads an organisation's collected parcels.
CREATE INDEX parcels_cod_collected ON parcels.parcels (organization_id, mode) WHERE cod_status = 'COLLECTED';

-- Whether an organisation's remitted COD is paid out (a transfer) or credited to its wallet.
CREATE TABLE parcels.cod_settings (
  organization_id uuid PRIMARY KEY,
  payout text NOT NULL CHECK (payout IN ('TRANSFER', 'WALLET')),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A remittance: the COD of some collected parcels of one organisation and mode, paid at once.
-- wallet_credit_pending: a WALLET remittance whose credit the wallet has not acknowledged yet
-- (the sweeper repeats it; the credit is idempotent per remittance).
CREATE TABLE parcels.cod_remittances (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  reference text NOT NULL CHECK (char_length(reference) BETWEEN 1 AND 100),
  paid_on date NOT NULL,
  payout text NOT NULL CHECK (payout IN ('TRANSFER', 'WALLET')),
  parcel_count integer NOT NULL CHECK (parcel_count > 0),
  total_centimes bigint NOT NULL CHECK (total_centimes > 0),
  wallet_credit_pending boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (NOT wallet_credit_pending OR payout = 'WALLET')
);
CREATE INDEX cod_remittances_list ON parcels.cod_remittances (organization_id, mode, created_at DESC, id DESC);
CREATE INDEX cod_remittances_credit_pending ON parcels.cod_remittances (created_at) WHERE wallet_credit_pending;

-- The parcels of each remittance. parcel_id is the primary key: a parcel is in one remittance at
-- most, whatever the application does (two remittances made at once cannot share a parcel).
CREATE TABLE parcels.cod_remittance_parcels (
  parcel_id uuid PRIMARY KEY REFERENCES parcels.parcels (id),
  remittance_id uuid NOT NULL REFERENCES parcels.cod_remittances (id),
  amount_centimes bigint NOT NULL CHECK (amount_centimes > 0)
);
CREATE INDEX cod_remittance_parcels_remittance ON parcels.cod_remittance_parcels (remittance_id);

-- The COD events of a parcel (cod.collected, cod.remitted), beside its status history: a parcel's
-- event sequence counts both, so that a receiver ordering by sequence sees them in place.
CREATE TABLE parcels.cod_history (
  id bigserial PRIMARY KEY,
  parcel_id uuid NOT NULL REFERENCES parcels.parcels (id) ON DELETE CASCADE,
  to_status text NOT NULL,
  remittance_id uuid REFERENCES parcels.cod_remittances (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cod_history_parcel ON parcels.cod_history (parcel_id, id);
