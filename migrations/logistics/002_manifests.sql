-- Issue 44 B: manifests. The two tables of 001 were never used (no code wrote them); they are made
-- again here with what a manifest is once made: its lines as printed (immutable, so the document
-- and the API answer the same thing however the parcels move on), the request's fingerprint for
-- Idempotency-Key, and the pickup it was made from.
DROP TABLE logistics.manifest_parcels;
DROP TABLE logistics.manifests;

CREATE TABLE logistics.manifests (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  number text NOT NULL UNIQUE,
  pickup_date date NOT NULL,
  address jsonb NOT NULL,
  pickup_id uuid REFERENCES logistics.pickups (id),
  idempotency_key text,
  request_fingerprint text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX manifests_idempotency ON logistics.manifests (organization_id, mode, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX manifests_by_owner ON logistics.manifests (organization_id, mode, created_at DESC, id DESC);

-- A parcel is on one manifest only: the primary key on parcel_id says it (409 otherwise). The
-- recipient hint is a first name and the phone's last two digits, nothing more (what a courier
-- needs to tell two parcels apart at the door); amounts in DZD as printed.
CREATE TABLE logistics.manifest_parcels (
  parcel_id uuid PRIMARY KEY,
  manifest_id uuid NOT NULL REFERENCES logistics.manifests (id),
  line smallint NOT NULL,
  tracking_number text NOT NULL,
  recipient_hint text NOT NULL,
  relay_code text NOT NULL,
  cod_amount_dzd numeric(14, 2),
  declared_value_dzd numeric(14, 2)
);
CREATE INDEX manifest_parcels_by_manifest ON logistics.manifest_parcels (manifest_id, line);

-- The courier's one scan of a manifest at a pickup (idempotent by the device's Idempotency-Key).
CREATE TABLE logistics.manifest_scans (
  id uuid PRIMARY KEY,
  manifest_id uuid NOT NULL REFERENCES logistics.manifests (id),
  pickup_id uuid NOT NULL REFERENCES logistics.pickups (id),
  courier_id uuid,
  occurred_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX manifest_scans_by_pickup ON logistics.manifest_scans (pickup_id);

-- The merchant's count at closing: wrong codes tried, and when a right one was used.
CREATE TABLE logistics.pickup_counts (
  pickup_id uuid PRIMARY KEY REFERENCES logistics.pickups (id),
  wrong_tries smallint NOT NULL DEFAULT 0,
  confirmed_count integer,
  confirmed_at timestamptz
);
