-- Claims (issue 22): an approved claim credits the wallet of its parcel's mode with the
-- compensation plus the shipping price, as one claim_compensation entry per claim (the unique
-- index makes the credit idempotent, whoever repeats it), referring to its parcel and its claim.
ALTER TABLE wallet.ledger ADD COLUMN claim_id uuid;
ALTER TABLE wallet.ledger DROP CONSTRAINT ledger_kind_check;
ALTER TABLE wallet.ledger ADD CONSTRAINT ledger_kind_check
  CHECK (kind IN ('top_up', 'debit', 'refund', 'cod_credit', 'return_fee', 'return_shipment', 'claim_compensation'));
ALTER TABLE wallet.ledger ADD CONSTRAINT ledger_claim_reference CHECK ((kind = 'claim_compensation') = (claim_id IS NOT NULL));
CREATE UNIQUE INDEX ledger_one_per_claim ON wallet.ledger (claim_id) WHERE claim_id IS NOT NULL;
