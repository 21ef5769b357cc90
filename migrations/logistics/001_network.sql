-- Issue 44: the first and middle mile. The logistics service owns the network's data: hubs,
-- couriers, merchants' pickups and manifests, and the custody scans. Parcels keep their state
-- machine in the parcels schema; a parcel here is only its id and its owner (organisation, mode).
CREATE SCHEMA IF NOT EXISTS logistics;

CREATE TABLE logistics.hubs (
  id uuid PRIMARY KEY,
  code text NOT NULL UNIQUE,
  wilaya_code smallint NOT NULL,
  name text NOT NULL,
  address text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The phone is PII: sealed (lib/crypto.ts). Only the first name is ever shown to a merchant.
CREATE TABLE logistics.couriers (
  id uuid PRIMARY KEY,
  first_name text NOT NULL,
  last_name text NOT NULL,
  phone_enc text NOT NULL,
  home_hub_id uuid NOT NULL REFERENCES logistics.hubs (id),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A merchant's pickup request (issue 44 B). The address is a merchant's shop address (not a
-- person's): kept in clear; the contact's name and phone are sealed.
CREATE TABLE logistics.pickups (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  confirmation_number text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('REQUESTED', 'CONFIRMED', 'IN_PROGRESS', 'COMPLETED', 'PARTIALLY_COMPLETED', 'MISSED', 'CANCELLED')),
  address jsonb NOT NULL,
  ready_at timestamptz NOT NULL,
  close_at timestamptz NOT NULL,
  cancel_by timestamptz NOT NULL,
  contact_name_enc text,
  contact_phone_enc text,
  instructions text,
  -- The request's Idempotency-Key: a repeat of the same key gives the same pickup.
  idempotency_key text,
  request_fingerprint text,
  courier_id uuid REFERENCES logistics.couriers (id),
  missing jsonb,
  unexpected jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (close_at > ready_at)
);
CREATE UNIQUE INDEX pickups_idempotency ON logistics.pickups (organization_id, mode, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX pickups_by_owner ON logistics.pickups (organization_id, mode, created_at DESC, id DESC);

-- The parcels of a pickup; a parcel is in at most one pickup that is not over (index below).
CREATE TABLE logistics.pickup_parcels (
  pickup_id uuid NOT NULL REFERENCES logistics.pickups (id),
  parcel_id uuid NOT NULL,
  -- ANNOUNCED: listed; COLLECTED: the courier scanned it; MISSING: the stop closed without it; RELEASED: pickup cancelled.
  state text NOT NULL DEFAULT 'ANNOUNCED' CHECK (state IN ('ANNOUNCED', 'COLLECTED', 'MISSING', 'RELEASED')),
  PRIMARY KEY (pickup_id, parcel_id)
);
CREATE UNIQUE INDEX pickup_parcels_one_open ON logistics.pickup_parcels (parcel_id) WHERE state = 'ANNOUNCED';

-- A manifest: one pickup address and one day, immutable once made (no UPDATE path exists).
CREATE TABLE logistics.manifests (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  number text NOT NULL UNIQUE,
  pickup_date date NOT NULL,
  address jsonb NOT NULL,
  idempotency_key text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX manifests_idempotency ON logistics.manifests (organization_id, mode, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX manifests_by_owner ON logistics.manifests (organization_id, mode, created_at DESC, id DESC);

-- A parcel is on one manifest only: the primary key on parcel_id says it (409 otherwise).
CREATE TABLE logistics.manifest_parcels (
  parcel_id uuid PRIMARY KEY,
  manifest_id uuid NOT NULL REFERENCES logistics.manifests (id),
  line smallint NOT NULL
);
CREATE INDEX manifest_parcels_by_manifest ON logistics.manifest_parcels (manifest_id, line);

-- Every scan of the network, both sides of a hand-off: `holder_*` is who holds the parcel after
-- it, `giver_*` who handed it over. Idempotent by (actor, Idempotency-Key).
CREATE TABLE logistics.scans (
  id uuid PRIMARY KEY,
  parcel_id uuid NOT NULL,
  kind text NOT NULL,
  holder_kind text NOT NULL CHECK (holder_kind IN ('merchant', 'courier', 'hub', 'relay', 'recipient')),
  holder_id text,
  giver_kind text CHECK (giver_kind IN ('merchant', 'courier', 'hub', 'relay')),
  giver_id text,
  hub_id uuid REFERENCES logistics.hubs (id),
  pickup_id uuid REFERENCES logistics.pickups (id),
  confirmed_by text,
  occurred_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX scans_by_parcel ON logistics.scans (parcel_id, occurred_at, recorded_at);
