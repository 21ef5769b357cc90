-- One balance per organisation and mode; live and sandbox money never mix.
CREATE TABLE wallet.accounts (
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  balance_centimes bigint NOT NULL DEFAULT 0 CHECK (balance_centimes >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, mode)
);

-- Every movement of money. A refund row with amount 0 is a tombstone: the parcel was abandoned
-- before its debit landed, and a late debit for it must be refused.
CREATE TABLE wallet.ledger (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  kind text NOT NULL CHECK (kind IN ('top_up', 'debit', 'refund')),
  amount_centimes bigint NOT NULL CHECK (amount_centimes >= 0),
  parcel_id uuid,
  balance_after_centimes bigint NOT NULL,
  reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'top_up') = (parcel_id IS NULL))
);

-- At most one debit and one refund per parcel: the idempotence of the saga rests on this.
CREATE UNIQUE INDEX ledger_one_per_parcel_and_kind ON wallet.ledger (parcel_id, kind) WHERE parcel_id IS NOT NULL;
CREATE INDEX ledger_account_recent ON wallet.ledger (organization_id, mode, created_at DESC);
