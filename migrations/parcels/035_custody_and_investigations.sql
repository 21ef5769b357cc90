-- Issue 44 D (decision 0056). Who holds a parcel, kept on the parcel so that the partner GET (the
-- hottest read) shows it without asking logistics: the holder's kind, since when, and the one name
-- a merchant may see (a courier's first name, a hub's code, a relay's code). Written by
-- parcels.recordCustody, which logistics calls after each scan. Nullable without a default and
-- without a CHECK (the code checks the kinds): adding them rewrites and scans nothing.
ALTER TABLE parcels.parcels ADD COLUMN custody_holder text;
ALTER TABLE parcels.parcels ADD COLUMN custody_since timestamptz;
ALTER TABLE parcels.parcels ADD COLUMN custody_name text;
ALTER TABLE parcels.parcels ADD COLUMN custody_wilaya text;

-- A parcel the network must look for: silent too long in its custody (NO_SCAN), or a recipient's
-- "not me" on a hand-over (HANDOVER_DISPUTED). One open investigation per parcel: the unique index
-- makes two passes, or a pass and a dispute, open one.
CREATE TABLE parcels.investigations (
  id uuid PRIMARY KEY,
  parcel_id uuid NOT NULL REFERENCES parcels.parcels (id),
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  reason text NOT NULL CHECK (reason IN ('NO_SCAN', 'HANDOVER_DISPUTED')),
  holder text,
  holder_name text,
  holder_since timestamptz,
  dispute_id uuid,
  opened_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  -- FOUND: a scan came; LOST: past the second limit; DISMISSED: left its custody otherwise (arrival by another path).
  outcome text CHECK (outcome IN ('FOUND', 'LOST', 'DISMISSED')),
  CONSTRAINT investigations_closed_with_outcome CHECK ((closed_at IS NULL) = (outcome IS NULL))
);
CREATE UNIQUE INDEX investigations_one_open ON parcels.investigations (parcel_id) WHERE closed_at IS NULL;
CREATE INDEX investigations_open_queue ON parcels.investigations (opened_at, id) WHERE closed_at IS NULL;

-- The investigation's webhooks (parcel.investigation_opened / _closed): a line each, so that the
-- parcel's event sequence stays one counter (parcels.store eventCount).
CREATE TABLE parcels.investigation_history (
  id bigserial PRIMARY KEY,
  investigation_id uuid NOT NULL REFERENCES parcels.investigations (id),
  parcel_id uuid NOT NULL REFERENCES parcels.parcels (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('opened', 'closed')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX investigation_history_parcel ON parcels.investigation_history (parcel_id, id);
