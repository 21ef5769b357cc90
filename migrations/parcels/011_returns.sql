-- Returns (issue 21): the customer of a delivered parcel sends it back with a code, at any relay point.
--   direction          OUTBOUND (a merchant's parcel) or RETURN (the parcel a drop-off made)
--   return_of          the delivered parcel a return parcel brings back
--   origin_relay_code  where a return parcel was dropped off: it waits there for the courier
ALTER TABLE parcels.parcels
  ADD COLUMN direction text NOT NULL DEFAULT 'OUTBOUND' CHECK (direction IN ('OUTBOUND', 'RETURN')),
  ADD COLUMN return_of uuid REFERENCES parcels.parcels (id),
  ADD COLUMN origin_relay_code text REFERENCES parcels.relay_points (code),
  ADD CONSTRAINT parcels_return_has_origin CHECK ((direction = 'RETURN') = (return_of IS NOT NULL));

CREATE INDEX parcels_list_by_direction ON parcels.parcels (organization_id, mode, direction, created_at DESC, id DESC);
-- A relay point's outgoing list: return parcels dropped off there, waiting for the courier.
CREATE INDEX parcels_relay_outgoing ON parcels.parcels (origin_relay_code, created_at, id)
  WHERE origin_relay_code IS NOT NULL AND status = 'READY_FOR_PICKUP';

-- Where an organisation's returns go unless a return names its own relay point (one per mode).
CREATE TABLE parcels.return_settings (
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  return_relay_code text NOT NULL REFERENCES parcels.relay_points (code),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, mode)
);

-- A return of a delivered parcel. The code is drawn at random (returns/return-code.ts) and unique
-- among open returns; fee_pending: dropped off, and the wallet has not acknowledged the
-- RETURN_SHIPMENT charge yet (the returns pass repeats it; the charge is idempotent per return parcel).
CREATE TABLE parcels.returns (
  id uuid PRIMARY KEY,
  parcel_id uuid NOT NULL REFERENCES parcels.parcels (id),
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  status text NOT NULL CHECK (status IN ('AWAITING_DROP_OFF', 'DROPPED_OFF', 'EXPIRED', 'CANCELLED')),
  return_code text NOT NULL CHECK (return_code ~ '^[A-HJKMNP-Z2-9]{8}$'),
  reason text NOT NULL,
  items jsonb,
  destination_relay_code text NOT NULL REFERENCES parcels.relay_points (code),
  fee_centimes bigint NOT NULL CHECK (fee_centimes > 0),
  fee_pending boolean NOT NULL DEFAULT false,
  return_parcel_id uuid UNIQUE REFERENCES parcels.parcels (id),
  dropped_off_relay_code text REFERENCES parcels.relay_points (code),
  expires_at timestamptz NOT NULL,
  dropped_off_at timestamptz,
  closed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'DROPPED_OFF') = (return_parcel_id IS NOT NULL)),
  CHECK (NOT fee_pending OR status = 'DROPPED_OFF')
);
CREATE UNIQUE INDEX returns_open_code ON parcels.returns (return_code) WHERE status = 'AWAITING_DROP_OFF';
CREATE UNIQUE INDEX returns_one_open_per_parcel ON parcels.returns (parcel_id) WHERE status IN ('AWAITING_DROP_OFF', 'DROPPED_OFF');
CREATE INDEX returns_code ON parcels.returns (return_code, created_at DESC);
CREATE INDEX returns_list ON parcels.returns (organization_id, mode, created_at DESC, id DESC);
CREATE INDEX returns_due ON parcels.returns (expires_at) WHERE status = 'AWAITING_DROP_OFF';
CREATE INDEX returns_fee_pending ON parcels.returns (updated_at) WHERE fee_pending;

-- The return.* events of a parcel: a line each, so that the parcel's event sequence (status + COD +
-- deadline + these) stays one counter.
CREATE TABLE parcels.return_history (
  id bigserial PRIMARY KEY,
  parcel_id uuid NOT NULL REFERENCES parcels.parcels (id) ON DELETE CASCADE,
  return_id uuid NOT NULL REFERENCES parcels.returns (id),
  type text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX return_history_parcel ON parcels.return_history (parcel_id, id);
