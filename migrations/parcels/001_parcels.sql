CREATE TABLE parcels.relay_points (
  code text PRIMARY KEY CHECK (code ~ '^[A-Z]{2}-[A-Z0-9-]{3,30}$'),
  name text NOT NULL,
  city text NOT NULL,
  wilaya text,
  address text,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- status PENDING is internal (the saga has not been paid yet) and never visible through the API.
CREATE TABLE parcels.parcels (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  tracking_number text NOT NULL UNIQUE,
  status text NOT NULL,
  destination_relay_code text NOT NULL REFERENCES parcels.relay_points (code),
  recipient_name_enc text NOT NULL,
  recipient_phone_enc text NOT NULL,
  weight_g integer NOT NULL,
  length_cm integer,
  width_cm integer,
  height_cm integer,
  declared_value_centimes bigint,
  cod_amount_centimes bigint,
  price_centimes bigint NOT NULL CHECK (price_centimes > 0),
  idempotency_key text,
  request_fingerprint text,
  refund_pending boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX parcels_list ON parcels.parcels (organization_id, mode, created_at DESC, id DESC);
CREATE INDEX parcels_list_by_status ON parcels.parcels (organization_id, mode, status, created_at DESC, id DESC);
CREATE INDEX parcels_pending ON parcels.parcels (created_at) WHERE status = 'PENDING';
CREATE INDEX parcels_refund_pending ON parcels.parcels (updated_at) WHERE refund_pending;
CREATE UNIQUE INDEX parcels_idempotency ON parcels.parcels (organization_id, mode, idempotency_key)
  WHERE idempotency_key IS NOT NULL;

CREATE TABLE parcels.status_history (
  id bigserial PRIMARY KEY,
  parcel_id uuid NOT NULL REFERENCES parcels.parcels (id) ON DELETE CASCADE,
  from_status text,
  to_status text NOT NULL,
  reason text,
  actor text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX status_history_parcel ON parcels.status_history (parcel_id, id);

-- Written in the same transaction as every status change; relayed to webhooks/notifications.
CREATE TABLE parcels.outbox (
  id bigserial PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  parcel_id uuid NOT NULL,
  organization_id uuid NOT NULL,
  mode text NOT NULL,
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  dispatched_at timestamptz
);
CREATE INDEX outbox_undispatched ON parcels.outbox (id) WHERE dispatched_at IS NULL;
