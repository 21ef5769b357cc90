-- Return shipments (issue 21): a customer's return is charged when it is dropped off, once per
-- return parcel, and like a return fee it is never refused: the balance may go below zero by
-- return fees and return shipments only.
ALTER TABLE wallet.accounts ADD COLUMN return_shipments_centimes bigint NOT NULL DEFAULT 0 CHECK (return_shipments_centimes >= 0);
ALTER TABLE wallet.accounts DROP CONSTRAINT accounts_below_zero_by_return_fees_only;
ALTER TABLE wallet.accounts ADD CONSTRAINT accounts_below_zero_by_returns_only
  CHECK (balance_centimes >= -(return_fees_centimes + return_shipments_centimes));
ALTER TABLE wallet.ledger DROP CONSTRAINT ledger_kind_check;
ALTER TABLE wallet.ledger ADD CONSTRAINT ledger_kind_check
  CHECK (kind IN ('top_up', 'debit', 'refund', 'cod_credit', 'return_fee', 'return_shipment'));
