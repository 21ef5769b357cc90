-- Remitted cash on delivery credited to the wallet (an organisation's choice): one entry per
-- remittance, never two (the unique index makes the credit idempotent, whoever repeats it).
ALTER TABLE wallet.ledger ADD COLUMN remittance_id uuid;
ALTER TABLE wallet.ledger DROP CONSTRAINT ledger_check;
ALTER TABLE wallet.ledger DROP CONSTRAINT ledger_kind_check;
ALTER TABLE wallet.ledger ADD CONSTRAINT ledger_kind_check CHECK (kind IN ('top_up', 'debit', 'refund', 'cod_credit'));
ALTER TABLE wallet.ledger ADD CONSTRAINT ledger_kind_reference CHECK (
  CASE kind
    WHEN 'top_up' THEN parcel_id IS NULL AND remittance_id IS NULL
    WHEN 'cod_credit' THEN parcel_id IS NULL AND remittance_id IS NOT NULL
    ELSE parcel_id IS NOT NULL AND remittance_id IS NULL
  END
);
CREATE UNIQUE INDEX ledger_one_per_remittance ON wallet.ledger (remittance_id) WHERE remittance_id IS NOT NULL;
