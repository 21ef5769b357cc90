-- Return fees (issue 18): a return costs the merchant a share of the price paid, charged once per
-- parcel (the unique index ledger_one_per_parcel_and_kind makes the charge idempotent). A fee is
-- never refused for want of balance, so the balance may go below zero — by return fees only:
-- debits keep their conditional update (balance >= price), and the constraint below keeps the
-- balance above minus every return fee ever charged to the account.
ALTER TABLE wallet.accounts ADD COLUMN return_fees_centimes bigint NOT NULL DEFAULT 0 CHECK (return_fees_centimes >= 0);
ALTER TABLE wallet.accounts DROP CONSTRAINT accounts_balance_centimes_check;
ALTER TABLE wallet.accounts ADD CONSTRAINT accounts_below_zero_by_return_fees_only CHECK (balance_centimes >= -return_fees_centimes);
ALTER TABLE wallet.ledger DROP CONSTRAINT ledger_kind_check;
ALTER TABLE wallet.ledger ADD CONSTRAINT ledger_kind_check CHECK (kind IN ('top_up', 'debit', 'refund', 'cod_credit', 'return_fee'));
