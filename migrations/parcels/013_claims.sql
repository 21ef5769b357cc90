-- Claims (issue 22): a merchant asks for compensation for a lost, damaged or emptied parcel; the
-- network attaches its own evidence (a snapshot taken when the claim is opened: json, not jsonb,
-- keeps its fields in the order the API shows them) and an operator decides. One OPEN claim per
-- parcel (the partial unique index), at most one APPROVED.
--   credit_pending   approved, and the wallet has not acknowledged the credit yet (the holding
--                    pass asks again; the wallet's credit is idempotent per claim)
--   paid_centimes    what the wallet credited: the compensation plus the shipping price
CREATE TABLE parcels.claims (
  id uuid PRIMARY KEY,
  parcel_id uuid NOT NULL REFERENCES parcels.parcels (id),
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  type text NOT NULL CHECK (type IN ('LOST', 'DAMAGED', 'MISSING_CONTENT')),
  status text NOT NULL CHECK (status IN ('OPEN', 'APPROVED', 'REJECTED')),
  description text NOT NULL,
  amount_claimed_centimes bigint NOT NULL CHECK (amount_claimed_centimes > 0),
  max_compensation_centimes bigint NOT NULL CHECK (max_compensation_centimes >= 0),
  evidence json NOT NULL,
  compensation_centimes bigint CHECK (compensation_centimes >= 0 AND compensation_centimes <= max_compensation_centimes),
  decision_note text,
  decided_at timestamptz,
  credit_pending boolean NOT NULL DEFAULT false,
  paid_centimes bigint CHECK (paid_centimes >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT claims_decided CHECK ((status = 'OPEN') = (decided_at IS NULL)),
  CONSTRAINT claims_compensation_when_approved CHECK ((status = 'APPROVED') = (compensation_centimes IS NOT NULL)),
  CONSTRAINT claims_credit_when_approved CHECK (NOT credit_pending OR status = 'APPROVED')
);
CREATE UNIQUE INDEX claims_one_open_per_parcel ON parcels.claims (parcel_id) WHERE status = 'OPEN';
CREATE UNIQUE INDEX claims_one_approved_per_parcel ON parcels.claims (parcel_id) WHERE status = 'APPROVED';
CREATE INDEX claims_by_owner ON parcels.claims (organization_id, mode, created_at DESC, id DESC);
CREATE INDEX claims_by_status ON parcels.claims (status, created_at DESC, id DESC);
CREATE INDEX claims_credit_pending ON parcels.claims (decided_at) WHERE credit_pending;

-- A claim's events (claim.opened, claim.approved, claim.rejected): a line each, so that the
-- parcel's event sequence (status + COD + deadlines + these) stays one counter.
CREATE TABLE parcels.claim_history (
  id bigserial PRIMARY KEY,
  claim_id uuid NOT NULL REFERENCES parcels.claims (id),
  parcel_id uuid NOT NULL REFERENCES parcels.parcels (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('opened', 'approved', 'rejected')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX claim_history_parcel ON parcels.claim_history (parcel_id, id);
